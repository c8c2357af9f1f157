"""Model blobs: skops (no code runs on load) in a canonical zip, behind a checksum.

A blob is ``MAGIC``, the SHA-256 of the payload in hex, a newline, then the payload: a skops
archive rewritten canonically (skops names its array files and memo entries after object ids
and stamps zip entries with the current time; all are replaced, so the same model gives the
same bytes).
Loading checks the magic and the checksum (a flipped byte anywhere is refused), then lets
skops rebuild the objects with an explicit trusted-type list: anything beyond scikit-learn's
tree predictor and skops' own safe defaults (numpy arrays, built-in containers, scikit-learn
estimators) is refused, never imported.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from typing import Any

from fieldwise.service.engines.training.params import ModelError

__all__ = ["TRUSTED_TYPES", "dump_payload", "load_payload"]

MAGIC = b"FWMODEL1\n"
_DIGEST_LEN = 64
#: The only types beyond skops' safe defaults a model may hold.
TRUSTED_TYPES = ("sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor",)
_EPOCH = (1980, 1, 1, 0, 0, 0)
_FILE = re.compile(r'"file": "([^"]+)"')
_ID = re.compile(r'"__id__": (\d+)')


def _canonical(archive: bytes) -> bytes:
    """The skops archive with array files and object ids numbered by first use, and fixed
    zip metadata."""
    with zipfile.ZipFile(io.BytesIO(archive)) as source:
        schema = source.read("schema.json").decode("utf-8")
        names: dict[str, str] = {}
        for name in _FILE.findall(schema):
            names.setdefault(name, f"{len(names):05d}.npy")
        schema = _FILE.sub(lambda m: f'"file": "{names[m.group(1)]}"', schema)
        # object ids only tie shared references together: number them by first use
        ids: dict[str, int] = {}
        for found in _ID.findall(schema):
            ids.setdefault(found, len(ids) + 1)
        schema = _ID.sub(lambda m: f'"__id__": {ids[m.group(1)]}', schema)
        files = {new: source.read(old) for old, new in names.items()}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name, data in [("schema.json", schema.encode("utf-8")), *sorted(files.items())]:
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, data, compresslevel=6)
    return out.getvalue()


def dump_payload(obj: Any) -> bytes:
    """The blob of ``obj`` (built-in containers, strings, numbers and fitted classifiers)."""
    import skops.io as sio

    payload = _canonical(sio.dumps(obj))
    return MAGIC + hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload


def load_payload(blob: bytes) -> Any:
    """The object of a blob; :class:`ModelError` for anything corrupt, tampered or untrusted."""
    if not isinstance(blob, bytes | bytearray | memoryview):
        raise ModelError(f"model blob: expected bytes, got {type(blob).__name__}")
    blob = bytes(blob)
    if not blob.startswith(MAGIC):
        raise ModelError("model blob: not a fieldwise model (unknown header)")
    head = len(MAGIC) + _DIGEST_LEN
    digest, payload = blob[len(MAGIC) : head], blob[head + 1 :]
    if blob[head : head + 1] != b"\n" or hashlib.sha256(payload).hexdigest().encode() != digest:
        raise ModelError("model blob: checksum mismatch (the blob is corrupt or was modified)")
    import skops.io as sio

    try:
        untrusted = sio.get_untrusted_types(data=payload)
    except Exception as exc:  # skops reports a bad archive with many exception types
        raise ModelError(f"model blob: unreadable model archive ({exc})") from exc
    refused = sorted(set(untrusted) - set(TRUSTED_TYPES))
    if refused:
        raise ModelError(f"model blob: refused untrusted type(s): {', '.join(refused)}")
    try:
        return sio.loads(payload, trusted=list(TRUSTED_TYPES))
    except Exception as exc:
        raise ModelError(f"model blob: cannot load the model ({exc})") from exc


def check_json(text: Any, what: str) -> Any:
    """A JSON document stored in the payload, parsed; :class:`ModelError` when it is not."""
    if not isinstance(text, str):
        raise ModelError(f"model blob: {what} is not text")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ModelError(f"model blob: {what} is not valid JSON ({exc})") from exc
