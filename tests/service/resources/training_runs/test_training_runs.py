"""Training runs over real HTTP: reproducible models, drafted versions, cancel and delete,
bad requests, and a tampered model failing its runs with a clear error."""

from __future__ import annotations

from pathlib import Path

import httpx
from sqlalchemy import create_engine, select

from fieldwise._config import ServiceSettings
from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from fieldwise.service.events.outbox import events
from fieldwise.service.jobs.workers import ClaimLock, claim_lock_path
from fieldwise.service.store import database_url
from tests.conftest import TEST_KEY, ServiceFactory
from tests.service.resources.runs.conftest import wait_run
from tests.service.resources.training_runs.conftest import FAST, mini_invoices, synced, train


def test_same_items_params_and_seed_give_the_same_model(
    client: Client, service: RunningService, tmp_path: Path
) -> None:
    root = mini_invoices(tmp_path / "mini")
    eval_set_id, processor_id = synced(client, root, service.base_url)
    first = train(client, processor_id, eval_set_id, split="train", params={"seed": 3, **FAST})
    second = train(client, processor_id, eval_set_id, split="train", params={"seed": 3, **FAST})
    assert (first.status, second.status) == ("succeeded", "succeeded"), first.failure_message
    assert first.model is not None
    assert second.model is not None
    assert first.model["sha256"] == second.model["sha256"]
    assert first.progress["done"] == first.progress["total"] > 0
    assert len(first.item_ids) == 8
    assert first.split == "train"
    versions = {v.id: v for v in client.list_versions(processor_id)}
    assert first.version_id != second.version_id
    for run in (first, second):
        assert run.version_id is not None
        version = versions[run.version_id]
        assert version.status == "drafted"
        assert version.config["engine"] == "trained"
        assert version.config["model"]["sha256"] == first.model["sha256"]
        training = version.config["training"]
        assert training["training_run_id"] == run.id
        assert (training["split"], training["item_ids"]) == ("train", run.item_ids)
        assert training["params"] == {"seed": 3, **FAST}
    # the completion event is in the outbox, one per run
    engine = create_engine(database_url(ServiceSettings(data_dir=tmp_path / "service")))
    with engine.connect() as conn:
        rows = list(
            conn.execute(select(events.c.data).where(events.c.type == "training.run.completed"))
        )
    engine.dispose()
    assert sorted(r.data["training_run_id"] for r in rows) == sorted([first.id, second.id])
    # a trained version runs like any other, each field with a confidence
    test_item = next(
        i
        for i in client.paginate(lambda c: ops.list_items(eval_set_id, cursor=c))
        if i.metadata.get("split") == "test"
    )
    run = client.call(ops.create_run(processor_id, test_item.file_id, version_id=first.version_id))
    done = wait_run(client, processor_id, run.id, timeout=120)
    assert done.status == "succeeded", done.failure_message
    assert done.output is not None
    assert done.output["value"]
    assert all(0 <= m["confidence"] <= 1 for m in done.output["metadata"].values())
    # listed newest last, paginated like the other lists
    page = client.call(ops.list_training_runs(processor_id, limit=1))
    assert [r.id for r in page.data] == [first.id]
    assert page.next_cursor
    rest = client.call(ops.list_training_runs(processor_id, limit=1, cursor=page.next_cursor))
    assert [r.id for r in rest.data] == [second.id]


def test_a_canceled_training_leaves_no_version(
    start_service: ServiceFactory, tmp_path: Path
) -> None:
    # Hold the database's claim lock, so this service runs no job until we let go: the
    # training stays queued for as long as the test needs, whatever the machine's speed.
    settings = ServiceSettings(data_dir=tmp_path / "service")
    (tmp_path / "service").mkdir()
    lock_path = claim_lock_path(database_url(settings))
    assert lock_path is not None
    lock = ClaimLock(lock_path)
    assert lock.acquire()
    service = start_service()
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        root = mini_invoices(tmp_path / "mini", train=3, test=1)
        eval_set_id, processor_id = synced(client, root, service.base_url)
        queued = client.call(ops.create_training_run(processor_id, eval_set_id, split="train"))
        assert client.call(ops.get_training_run(queued.id)).status == "queued"
        canceled = client.call(ops.cancel_training_run(queued.id))
        assert canceled.status == "canceled"
        again = httpx.post(
            f"{service.base_url}/training-runs/{queued.id}/cancel",
            headers={"x-api-key": TEST_KEY},
            timeout=60,
        )
        assert again.status_code == 409
        assert "already canceled" in again.json()["error"]["message"]
        lock.release()  # the service takes the jobs over; the canceled one stays canceled
        later = train(client, processor_id, eval_set_id, split="train", params=FAST)
        assert later.status == "succeeded", later.failure_message
        trained = [
            v for v in client.list_versions(processor_id) if v.config.get("engine") == "trained"
        ]
        assert [v.id for v in trained] == [later.version_id]
        gone = client.call(ops.get_training_run(queued.id))
        assert (gone.status, gone.version_id, gone.model) == ("canceled", None, None)
        client.call(ops.delete_training_run(queued.id))
        missing = httpx.get(
            f"{service.base_url}/training-runs/{queued.id}",
            headers={"x-api-key": TEST_KEY},
            timeout=60,
        )
        assert missing.status_code == 404


