"""run_versions against the real local service: one record per pair, cache, aliases, failures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fieldwise._errors import RunnerError
from fieldwise.runner import (
    RESULT_COLUMNS,
    PairPolicy,
    Progress,
    load_results,
    load_runset,
    run_versions,
)
from tests.runner.conftest import MakeWorld, World


def test_two_versions_give_one_record_per_pair(make_world: MakeWorld) -> None:
    world = make_world(4)
    seen: list[Progress] = []
    result = run_versions(
        world.connection(),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=[world.v1, "published"],
        concurrency=4,
        progress=seen.append,
    )
    assert (result.total, result.done, result.succeeded, result.failed) == (8, 8, 8, 0)
    assert result.new_runs == 8 == world.run_creates()
    assert seen[0].done == 0
    assert seen[-1].done == 8

    frame = load_results(result.runset_id)
    assert list(frame.columns) == list(RESULT_COLUMNS)
    assert len(frame) == 8
    assert set(zip(frame.item_id, frame.version_id, strict=True)).__len__() == 8
    by_version = {v: frame[frame.version_id == v] for v in (world.v1, world.v2)}
    assert by_version[world.v2].version_alias.tolist() == ["published"] * 4
    assert by_version[world.v1].version_alias.isna().all()
    for row in frame.itertuples():
        assert row.value["invoice_number"] == row.ground_truth["invoice_number"]
        assert ("total" in row.value) == (row.version_id == world.v2)
    assert frame.file.str.startswith("documents/doc-").all()

    loaded = load_runset(result.runset_id)
    assert loaded.complete
    assert loaded.manifest.eval_set_id == world.eval_set_id
    assert loaded.manifest.ground_truth_hash
    assert [v.requested for v in loaded.manifest.versions] == [world.v1, "published"]
    assert [v.version_id for v in loaded.manifest.versions] == [world.v1, world.v2]
    assert len(loaded.items) == 4
    assert all(i.file_sha256 for i in loaded.items)
    # what evaluate scores in memory is what the disk holds
    assert result.loaded is not None
    assert result.loaded.manifest == loaded.manifest
    assert result.loaded.items == loaded.items
    by_pair = {r.pair: r for r in loaded.records}
    assert {r.pair: r for r in result.loaded.records} == by_pair


def test_rerun_is_served_from_the_cache(make_world: MakeWorld) -> None:
    world = make_world(3)
    kwargs = {"eval_set": world.eval_set_id, "processor_id": world.processor_id}
    first = run_versions(world.connection(), versions=[world.v1, world.v2], **kwargs)
    assert first.new_runs == 6
    world.log.clear()

    second = run_versions(world.connection(), versions=[world.v1, world.v2], **kwargs)
    assert second.runset_id != first.runset_id
    assert (second.done, second.cached, second.new_runs) == (6, 6, 0)
    assert world.run_creates() == 0  # counted by the server
    a, b = load_results(first.runset_id), load_results(second.runset_id)
    assert a.value.tolist() == b.value.tolist()
    assert b.cached.all()
    assert not a.cached.any()

    third = run_versions(world.connection(), versions=[world.v1], use_cache=False, **kwargs)
    assert (third.cached, third.new_runs) == (0, 3)
    assert world.run_creates() == 3


def test_aliases_resolve_once_and_are_recorded(make_world: MakeWorld) -> None:
    world = make_world(2)
    result = run_versions(
        world.connection(),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=["latest-draft"],
    )
    assert [(v.alias, v.version_id) for v in result.manifest.versions] == [
        ("latest-draft", world.v1)
    ]
    frame = load_results(result.runset_id)
    assert frame.version_alias.tolist() == ["latest-draft"] * 2


@pytest.mark.parametrize(
    ("versions", "message"),
    [
        (["ver_nope"], "no version 'ver_nope'"),
        (["published", "{v2}"], "same version"),
        ([], "at least one version"),
    ],
)
def test_bad_versions_are_refused(make_world: MakeWorld, versions: list[str], message: str) -> None:
    world = make_world(1)
    wanted = [v.format(v2=world.v2) for v in versions]
    with pytest.raises(RunnerError, match=message):
        run_versions(
            world.connection(), eval_set="texts", processor_id=world.processor_id, versions=wanted
        )
    assert world.run_creates() == 0


def test_unknown_eval_set_is_refused(make_world: MakeWorld) -> None:
    world = make_world(1)
    with pytest.raises(RunnerError, match="no evaluation set"):
        run_versions(
            world.connection(),
            eval_set="nope",
            processor_id=world.processor_id,
            versions=["published"],
        )
    assert not Path(".fieldwise/results").exists() or not any(Path(".fieldwise/results").iterdir())


@pytest.mark.parametrize("hold", [0.0, 2.0])
def test_runs_are_awaited_by_held_polls_or_by_back_off(make_world: MakeWorld, hold: float) -> None:
    """By default each poll asks the service to hold its answer (``?wait=``); with
    ``poll_hold_s=0`` (what a service ignoring it amounts to) the runner backs off instead,
    and both give the same records."""
    world = make_world(3)
    pairs = {"eval_set": "texts", "processor_id": world.processor_id}
    policy = PairPolicy(poll_hold_s=hold)
    result = run_versions(world.connection(), versions=[world.v1, world.v2], policy=policy, **pairs)
    assert (result.total, result.succeeded, result.failed) == (6, 6, 0)
    frame = load_results(result.runset_id)
    assert len(frame) == 6
    for row in frame.itertuples():
        assert row.value["invoice_number"] == row.ground_truth["invoice_number"]


def _runs_path(world: World, method: str) -> Callable[[tuple[str, str]], bool]:
    runs = f"/processors/{world.processor_id}/runs"
    return lambda request: request[0] == method and request[1].startswith(runs)


def test_each_run_is_one_request_when_the_create_is_held(make_world: MakeWorld) -> None:
    """The create asks ``?wait=`` as a poll would: the local service answers it once the run
    ended, so no run is asked about again (a long hold: a loaded machine must not matter)."""
    world = make_world(3)
    pairs = {"eval_set": "texts", "processor_id": world.processor_id}
    policy = PairPolicy(poll_hold_s=30.0)
    result = run_versions(
        world.connection(timeout=120), versions=[world.v1, world.v2], policy=policy, **pairs
    )
    assert (result.total, result.succeeded) == (6, 6)
    assert sum(map(_runs_path(world, "POST"), world.log.requests)) == 6
    assert sum(map(_runs_path(world, "GET"), world.log.requests)) == 0


class _IgnoresCreateWait:
    """A service that does not know ``wait`` on a create (as a remote one may): the query is
    dropped before the app sees it, so the create answers at once, queued."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def __getattr__(self, name: str) -> object:
        return getattr(self.app, name)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            scope = {**scope, "query_string": b""}
        await self.app(scope, receive, send)


