"""The statistics a run set keeps, so that gating again (another policy, another alpha) reads
neither the cells nor the records, runs no comparator and never asks the service. The run-set
store decides where they live; this module decides what they hold and when they may be reused.

They are the merged sufficient statistics (:class:`~fieldwise.compare.Sufficient`)
under a key: the records file's size and modification time, the spec's digest, the versions,
the bootstrap seed and replicates. A key that differs means computing them again.

The only cache a run set keeps besides the cell store: a second ``gate`` reads them in about
a third of the time it takes to score the records again. Scored cells were kept too, once;
reading them back was no faster than scoring again, so they are not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from fieldwise import __version__
from fieldwise.compare import FieldSpec, Sufficient, spec_digest
from fieldwise.runner import LoadedRunSet, read_statistics, records_stamp, write_statistics

__all__ = [
    "load_statistics",
    "save_statistics",
    "statistics_from_json",
    "statistics_json",
    "statistics_key",
]

STATISTICS_FORMAT = "fieldwise-statistics/2"  # 2: score sums (mean_score)


def statistics_key(
    runset: LoadedRunSet,
    specs: Mapping[str, FieldSpec],
    versions: Sequence[str],
    *,
    seed: int,
    n_resamples: int,
) -> dict[str, Any]:
    """What stored statistics must have been computed from to be reused."""
    return {
        "fieldwise_version": __version__,
        "runset_id": runset.manifest.runset_id,
        "records": records_stamp(runset.directory),
        "spec": spec_digest({name: repr(spec) for name, spec in sorted(specs.items())}),
        "versions": list(versions),
        "seed": seed,
        "n_resamples": n_resamples,
    }


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
        "score_sums": [[v, f, total] for (v, f), total in sorted(stats.score_sums.items())],
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
        score_sums={(str(v), str(f)): float(total) for v, f, total in data["score_sums"]},
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
