"""Evaluation run requests that must be refused: unknown ids (404), no published version
(409), a version of another processor or a malformed body (422), cancel of a finished run."""

from __future__ import annotations

import httpx
import pytest

from fieldwise._errors import ConflictError, NotFoundError, UnprocessableError
from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from tests.service.resources.evaluation_runs.conftest import World, make_processor, wait_evaluation


def test_unknown_set_processor_version_and_run_are_404(client: Client, world: World) -> None:
    with pytest.raises(NotFoundError):
        client.call(ops.create_evaluation_run("es_nope", world.processor_id))
    with pytest.raises(NotFoundError) as unknown_processor:
        client.call(ops.create_evaluation_run(world.eval_set_id, "nope"))
    assert "processor" in str(unknown_processor.value)
    with pytest.raises(NotFoundError):
        client.call(
            ops.create_evaluation_run(world.eval_set_id, world.processor_id, version_id="ver_x")
        )
    for op in (
        ops.get_evaluation_run(world.eval_set_id, "evrun_nope"),
        ops.list_evaluation_results(world.eval_set_id, "evrun_nope"),
        ops.cancel_evaluation_run(world.eval_set_id, "evrun_nope"),
        ops.list_evaluation_runs("es_nope"),
    ):
        with pytest.raises(NotFoundError):
            client.call(op)


def test_a_run_is_only_found_under_its_own_set(client: Client, world: World) -> None:
    other = client.create_evaluation_set("other")
    run = client.call(ops.create_evaluation_run(world.eval_set_id, world.processor_id))
    with pytest.raises(NotFoundError):
        client.call(ops.get_evaluation_run(other.id, run.id))
    assert client.call(ops.list_evaluation_runs(other.id)).data == []
    wait_evaluation(client, world.eval_set_id, run.id)


def test_no_published_version_is_409_and_another_processors_version_422(
    client: Client, world: World
) -> None:
    draft_id, draft_version = make_processor(client, "draft", publish=False)
    with pytest.raises(ConflictError) as conflict:
        client.call(ops.create_evaluation_run(world.eval_set_id, draft_id))
    assert conflict.value.code == "no_published_version"
    with pytest.raises(UnprocessableError) as wrong_owner:
        client.call(
            ops.create_evaluation_run(
                world.eval_set_id, world.processor_id, version_id=draft_version
            )
        )
    assert wrong_owner.value.param == "version_id"
    # the drafted version is accepted when named with its own processor
    run = client.call(
        ops.create_evaluation_run(world.eval_set_id, draft_id, version_id=draft_version)
    )
    assert run.version_id == draft_version
    assert wait_evaluation(client, world.eval_set_id, run.id).status == "succeeded"
    with pytest.raises(ConflictError):
        client.call(ops.cancel_evaluation_run(world.eval_set_id, run.id))


def test_malformed_bodies_and_queries_are_4xx(service: RunningService, world: World) -> None:
    headers = {"x-api-key": service.api_key}
    url = f"{service.base_url}/evaluation-sets/{world.eval_set_id}/runs"
    for body in ({}, {"processor_id": ""}, {"processor_id": 3}, {"processor_id": "p", "x": 1}):
        answer = httpx.post(url, json=body, headers=headers, timeout=60)
        assert answer.status_code == 422, (body, answer.text)
        assert answer.json()["error"]["code"]
    assert httpx.post(url, content=b"{", headers=headers, timeout=60).status_code in (400, 422)
    assert httpx.get(url, params={"status": "nope"}, headers=headers, timeout=60).status_code == 422
    assert httpx.get(url, params={"cursor": "zz"}, headers=headers, timeout=60).status_code == 422
    results = f"{url}/evrun_x/results"
    assert (
        httpx.get(results, params={"outcome": "bad"}, headers=headers, timeout=60).status_code
        == 422
    )
    assert httpx.get(url, headers={}, timeout=60).status_code == 401
