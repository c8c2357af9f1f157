"""Scored cells kept with the run set, so that gating again (another policy, another alpha)
or reporting again runs no comparator and never asks the service.

``<run set>/scored/`` holds ``cells.parquet`` and ``row_counts.parquet`` (values typed, see
:func:`fieldwise.scale.encode_values`) and ``header.json`` with the key they were scored
under: the records file's size and modification time, the spec's digest and the versions.
A key that differs (new records, another spec or other versions) means scoring again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from fieldwise import __version__
from fieldwise.compare import FieldSpec
from fieldwise.compare._provenance import spec_digest
from fieldwise.runner import LoadedRunSet
from fieldwise.scale import decode_values, encode_values

__all__ = ["load_scored", "save_scored", "scored_key"]

SCORED_DIR = "scored"
_FRAMES = ("cells", "row_counts")


def scored_key(
    runset: LoadedRunSet, specs: Mapping[str, FieldSpec], versions: Sequence[str]
) -> dict[str, Any]:
    """What the stored cells must have been scored from to be reused."""
    records = runset.directory / "records.jsonl"
    stat = records.stat() if records.exists() else None
    return {
        "fieldwise_version": __version__,
        "runset_id": runset.manifest.runset_id,
        "records": None if stat is None else [stat.st_size, stat.st_mtime_ns],
        "spec": spec_digest({name: repr(spec) for name, spec in sorted(specs.items())}),
        "versions": list(versions),
    }


def load_scored(
    directory: Path, key: Mapping[str, Any]
) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """The stored (cells, row_counts) when they were scored under ``key``, else None."""
    folder = directory / SCORED_DIR
    try:
        header = json.loads((folder / "header.json").read_text(encoding="utf-8"))
        if header.get("key") != dict(key):
            return None
        frames = [decode_values(pd.read_parquet(folder / f"{n}.parquet")) for n in _FRAMES]
    except (OSError, ValueError):
        return None  # nothing stored, or unreadable: score again
    return frames[0], frames[1]


def save_scored(
    directory: Path, key: Mapping[str, Any], cells: pd.DataFrame, row_counts: pd.DataFrame
) -> None:
    """Store the scored cells under ``key`` (best effort: a read-only run set is scored again
    next time, nothing fails)."""
    folder = directory / SCORED_DIR
    try:
        folder.mkdir(exist_ok=True)
        (folder / "header.json").unlink(missing_ok=True)  # incomplete until rewritten
        for name, frame in zip(_FRAMES, (cells, row_counts), strict=True):
            encode_values(frame).to_parquet(folder / f".{name}.tmp", index=False)
            os.replace(folder / f".{name}.tmp", folder / f"{name}.parquet")
        text = json.dumps({"key": dict(key)}, indent=2, sort_keys=True) + "\n"
        (folder / "header.json").write_text(text, encoding="utf-8")
    except (OSError, ValueError, TypeError):
        return
