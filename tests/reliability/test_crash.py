"""Durability of runs and webhook deliveries together: SIGKILL the service while runs are
executing and their completion events are being delivered, restart it on the same data dir,
and nothing is lost: every run ends terminal once, and every completion event reaches the
receiver (retries may repeat an event id; receivers deduplicate by it)."""

from __future__ import annotations

import signal
from collections import defaultdict
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from fieldwise.client import Client, ops
from fieldwise.client.models import Run, WebhookDelivery
from fieldwise.service.resources.runs.tables import processor_runs
from tests.conftest import TEST_KEY
from tests.reliability.conftest import TERMINAL, TRIVIAL, invoice, make_processor, wait_for
from tests.runs.test_crash_recovery import _serve
from tests.webhooks.receivers import ScriptedReceiver

RUNS = 120


def test_sigkill_loses_no_run_and_no_delivery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIELDWISE_WEBHOOK_ALLOW_HTTP", "127.0.0.1")
    receiver = ScriptedReceiver(hang=0.02)  # slow enough that deliveries lag behind the runs
    data_dir = tmp_path / "svc"
    log = tmp_path / "service.log"
    try:
        with _serve(data_dir, log) as (proc, base_url), Client(base_url, TEST_KEY) as client:
            endpoint = client.call(
                ops.create_webhook_endpoint(receiver.url, ["processor.run.completed"])
            )
            pid, _ = make_processor(client, "crash", TRIVIAL)
            files = [client.upload_file(invoice(n), filename=f"{n}.txt").id for n in range(10)]
            submitted = [client.call(ops.create_run(pid, files[n % 10])).id for n in range(RUNS)]
            wait_for(lambda: len(receiver.requests) >= 15, timeout=60)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        assert len(receiver.requests) < RUNS, "the kill came too late to prove anything"
        engine = create_engine(f"sqlite:///{data_dir / 'fieldwise.db'}")
        with engine.connect() as conn:
            states = [r.status for r in conn.execute(select(processor_runs.c.status))]
        engine.dispose()
        assert len(states) == RUNS
        assert states.count("succeeded") < RUNS, "the kill came too late to prove anything"

        with _serve(data_dir, log) as (_proc, base_url), Client(base_url, TEST_KEY) as client:

            def settled() -> list[Run] | None:
                page = client.call(ops.list_runs(pid, 1000))
                done = all(r.status in TERMINAL for r in page.data)
                return page.data if done and len(page.data) == RUNS else None

            runs = wait_for(settled, timeout=120)

            def all_delivered() -> list[WebhookDelivery] | None:
                page = client.call(ops.list_webhook_deliveries(endpoint.id, limit=1000))
                states = {d.state for d in page.data}
                return page.data if len(page.data) >= RUNS and states == {"delivered"} else None

            deliveries = wait_for(all_delivered, timeout=120)
    finally:
        receiver.stop()

    assert sorted(r.id for r in runs) == sorted(submitted)
    assert {r.status for r in runs} == {"succeeded"}
    # One event, one delivery per run; the receiver saw each event at least once and no run
    # under two different event ids.
    assert len(deliveries) == RUNS
    ids_by_run: dict[str, set[str]] = defaultdict(set)
    for request in receiver.requests:
        event = request.json
        assert event["type"] == "processor.run.completed"
        ids_by_run[event["data"]["run_id"]].add(event["id"])
    assert set(ids_by_run) == set(submitted)
    assert all(len(ids) == 1 for ids in ids_by_run.values())
    assert {d.event_id for d in deliveries} == {i for ids in ids_by_run.values() for i in ids}
