"""The runner against a service behind a fault injector: 503s, dropped connections,
truncated answers and requests held past the client's timeout. It must end with complete,
correct results: one record per (item, version) pair, each with the right values."""

from __future__ import annotations

from fieldwise.runner import load_results, run_versions
from tests.faults import FaultInjector, FaultPlan
from tests.reliability.conftest import MakeWorld


def test_runner_survives_resets_timeouts_503s_and_truncated_bodies(
    make_world: MakeWorld,
) -> None:
    plan = FaultPlan(seed=11)
    world = make_world(10, wrap=lambda app: FaultInjector(app, plan))
    plan.fail_rate, plan.delay_rate, plan.delay_seconds = 0.1, 0.1, 0.05
    plan.reset_rate, plan.truncate_rate, plan.hang_rate = 0.1, 0.1, 0.05
    # A hang outlasts the client's timeout by far, and the timeout is far above what any
    # unhurt request takes on a loaded machine: only injected hangs time out.
    plan.hang_seconds = 8.0
    plan.mishap_script = ["reset", "truncate", "hang"]
    # Three 503s first, so that 503s happen however few requests a run makes (one, with the
    # create held): the rate alone drew fewer than three in one run of twenty.
    plan.fail_first = 3
    result = run_versions(
        world.connection(timeout=4.0, max_retries=10),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=[world.v1, world.v2],
        concurrency=4,
    )
    assert plan.injected >= 3
    assert set(plan.mishaps) == {"reset", "truncate", "hang"}
    assert (result.done, result.succeeded, result.failed) == (20, 20, 0)
    frame = load_results(result.runset_id)
    assert len(frame) == 20
    assert len(set(zip(frame.file, frame.version_id, strict=True))) == 20
    for row in frame.itertuples():
        assert row.status == "succeeded"
        assert row.value["invoice_number"] == row.ground_truth["invoice_number"]
        if row.version_id == world.v2:
            assert row.value["total"] == row.ground_truth["total"]
        else:
            assert "total" not in row.value
