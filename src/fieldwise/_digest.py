"""The one ground-truth hash, shared by datasets (``validate``, ``sync``) and the comparison
(run sets, reports, cell stores): standard library only, so loading a dataset stays light."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

__all__ = ["truth_hash"]


def truth_hash(items: Iterable[tuple[str, Any]]) -> str:
    """Hex SHA-256 over (file, ground truth) pairs: the records ``{"file", "ground_truth"}``
    sorted by file, as canonical JSON (sorted keys, no spaces, UTF-8). Order-free."""
    records = sorted(
        ({"file": file, "ground_truth": truth} for file, truth in items),
        key=lambda record: str(record["file"]),
    )
    canonical = json.dumps(
        records, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
