"""Acceptance (issue 37): ``compare --json`` and ``gate --json`` print one document, key for key
and value for value, whether the run set is scored in this process, merged from three shards
with ``runsets merge``, or scored on a real two-worker Dask cluster on loopback. Only
``source`` (run set id, executor, scheduler, partitions) may differ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise.cli import main
from fieldwise.runner._plan import items_digest
from tests.evaluate._runsets import snapshots, write_runset
from tests.scale._cluster import Cluster, cluster

__all__ = ["cluster"]  # the fixture, used by name

RESULTS = "results"
ASKED = ("--baseline", "v1", "--candidate", "v3", "--candidate", "v2")


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    with pytest.raises(SystemExit) as exited:
        main([*args, "--results-dir", RESULTS])
    out = capsys.readouterr()
    code = int(exited.value.code or 0)
    assert code in (0, 1, 3), out.err
    shown: dict[str, Any] = json.loads(out.out)
    return code, shown


def _versions() -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any] | None]]:
    """30 documents; v2 fixes some invoice numbers v1 got wrong and breaks a few totals, v3
    fixes fewer, and one v3 run failed."""
    truth = {f"inv-{i:03d}": {"invoice_number": f"N{i}", "total": 100.0 + i} for i in range(30)}
    names = sorted(truth)
    v1 = {n: {**truth[n], "invoice_number": "?"} if i % 3 == 0 else truth[n] for i, n in
          enumerate(names)}  # fmt: skip
    v2 = {n: {**truth[n], "total": 1.0} if i % 7 == 0 else truth[n] for i, n in enumerate(names)}
    v3: dict[str, dict[str, Any] | None] = {
        n: v1[n] if i % 2 else truth[n] for i, n in enumerate(names)
    }
    v3[names[4]] = None
    return truth, {"v1": v1, "v2": v2, "v3": v3}  # type: ignore[dict-item]


def _runsets(capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """The whole run set, and the same run in three shards merged with ``runsets merge``."""
    truth, outputs = _versions()
    whole = write_runset(Path(RESULTS), "rs_whole", truth, outputs)
    names = sorted(truth)
    common = {
        "service": "local",
        "processor_id": "proc",
        "eval_set_id": "es_1",
        "version_ids": sorted(outputs),
        "set_items": items_digest(snapshots(truth)),
        "set_item_count": len(names),
    }
    shards = []
    for k in range(3):
        mine = names[k::3]
        shards.append(
            write_runset(
                Path(RESULTS),
                f"rs_shard{k + 1}",
                {n: truth[n] for n in mine},
                {v: {n: by[n] for n in mine} for v, by in outputs.items()},
                arguments={**common, "shard": f"{k + 1}/3"},
            )
        )
    _, merged = _main(capsys, "runsets", "merge", *shards, "--json")
    return whole, str(merged["runset_id"])


def _without_source(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "source"}


def test_compare_and_gate_print_one_document_in_process_merged_and_on_dask(
    capsys: pytest.CaptureFixture[str], cluster: Cluster
) -> None:
    capsys.readouterr()  # the cluster's start-up lines
    whole, merged_id = _runsets(capsys)
    dask = ("--executor", "dask", "--scheduler", cluster.address)
    for command in ("compare", "gate"):
        _, local = _main(capsys, command, whole, *ASKED, "--json")
        _, sharded = _main(capsys, command, merged_id, *ASKED, "--json")
        _, remote = _main(capsys, command, whole, *ASKED, *dask, "--json")
        assert _without_source(sharded) == _without_source(local)
        assert _without_source(remote) == _without_source(local)
        assert (local["source"]["executor"], remote["source"]["executor"]) == ("in-process", "dask")
        assert remote["source"]["scheduler"] == cluster.address
        assert sharded["source"]["runset_id"] == merged_id

        # the figures themselves, not only their agreement: versions as asked, counts exact
        assert local["schema"] == 2
        assert local["versions"] == ["v1", "v3", "v2"]
        assert [r["version"] for r in local["fields"]] == ["v1", "v1", "v3", "v3", "v2", "v2"]
        number = {(r["version"], r["field"]): r for r in local["fields"]}
        assert number[("v1", "invoice_number")]["correct"] == 20
        assert number[("v2", "total")]["wrong"] == 5
        assert [t["candidate"] for t in local["tests"]][:1] == ["v3"]
        assert local["failed_runs"] == [
            {"version": "v3", "item": "it_inv-004", "document": "documents/inv-004.pdf",
             "error": "timeout: no answer"}
        ]  # fmt: skip
    assert local["status"] in ("pass", "fail", "inconclusive")
    assert [v["candidate"] for v in local["verdicts"]] == ["v3", "v2"]
