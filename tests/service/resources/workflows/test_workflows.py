"""Workflows, workflow runs and batch runs over HTTP."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, select

from fieldwise._errors import ConflictError, NotFoundError, UnprocessableError
from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from fieldwise.service.events.outbox import events
from tests.service.resources.runs.conftest import TERMINAL, invoice, make_processor, wait_for

TOTAL = {"fields": [{"name": "total", "type": "currency", "labels": ["Total"]}]}


def _wait_wf(client: Client, workflow_id: str, run_id: str) -> ops.WorkflowRun:  # type: ignore[name-defined]
    return wait_for(
        lambda: (
            (r := client.call(ops.get_workflow_run(workflow_id, run_id))).status in TERMINAL and r
        )
    )


def _two_step(client: Client) -> str:
    make_processor(client, "numbers")
    make_processor(client, "totals", TOTAL)
    nodes = [
        {"id": "start", "type": "trigger"},
        {"id": "b", "type": "processor", "processor_id": "totals"},
        {"id": "a", "type": "processor", "processor_id": "numbers"},
    ]
    edges = [{"from": "start", "to": "a"}, {"from": "a", "to": "b"}]
    return client.call(ops.create_workflow("Two step", nodes, edges=edges)).id


def test_workflow_run_runs_nodes_in_edge_order(client: Client, tmp_path: Path) -> None:
    wid = _two_step(client)
    assert wid == "two-step"
    assert client.call(ops.get_workflow(wid)).order == ["a", "b"]
    assert [w.id for w in client.call(ops.list_workflows()).data] == [wid]
    file_id = client.upload_file(invoice(9), filename="a.txt").id
    run = client.call(ops.create_workflow_run(wid, file_id, metadata={"source": "test"}))
    assert run.status in ("queued", "in_progress")
    done = _wait_wf(client, wid, run.id)
    assert done.status == "succeeded"
    assert [n["node_id"] for n in done.nodes] == ["a", "b"]
    assert done.nodes[0]["output"]["value"]["invoice_number"] == "INV-0009"
    assert done.nodes[1]["output"]["value"] == {"total": 9.5}
    assert all(n["output_uri"] for n in done.nodes)
    patched = client.call(
        ops.update_workflow_run(wid, run.id, labels=["ok", "ok", "x"], notes="n", metadata={"k": 1})
    )
    assert (patched.labels, patched.notes) == (["ok", "x"], "n")
    assert patched.metadata == {"source": "test", "k": 1}
    listed = client.call(ops.list_workflow_runs(wid, status="succeeded"))
    assert [r.id for r in listed.data] == [run.id]
    engine = create_engine(f"sqlite:///{tmp_path / 'service' / 'fieldwise.db'}")
    with engine.connect() as conn:
        # Run events only: creating the processor published its version (an event too).
        runs = select(events).where(events.c.type != "processor.version.published")
        kinds = [r.type for r in conn.execute(runs.order_by(events.c.seq))]
    engine.dispose()
    assert kinds == ["processor.run.completed"] * 2 + ["workflow.run.completed"]


def test_workflow_failure_is_recorded(client: Client, tmp_path: Path) -> None:
    wid = _two_step(client)
    file_id = client.upload_file(b"%PDF-1.5 not really", filename="x.pdf").id
    done = _wait_wf(client, wid, client.call(ops.create_workflow_run(wid, file_id)).id)
    assert done.status == "failed"
    assert done.failure_reason == "node_failed"
    assert "'a'" in (done.failure_message or "")
    assert "corrupt_document" in (done.failure_message or "")
    assert [n["status"] for n in done.nodes] == ["failed"]
    engine = create_engine(f"sqlite:///{tmp_path / 'service' / 'fieldwise.db'}")
    with engine.connect() as conn:
        rows = list(conn.execute(select(events).where(events.c.type == "workflow.run.failed")))
    engine.dispose()
    assert len(rows) == 1
    assert rows[0].data["run_id"] == done.id
    assert rows[0].data["node_id"] == "a"
    # A node whose processor has no published version fails the run too.
    client.create_processor("unpublished")
    nodes = [
        {"id": "t", "type": "trigger"},
        {"id": "p", "type": "processor", "processor_id": "unpublished"},
    ]
    wf = client.call(ops.create_workflow("Unpublished", nodes))
    good_file = client.upload_file(invoice(1), filename="a.txt").id
    failed = _wait_wf(client, wf.id, client.call(ops.create_workflow_run(wf.id, good_file)).id)
    assert failed.failure_reason == "no_published_version"


@pytest.mark.parametrize(
    ("nodes", "edges", "param"),
    [
        ([{"id": "p", "type": "processor", "processor_id": "numbers"}], None, "nodes"),
        ([{"id": "t", "type": "trigger"}, {"id": "t", "type": "trigger"}], None, "nodes[1].id"),
        (
            [
                {"id": "t", "type": "trigger"},
                {"id": "p", "type": "processor", "processor_id": "nope"},
            ],
            None,
            "nodes[1].processor_id",
        ),
        (
            [{"id": "t", "type": "trigger"}, {"id": "p", "type": "processor"}],
            None,
            "nodes[1].processor_id",
        ),
        (
            [
                {"id": "t", "type": "trigger"},
                {"id": "p", "type": "processor", "processor_id": "numbers"},
            ],
            [{"from": "t", "to": "q"}],
            "edges[0].to",
        ),
        (
            [
                {"id": "t", "type": "trigger"},
                {"id": "p", "type": "processor", "processor_id": "numbers"},
                {"id": "q", "type": "processor", "processor_id": "numbers"},
            ],
            [{"from": "t", "to": "p"}, {"from": "p", "to": "q"}, {"from": "q", "to": "p"}],
            "edges",
        ),
        (
            [
                {"id": "t", "type": "trigger"},
                {"id": "p", "type": "processor", "processor_id": "numbers"},
            ],
            [],
            "edges",
        ),
        ([{"id": "t", "type": "sensor"}], None, "nodes.0.type"),
    ],
)
def test_invalid_graphs_are_422(
    client: Client, nodes: list[dict[str, str]], edges: list[dict[str, str]] | None, param: str
) -> None:
    make_processor(client, "numbers")
    with pytest.raises(UnprocessableError) as err:
        client.call(ops.create_workflow("W", nodes, edges=edges))
    assert err.value.param == param
    assert client.call(ops.list_workflows()).data == []


def test_duplicate_and_unknown(client: Client) -> None:
    nodes = [{"id": "t", "type": "trigger"}]
    client.call(ops.create_workflow("Only trigger", nodes))
    with pytest.raises(ConflictError):
        client.call(ops.create_workflow("only trigger", nodes))
    with pytest.raises(NotFoundError):
        client.call(ops.get_workflow("nope"))
    with pytest.raises(UnprocessableError):
        client.call(ops.create_workflow_run("only-trigger", "file_nope"))
    file_id = client.upload_file(b"x", filename="a.txt").id
    trivial = client.call(ops.create_workflow_run("only-trigger", file_id))
    assert trivial.status == "succeeded"
    with pytest.raises(NotFoundError):
        client.call(ops.get_workflow_run("only-trigger", "run_nope"))


def test_delete_workflow_run_removes_node_outputs(client: Client, tmp_path: Path) -> None:
    wid = _two_step(client)
    file_id = client.upload_file(invoice(5), filename="a.txt").id
    done = _wait_wf(client, wid, client.call(ops.create_workflow_run(wid, file_id)).id)
    outputs = [n["output_uri"].rsplit("/", 1)[1] for n in done.nodes]
    client.call(ops.delete_workflow_run(wid, done.id))
    with pytest.raises(NotFoundError):
        client.call(ops.get_workflow_run(wid, done.id))
    for output_id in outputs:
        with pytest.raises(NotFoundError):
            client.call(ops.get_file(output_id))
    assert [f.purpose for f in client.list_files()] == ["upload", "parsed"]


def test_batch_runs_async_and_sync(client: Client, service: RunningService) -> None:
    wid = _two_step(client)
    file_ids = [client.upload_file(invoice(n), filename=f"{n}.txt").id for n in range(4)]
    queued = client.call(ops.create_batch_run(wid, file_ids, run_async=True))
    assert queued.id.startswith("batch_")
    assert len(queued.run_ids) == 4
    assert queued.file_ids == file_ids
    done = wait_for(lambda: (b := client.call(ops.get_batch_run(wid, queued.id))).done and b)
    assert done.counts["succeeded"] == 4
    in_batch = client.call(ops.list_workflow_runs(wid, batch_id=queued.id))
    assert sorted(r.id for r in in_batch.data) == sorted(queued.run_ids)

    waited = client.call(ops.create_batch_run(wid, file_ids[:2], run_async=False))
    assert waited.done
    assert waited.runs is not None
    assert [r.status for r in waited.runs] == ["succeeded", "succeeded"]
    assert [r.input_file_id for r in waited.runs] == file_ids[:2]

    headers = {"x-api-key": service.api_key}
    url = f"{service.base_url}/workflows/{wid}/batch-runs"
    unknown = httpx.post(
        url,
        json={"file_ids": [file_ids[0], "file_nope"], "async": True},
        headers=headers,
        timeout=60,
    )
    assert unknown.status_code == 422
    assert "file_nope" in unknown.json()["error"]["message"]
    too_many = httpx.post(
        url,
        json={"file_ids": [file_ids[0]] * 101, "async": True},
        headers=headers,
        timeout=60,
    )
    assert too_many.status_code == 422
    assert too_many.json()["error"]["param"] == "file_ids"
    runs = client.call(ops.list_workflow_runs(wid, limit=1000)).data
    assert len(runs) == 6  # the refused batches started nothing
