"""``fieldwise compare RUNSET --executor …`` on a run set written to disk: the in-process
and the Dask executor (a local cluster) print identical figures and say which one ran."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from fieldwise.cli import main
from tests.evaluate._runsets import write_runset

RESULTS = "results"


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main([*args, "--results-dir", RESULTS])
    out = capsys.readouterr()
    return int(exited.value.code or 0), out.out, out.err


def _runset() -> str:
    truth = {f"inv-{i:03d}": {"invoice_number": f"N{i}", "total": 100.0 + i} for i in range(60)}
    v2: dict[str, Any] = {
        name: {**gt, "total": gt["total"] + (1 if i % 7 == 0 else 0)}
        for i, (name, gt) in enumerate(sorted(truth.items()))
    }
    v2["inv-003"] = None  # a failed run: its values count as missed
    v1 = {
        name: {**gt, "invoice_number": "?"} if i % 5 == 0 else gt
        for i, (name, gt) in enumerate(sorted(truth.items()))
    }
    return write_runset(Path(RESULTS), "rs_scale", truth, {"v1": v1, "v2": v2})


def test_dask_and_in_process_print_the_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    runset = _runset()
    code, out, err = _main(capsys, "compare", runset, "--executor", "in-process", "--json")
    assert code == 0, err
    local = json.loads(out)
    code, out, err = _main(capsys, "compare", runset, "--executor", "dask", "--json")
    assert code == 0, err
    remote = json.loads(out)
    assert (local["source"]["executor"], remote["source"]["executor"]) == ("in-process", "dask")
    assert remote["source"]["partitions"] == local["source"]["partitions"] == 1
    assert len(remote["failed_runs"]) == 1
    assert {**remote, "source": None} == {**local, "source": None}
    sig = {r["field"]: r for r in remote["tests"]}
    assert (sig["invoice_number"]["fixed"], sig["invoice_number"]["regressed"]) == (12, 1)

    code, out, err = _main(capsys, "compare", runset, "--executor", "dask")
    assert code == 0, err
    assert out.strip().splitlines()[-1] == "executor: dask on a local cluster, 1 partition"
    assert "invoice_number" in out
    assert "cell accuracy delta" in out  # the in-process table's lines
    assert "document resamples" in out


def test_an_unreachable_scheduler_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runset = _runset()
    with socket.socket() as sock:  # a port nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("FIELDWISE_DASK_SCHEDULER", f"tcp://127.0.0.1:{port}")
    code, _out, err = _main(capsys, "compare", runset, "--executor", "dask")
    assert code == 2
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in err
    assert len(err.strip().splitlines()) == 1