def test_a_tampered_model_fails_its_runs_with_a_clear_error(
    client: Client, service: RunningService, tmp_path: Path
) -> None:
    root = mini_invoices(tmp_path / "mini", train=4, test=1)
    eval_set_id, processor_id = synced(client, root, service.base_url)
    trained = train(client, processor_id, eval_set_id, split="train", params={"seed": 1, **FAST})
    assert trained.status == "succeeded", trained.failure_message
    assert trained.model is not None
    sha = trained.model["sha256"]
    blob = ServiceSettings(data_dir=tmp_path / "service").blob_dir / sha[:2] / sha[2:4] / sha
    data = bytearray(blob.read_bytes())
    data[len(data) // 2] ^= 0xFF
    blob.write_bytes(bytes(data))
    item = next(iter(client.paginate(lambda c: ops.list_items(eval_set_id, cursor=c))))
    run = client.call(ops.create_run(processor_id, item.file_id, version_id=trained.version_id))
    failed = wait_run(client, processor_id, run.id, timeout=120)
    assert failed.status == "failed"
    assert failed.failure_reason == "invalid_model"
    assert f"the model blob {sha} of version {trained.version_id} does not match its hash" in (
        failed.failure_message or ""
    )


def test_bad_training_requests_are_named(
    client: Client, service: RunningService, tmp_path: Path
) -> None:
    paths = service.app.openapi()["paths"]  # type: ignore[attr-defined]
    assert {
        "/processors/{processor_id}/training-runs",
        "/training-runs/{run_id}",
        "/training-runs/{run_id}/cancel",
    } <= set(paths)
    root = mini_invoices(tmp_path / "mini", train=2, test=1)
    eval_set_id, processor_id = synced(client, root, service.base_url)
    url = f"{service.base_url}/processors/{processor_id}/training-runs"

    def post(body: dict[str, object], path: str = url) -> tuple[int, str]:
        response = httpx.post(path, json=body, headers={"x-api-key": TEST_KEY}, timeout=60)
        return response.status_code, response.json()["error"]["message"]

    assert post({"eval_set_id": "es_nope", "split": "train"}) == (
        422,
        "eval_set_id: no evaluation set with id 'es_nope'.",
    )
    code, message = post({"eval_set_id": eval_set_id})
    assert code == 422
    assert message.startswith("split: give either split or item_ids")
    code, message = post({"eval_set_id": eval_set_id, "split": "dev"})
    assert code == 422
    assert "no items in split 'dev' (its splits: test (1 items), train (2 items)" in message
    code, message = post({"eval_set_id": eval_set_id, "item_ids": ["item_nope"]})
    assert code == 422
    assert message.startswith("item_ids: 'item_nope' is not an item")
    code, message = post({"eval_set_id": eval_set_id, "split": "train", "base_version_id": "v"})
    assert code == 422
    assert message.startswith("base_version_id: no version 'v'")
    code, message = post({"eval_set_id": eval_set_id, "split": "train", "params": {"sed": 1}})
    assert code == 422
    assert message.startswith("params.sed: unknown parameter")
    code, _ = post(
        {"eval_set_id": eval_set_id, "split": "train"},
        f"{service.base_url}/processors/nope/training-runs",
    )
    assert code == 404
    assert (
        httpx.get(
            f"{service.base_url}/training-runs/train_nope",
            headers={"x-api-key": TEST_KEY},
            timeout=60,
        ).status_code
        == 404
    )
