"""The crash cycle (``benchmarks/crash_cycle.py``, issue 41's acceptance): what it calls lost
and doubled, and its whole cycle on both backends with small numbers, so the script cannot rot.
"""

from __future__ import annotations

from collections import Counter
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from tests.benchmarks.modules import load


@pytest.fixture(scope="module")
def cycle() -> ModuleType:
    return load("crash_cycle")


def _run(cycle: ModuleType, run_id: str, token: str, attempts: int = 1, status: str = "") -> Any:
    params = {cycle.TOKEN_PARAM: token}
    return SimpleNamespace(
        id=run_id, params=params, attempts=attempts, status=status or "succeeded"
    )


def test_judge_counts_lost_doubled_and_re_executed(cycle: ModuleType) -> None:
    runs = [
        _run(cycle, "r1", "t1"),
        _run(cycle, "r2", "t2", attempts=2),  # cut off once, executed again: not doubled
        _run(cycle, "r3", "t3"),  # t3 created twice
        _run(cycle, "r3b", "t3"),
        _run(cycle, "r4", "t4"),  # two end events
        _run(cycle, "r5", "t5"),  # two output files
        _run(cycle, "r6", "t6"),  # executed twice in one attempt
        _run(cycle, "r7", "t7", status="failed"),
    ]
    ended = Counter({r.id: 1 for r in runs} | {"r4": 2})
    outputs = Counter({r.id: 1 for r in runs} | {"r5": 2})
    executed = Counter({r.params[cycle.TOKEN_PARAM]: 1 for r in runs} | {"t2": 2, "t6": 2})
    recorded = cycle.Recorded(runs, ended, outputs, executed, 0)
    # t8's run was never stored; t1 was answered with an id the service does not hold
    accepted = {f"t{n}": f"r{n}" for n in range(2, 9)} | {"t1": "gone"}
    report = cycle.judge("sqlite", 2, cycle.Told(accepted, 1, 2), recorded, 1.0)

    assert (report.accepted, report.runs, report.found_by_token, report.resent) == (8, 8, 1, 2)
    assert report.lost == 2  # t1, t8
    assert report.doubled == 4  # t3, t4, t5, t6
    assert report.re_executed == 2  # t2 (and t6, doubled as well)
    assert report.not_succeeded == 1
    assert not report.ok
    text = cycle.table([report])
    assert "lost: token t8" in text
    assert "executed 2x in 1 attempt(s)" in text


@pytest.mark.slow
def test_two_kills_on_sqlite_lose_and_double_nothing(cycle: ModuleType) -> None:
    plan = cycle.Plan(kills=2, clients=6, per_phase=20)
    [report] = cycle.run(plan, postgresql=False)
    assert report.ok, cycle.table([report])
    assert report.kills == 2
    assert report.accepted == report.runs >= 3 * 20
    assert report.not_succeeded == 0


@pytest.mark.slow
def test_a_kill_of_one_of_two_processes_on_postgresql_loses_and_doubles_nothing(
    cycle: ModuleType,
) -> None:
    plan = cycle.Plan(kills=1, clients=6, per_phase=20)
    [report] = cycle.run(plan, sqlite=False)  # on a PostgreSQL server of its own
    assert report.ok, cycle.table([report])
    assert report.accepted == report.runs >= 2 * 20
    assert report.not_succeeded == 0
