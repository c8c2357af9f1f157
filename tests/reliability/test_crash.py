"""Durability of runs and webhook deliveries together: SIGKILL the service while a run is
executing and completion events are being delivered, restart it on the same data dir, and
nothing is lost: every run ends terminal once, and every completion event reaches the
receiver (retries may repeat an event id; receivers deduplicate by it).

The kill comes on an observed state, never after a sleep: a run is held in its extract stage by
the gated test engine (``tests.service.resources.runs.slow_engine:gated``), and the receiver
answers the first ``HELD_FROM`` deliveries and holds every later one open, so at the kill some
deliveries are in flight and the rest wait behind them, on an idle machine and under load
alike.
"""

from __future__ import annotations

import signal
from collections import defaultdict
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from fieldwise.client import Client, ops
from fieldwise.client._models import Run, WebhookDelivery
from fieldwise.service.events.webhooks.tables import deliveries as delivery_rows
from fieldwise.service.resources.runs.tables import processor_runs
from tests.conftest import TEST_KEY
from tests.reliability.conftest import TERMINAL, TRIVIAL, invoice, make_processor, wait_for
from tests.service.jobs.test_crash_recovery import _serve
from tests.webhooks.receivers import ScriptedReceiver

RUNS = 120
HELD_FROM = 15
GATED = {"engine": "python", "entrypoint": "tests.service.resources.runs.slow_engine:gated"}
# Generous bounds that only guard against hangs. After the restart, deliveries that were in
# flight at the kill are claimed for (claim slack 60 s + attempt timeout 10 s) before they
# are sent again.
GUARD = 300.0


def test_sigkill_loses_no_run_and_no_delivery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIELDWISE_WEBHOOK_ALLOW_HTTP", "127.0.0.1")
    receiver = ScriptedReceiver(hold_from=HELD_FROM)
    gate = tmp_path / "gate"
    data_dir = tmp_path / "svc"
    log = tmp_path / "service.log"
    try:
        with _serve(data_dir, log) as (proc, base_url), Client(base_url, TEST_KEY) as client:
            endpoint = client.call(
                ops.create_webhook_endpoint(receiver.url, ["processor.run.completed"])
            )
            pid, _ = make_processor(client, "crash", TRIVIAL)
            slow, _ = make_processor(client, "slow", GATED)
            files = [client.upload_file(invoice(n), filename=f"{n}.txt").id for n in range(10)]
            submitted = [client.call(ops.create_run(pid, files[n % 10])).id for n in range(RUNS)]
            gated_text = f"gate: {gate}\nlimit: {GUARD}\n"
            gated_file = client.upload_file(gated_text.encode(), filename="g.txt").id
            gated = client.call(ops.create_run(slow, gated_file)).id
            # Deliveries past the answered ones have reached the receiver and are held there...
            wait_for(lambda: len(receiver.requests) > HELD_FROM, timeout=GUARD)
            # ...and the gated run is in its extract stage, waiting for a gate nobody opens.
            wait_for(lambda: Path(f"{gate}.started").exists(), timeout=GUARD)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        receiver.release()  # the held requests' sender is dead; answer any later ones at once
        engine = create_engine(f"sqlite:///{data_dir / 'fieldwise.db'}")
        with engine.connect() as conn:
            states = [r.status for r in conn.execute(select(processor_runs.c.status))]
            sent = [r.state for r in conn.execute(select(delivery_rows.c.state))]
        engine.dispose()
        assert len(states) == RUNS + 1
        assert "in_progress" in states  # the gated run was cut off mid-way
        assert sent.count("delivered") <= HELD_FROM  # the rest were in flight or pending

        with _serve(data_dir, log) as (_proc, base_url), Client(base_url, TEST_KEY) as client:
            gate.touch()

            def settled() -> list[Run] | None:
                runs = [*client.call(ops.list_runs(pid, 1000)).data]
                runs += client.call(ops.list_runs(slow, 1000)).data
                done = all(r.status in TERMINAL for r in runs)
                return runs if done and len(runs) == RUNS + 1 else None

            runs = wait_for(settled, timeout=GUARD)

            def all_delivered() -> list[WebhookDelivery] | None:
                page = client.call(ops.list_webhook_deliveries(endpoint.id, limit=1000))
                states = {d.state for d in page.data}
                done = len(page.data) >= RUNS + 1 and states == {"delivered"}
                return page.data if done else None

            deliveries = wait_for(all_delivered, timeout=GUARD)
    finally:
        receiver.stop()

    assert sorted(r.id for r in runs) == sorted([*submitted, gated])
    assert {r.status for r in runs} == {"succeeded"}
    assert next(r for r in runs if r.id == gated).attempts == 2
    # One event, one delivery per run; the receiver saw each event at least once and no run
    # under two different event ids.
    assert len(deliveries) == RUNS + 1
    ids_by_run: dict[str, set[str]] = defaultdict(set)
    for request in receiver.requests:
        event = request.json
        assert event["type"] == "processor.run.completed"
        ids_by_run[event["data"]["run_id"]].add(event["id"])
    assert set(ids_by_run) == {*submitted, gated}
    assert all(len(ids) == 1 for ids in ids_by_run.values())
    assert {d.event_id for d in deliveries} == {i for ids in ids_by_run.values() for i in ids}