def test_runs_are_polled_when_the_create_is_not_held(make_world: MakeWorld) -> None:
    world = make_world(3, wrap=_IgnoresCreateWait)
    pairs = {"eval_set": "texts", "processor_id": world.processor_id}
    result = run_versions(world.connection(), versions=[world.v1, world.v2], **pairs)
    assert (result.total, result.succeeded, result.failed) == (6, 6, 0)
    assert sum(map(_runs_path(world, "POST"), world.log.requests)) == 6
    assert sum(map(_runs_path(world, "GET"), world.log.requests)) >= 6  # each run polled
    frame = load_results(result.runset_id)
    for row in frame.itertuples():
        assert row.value["invoice_number"] == row.ground_truth["invoice_number"]


class _RefusesCreateWait(_IgnoresCreateWait):
    """A service that refuses parameters it does not know (as a strict remote one may): a
    create with ``wait`` gets a 422 and starts nothing; ``refused`` counts them."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.refused = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        query = scope.get("query_string", b"") if scope["type"] == "http" else b""
        if scope["type"] == "http" and scope["method"] == "POST" and b"wait=" in query:
            self.refused += 1
            body = b'{"error": {"code": "invalid_parameter", "message": "unknown: wait"}}'
            headers = [(b"content-type", b"application/json")]
            await send({"type": "http.response.start", "status": 422, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def test_a_service_refusing_wait_on_the_create_is_asked_without_it_from_then_on(
    make_world: MakeWorld,
) -> None:
    services: list[_RefusesCreateWait] = []

    def refusing(app: Any) -> _RefusesCreateWait:
        services.append(_RefusesCreateWait(app))
        return services[-1]

    world = make_world(3, wrap=refusing)
    pairs = {"eval_set": "texts", "processor_id": world.processor_id}
    result = run_versions(world.connection(), versions=[world.v1, world.v2], concurrency=1, **pairs)
    assert (result.total, result.succeeded, result.failed) == (6, 6, 0)
    # one pair at a time: the first create was refused with wait, none asked with it again
    assert [s.refused for s in services] == [1]
    assert sum(map(_runs_path(world, "POST"), world.log.requests)) == 6
    frame = load_results(result.runset_id)
    for row in frame.itertuples():
        assert row.value["invoice_number"] == row.ground_truth["invoice_number"]
