"""The runner against a service behind a fault injector: 503s, dropped connections,
truncated answers and requests held past the client's timeout. It must end with complete,
correct results: one record per (item, version) pair, each with the right values."""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise.client import Client, ops
from fieldwise.runner import RunSet, load_results, run_versions
from fieldwise.runner._execute import CREATE_PARAM
from tests.faults import FaultInjector, FaultPlan
from tests.reliability.conftest import MakeWorld
from tests.runner.conftest import World


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
    result = _run_both(world, concurrency=4, timeout=4.0, max_retries=10)
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


def _run_both(world: World, *, concurrency: int, **settings: Any) -> RunSet:
    """Both versions over the world's set, through a client with ``settings``."""
    return run_versions(
        world.connection(**settings),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=[world.v1, world.v2],
        concurrency=concurrency,
    )


def _creates(scope: Any) -> bool:
    return bool(scope["method"] == "POST" and scope["path"].endswith("/runs"))


def _runs_on_service(world: World) -> list[Any]:
    with Client(world.service.base_url, world.service.api_key) as client:
        return list(client.paginate(lambda c: ops.list_runs(world.processor_id, 100, c)))


def _lists(world: World) -> int:
    path = f"/processors/{world.processor_id}/runs"
    return sum(1 for method, p in world.log.requests if method == "GET" and p == path)


@pytest.mark.parametrize("mishap", ["truncate", "error_after"])
def test_a_create_whose_answer_is_lost_starts_no_second_run(
    make_world: MakeWorld, mishap: str
) -> None:
    """The service created (and, held, finished) the run, but its answer never arrived whole:
    a cut body, or a 500 in place of the answer after the work. Asked again blindly, that
    would start a second run of the pair; the runner finds the first by its create token."""
    plan = FaultPlan(seed=3, mishap_script=[mishap] * 3)
    world = make_world(4, wrap=lambda app: FaultInjector(app, plan, only=_creates))
    result = _run_both(world, concurrency=1, timeout=5.0, max_retries=4)
    assert sum(plan.mishaps.values()) == 3
    assert (result.done, result.succeeded, result.failed) == (8, 8, 0)
    assert _lists(world) == 3  # each lost answer was looked up, not asked again
    runs = _runs_on_service(world)
    assert len(runs) == 8, [(r.id, r.params) for r in runs]
    assert len({r.params[CREATE_PARAM] for r in runs}) == 8
    frame = load_results(result.runset_id)
    assert sorted(frame.run_id) == sorted(r.id for r in runs)


def test_a_create_refused_unprocessed_is_asked_again_without_a_lookup(
    make_world: MakeWorld,
) -> None:
    """A 503 says the request was not processed: asking again is safe, and no listing of the
    processor's runs is spent on it."""
    plan = FaultPlan(seed=3, fail_first=3)
    world = make_world(2, wrap=lambda app: FaultInjector(app, plan, only=_creates))
    result = _run_both(world, concurrency=1, timeout=5.0, max_retries=1)
    assert plan.injected == 3
    assert (result.done, result.succeeded, result.failed) == (4, 4, 0)
    assert _lists(world) == 0
    assert len(_runs_on_service(world)) == 4
