"""Failed runs are retried a bounded number of times, then recorded; faults change nothing."""

from __future__ import annotations

from typing import Any

from fieldwise.runner import PairPolicy, load_results, run_versions
from tests.faults import FaultInjector, FaultPlan
from tests.runner.conftest import MakeWorld

FAILS_ON_MARK = {"engine": "python", "entrypoint": "tests.runner.engines:fail_marked"}


def test_failed_runs_are_retried_then_recorded_as_failed(make_world: MakeWorld) -> None:
    world = make_world(3, v1=FAILS_ON_MARK, fail=frozenset({1}), allow_python_engines=True)
    kwargs: dict[str, Any] = {
        "eval_set": "texts",
        "processor_id": world.processor_id,
        "versions": [world.v1, world.v2],
        "policy": PairPolicy(run_retries=2),
    }
    result = run_versions(world.connection(), **kwargs)
    assert (result.done, result.succeeded, result.failed) == (6, 5, 1)
    assert world.run_creates() == 5 + 3  # the failing pair: one run and two retries

    frame = load_results(result.runset_id)
    failed = frame[frame.status == "failed"]
    assert failed.file.tolist() == ["documents/doc-01.txt"]
    assert failed.version_id.tolist() == [world.v1]
    row = failed.iloc[0]
    assert row.attempts == 3
    assert row.error_reason
    assert "document marked to fail" in row.error_message
    assert row.value is None
    assert row.run_id.startswith("run_")

    # Failures are not cached: a re-run tries that pair again and takes the rest from cache.
    world.log.clear()
    again = run_versions(world.connection(), **kwargs)
    assert (again.cached, again.failed, again.new_runs) == (5, 1, 3)


def test_a_flaky_service_still_gives_complete_correct_results(make_world: MakeWorld) -> None:
    plan = FaultPlan(seed=7)
    world = make_world(6, wrap=lambda app: FaultInjector(app, plan))
    plan.fail_rate, plan.delay_rate, plan.delay_seconds = 0.2, 0.3, 0.05
    # Three 503s first, whatever the rate draws: with the create held a run is about one
    # request, and twelve runs make too few requests for the rate alone to promise many.
    plan.fail_first = 3
    result = run_versions(
        world.connection(),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=[world.v1, world.v2],
        concurrency=4,
    )
    assert plan.injected >= 3
    assert (result.done, result.succeeded, result.failed) == (12, 12, 0)
    frame = load_results(result.runset_id)
    assert len(frame) == 12
    for row in frame.itertuples():
        assert row.value["invoice_number"] == row.ground_truth["invoice_number"]
        if row.version_id == world.v2:
            assert row.value["total"] == row.ground_truth["total"]
    # A 503 answered in front of the app was never processed, so no pair ran twice.
    assert world.run_creates() == 12
