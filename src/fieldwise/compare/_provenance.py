"""The comparability contract: what a set of results was computed against, and what changed.

Two results are comparable only when they were scored against the same ground truth with the
same field specs. :func:`truth_digest` and :func:`spec_digest` fingerprint them;
:func:`truth_changes` and :func:`spec_changes` say, in words, what differs (a relabelled
document and field, a changed comparator option), so a refusal can name it. Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from fieldwise._digest import truth_hash
from fieldwise.compare.score._frame import flatten

__all__ = ["config_digest", "spec_changes", "spec_digest", "truth_changes", "truth_digest"]


def _digest(value: Any) -> str:
    canonical = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def truth_digest(truth: Mapping[str, Mapping[str, Any]]) -> str:
    """SHA-256 of the ground truth by document name: the dataset's ground-truth hash
    (:func:`fieldwise._digest.truth_hash`), so a run set, its cell store and its reports show
    the value ``datasets validate`` and ``sync`` print."""
    return truth_hash((str(name), value) for name, value in truth.items())


def spec_digest(compare_spec: Mapping[str, Any] | None) -> str:
    """SHA-256 of a dataset's compare spec (``{"date_order", "fields"}``: field types and
    comparator options); an absent spec has the digest of ``{}``."""
    return _digest(dict(compare_spec or {}))


def config_digest(config: Mapping[str, Any]) -> str:
    """SHA-256 of a processor version's config."""
    return _digest(dict(config))


def _show(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:39] + "…"


def truth_changes(
    before: Mapping[str, Mapping[str, Any]], after: Mapping[str, Mapping[str, Any]]
) -> list[str]:
    """What differs between two ground truths keyed by document name: documents only on one
    side, and every (document, field) whose expected value changed, as sentences."""
    out = []
    for name in sorted(set(before) - set(after)):
        out.append(f"document {name} is only in the first")
    for name in sorted(set(after) - set(before)):
        out.append(f"document {name} is only in the second")
    for name in sorted(set(before) & set(after)):
        a, b = flatten(before[name]), flatten(after[name])
        for field in sorted(a.keys() | b.keys()):
            if a.get(field) != b.get(field):
                out.append(
                    f"document {name} field `{field}` relabelled "
                    f"({_show(a.get(field))} -> {_show(b.get(field))})"
                )
    return out


def spec_changes(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[str]:
    """What differs between two compare specs, as sentences (a field added or removed, its
    type or a comparator option changed, the dataset's date order changed)."""
    a, b = dict(before or {}), dict(after or {})
    out = []
    if a.get("date_order") != b.get("date_order"):
        out.append(f"date_order changed ({a.get('date_order')} -> {b.get('date_order')})")
    fa, fb = dict(a.get("fields") or {}), dict(b.get("fields") or {})
    for name in sorted(fa.keys() - fb.keys()):
        out.append(f"field `{name}` is only in the first spec")
    for name in sorted(fb.keys() - fa.keys()):
        out.append(f"field `{name}` is only in the second spec")
    for name in sorted(fa.keys() & fb.keys()):
        oa, ob = flatten(dict(fa[name])), flatten(dict(fb[name]))
        for key in sorted(oa.keys() | ob.keys()):
            if oa.get(key) != ob.get(key):
                what = "type" if key == "type" else f"comparator option `{key}`"
                out.append(
                    f"`{name}` {what} changed ({_show(oa.get(key))} -> {_show(ob.get(key))})"
                )
    return out
