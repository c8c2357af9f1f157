"""What scoring keeps with a run set, so that gating again (another policy, another alpha)
or reporting again runs no comparator and never asks the service. The run-set store decides
where it lives; this module decides what it holds and when it may be reused.

The scored cells: the ``cells`` and ``row_counts`` frames (values typed, see
:func:`fieldwise.scale.encode_values`) with the key they were scored under: the records
file's size and modification time, the spec's digest and the versions. A key that differs
(new records, another spec or other versions) means scoring again.

The statistics: the merged sufficient statistics
(:class:`~fieldwise.compare._sufficient.Sufficient`) under the same key plus the bootstrap seed
and replicates: what ``fieldwise gate`` decides from, so gating again under a new policy
reads neither the cells nor the scored cells.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise import __version__
from fieldwise.compare import FieldSpec
from fieldwise.compare._provenance import spec_digest
from fieldwise.compare._sufficient import Sufficient
from fieldwise.runner import (
    LoadedRunSet,
    read_scored,
    read_statistics,
    records_stamp,
    write_scored,
    write_statistics,
)
from fieldwise.scale import decode_values, encode_values

__all__ = [
    "load_scored",
    "load_statistics",
    "save_scored",
    "save_statistics",
    "scored_key",
    "statistics_from_json",
    "statistics_json",
    "statistics_key",
]

_FRAMES = ("cells", "row_counts")


def scored_key(
    runset: LoadedRunSet, specs: Mapping[str, FieldSpec], versions: Sequence[str]
) -> dict[str, Any]:
    """What the stored cells must have been scored from to be reused."""
    return {
        "fieldwise_version": __version__,
        "runset_id": runset.manifest.runset_id,
        "records": records_stamp(runset.directory),
        "spec": spec_digest({name: repr(spec) for name, spec in sorted(specs.items())}),
        "versions": list(versions),
    }


def load_scored(
    directory: Path, key: Mapping[str, Any]
) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """The stored (cells, row_counts) when they were scored under ``key``, else None."""
    stored = read_scored(directory, _FRAMES)
    if stored is None or stored[0].get("key") != dict(key):
        return None  # nothing stored, unreadable or scored from something else: score again
    try:
        frames = [decode_values(stored[1][name]) for name in _FRAMES]
    except (KeyError, ValueError):
        return None
    return frames[0], frames[1]


def save_scored(
    directory: Path, key: Mapping[str, Any], cells: pd.DataFrame, row_counts: pd.DataFrame
) -> None:
    """Store the scored cells under ``key`` (best effort: a read-only run set is scored again
    next time, nothing fails)."""
    try:
        frames = {"cells": encode_values(cells), "row_counts": encode_values(row_counts)}
    except (ValueError, TypeError):
        return
    write_scored(directory, {"key": dict(key)}, frames)


STATISTICS_FORMAT = "fieldwise-statistics/1"


def statistics_key(
    runset: LoadedRunSet,
    specs: Mapping[str, FieldSpec],
    versions: Sequence[str],
    *,
    seed: int,
    n_resamples: int,
) -> dict[str, Any]:
    """What stored statistics must have been computed from to be reused: the scored key, the
    bootstrap seed and replicates."""
    return {**scored_key(runset, specs, versions), "seed": seed, "n_resamples": n_resamples}


def _pairs(table: Mapping[tuple[str, str], tuple[int, ...]]) -> list[list[Any]]:
    return [[a, b, list(counts)] for (a, b), counts in sorted(table.items())]


def _unpairs(rows: list[list[Any]]) -> dict[tuple[str, str], tuple[int, ...]]:
    return {(str(a), str(b)): tuple(int(x) for x in counts) for a, b, counts in rows}


def statistics_json(stats: Sufficient) -> dict[str, Any]:
    """``stats`` as plain JSON (integers stay integers: nothing is rounded)."""
    return {
        "baseline": stats.baseline,
        "candidates": list(stats.candidates),
        "weights": list(stats.weights),
        "seed": stats.seed,
        "n_resamples": stats.n_resamples,
        "partitions": stats.partitions,
        "outcomes": _pairs(stats.outcomes),
        "field_weights": dict(sorted(stats.field_weights.items())),
        "documents": {k: list(v) for k, v in sorted(stats.documents.items())},
        "transitions": _pairs(stats.transitions),
        "calibration": {k: list(v) for k, v in sorted(stats.calibration.items())},
        "boot_totals": {k: v.tolist() for k, v in sorted(stats.boot_totals.items())},
        "boot_replicates": {k: v.tolist() for k, v in sorted(stats.boot_replicates.items())},
        "boot_documents": dict(sorted(stats.boot_documents.items())),
        "kept_values": _pairs(stats.kept_values),
        "list_rows": _pairs(stats.list_rows),
    }


def statistics_from_json(data: Mapping[str, Any]) -> Sufficient:
    """Undo :func:`statistics_json`."""

    def arrays(table: Mapping[str, Any]) -> dict[str, npt.NDArray[Any]]:
        out = {}
        for name, values in table.items():
            array = np.array(values)
            out[str(name)] = array if array.dtype.kind == "f" else array.astype(np.int64)
        return out

    return Sufficient(
        baseline=str(data["baseline"]),
        candidates=tuple(str(c) for c in data["candidates"]),
        weights=tuple(float(w) for w in data["weights"]),
        seed=int(data["seed"]),
        n_resamples=int(data["n_resamples"]),
        partitions=int(data["partitions"]),
        outcomes=_unpairs(data["outcomes"]),
        field_weights={str(k): float(v) for k, v in data["field_weights"].items()},
        documents={str(k): tuple(int(x) for x in v) for k, v in data["documents"].items()},
        transitions=_unpairs(data["transitions"]),
        calibration={str(k): tuple(int(x) for x in v) for k, v in data["calibration"].items()},
        boot_totals=arrays(data["boot_totals"]),
        boot_replicates=arrays(data["boot_replicates"]),
        boot_documents={str(k): int(v) for k, v in data["boot_documents"].items()},
        kept_values=_unpairs(data["kept_values"]),
        list_rows=_unpairs(data["list_rows"]),
    )


def load_statistics(directory: Path, key: Mapping[str, Any]) -> Sufficient | None:
    """The statistics stored with the run set when computed under ``key``, else None."""
    data = read_statistics(directory)
    if data is None or data.get("format") != STATISTICS_FORMAT or data.get("key") != dict(key):
        return None
    try:
        return statistics_from_json(data["statistics"])
    except (ValueError, KeyError, TypeError):
        return None  # unreadable: compute again


def save_statistics(directory: Path, key: Mapping[str, Any], stats: Sufficient) -> None:
    """Store ``stats`` under ``key`` next to the cells (best effort, written whole or not at
    all: a read-only run set is scored again next time)."""
    payload = {"format": STATISTICS_FORMAT, "key": dict(key), "statistics": statistics_json(stats)}
    write_statistics(directory, payload)
