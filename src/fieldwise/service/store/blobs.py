"""Content-addressed blob storage under the data dir: ``blobs/ab/cd/<sha256>``.

Writes go to a temporary file in the same folder tree and are renamed into place, so a blob
that exists is always complete.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

_CHUNK = 1024 * 1024


class BlobTooLarge(Exception):
    """The stream passed the size limit; nothing was stored."""


class BlobStore:
    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "tmp").mkdir(parents=True, exist_ok=True)

    def path(self, sha256: str) -> Path:
        return self.root / sha256[:2] / sha256[2:4] / sha256

    def exists(self, sha256: str) -> bool:
        return self.path(sha256).is_file()

    def put_stream(self, stream: BinaryIO, max_bytes: int | None = None) -> tuple[str, int]:
        """Store a stream's bytes; return ``(sha256, size)``. Raises BlobTooLarge past max_bytes."""
        return self._put(iter(lambda: stream.read(_CHUNK), b""), max_bytes)

    def put_bytes(self, data: bytes) -> tuple[str, int]:
        return self._put([data], None)

    def _put(self, chunks: Iterable[bytes], max_bytes: int | None) -> tuple[str, int]:
        digest = hashlib.sha256()
        size = 0
        fd, tmp_name = tempfile.mkstemp(dir=self.root / "tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                for chunk in chunks:
                    size += len(chunk)
                    if max_bytes is not None and size > max_bytes:
                        raise BlobTooLarge(f"more than {max_bytes} bytes")
                    digest.update(chunk)
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            sha = digest.hexdigest()
            target = self.path(sha)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(tmp_name, target)
            return sha, size
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise

    def read(self, sha256: str) -> bytes:
        return self.path(sha256).read_bytes()

    def delete(self, sha256: str) -> bool:
        path = self.path(sha256)
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        return True

    def count(self) -> int:
        return sum(1 for p in self.root.glob("??/??/*") if p.is_file())
