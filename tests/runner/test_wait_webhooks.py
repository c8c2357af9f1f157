"""``wait="webhooks"``: runs awaited by signed webhook events from the real local service (its
background dispatcher on), with a slow safety-net poll; the endpoint lives only for the run."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from fieldwise._config import ClientSettings
from fieldwise._connection import connect
from fieldwise._errors import RunnerError
from fieldwise.cli import cli
from fieldwise.client import Client, ops
from fieldwise.datasets import load_dataset
from fieldwise.runner import (
    PairPolicy,
    Progress,
    RunInterrupted,
    WebhookListen,
    arun_versions,
    load_results,
    run_versions,
)
from fieldwise.runner._execute import CREATE_PARAM
from fieldwise.runner._webhook_wait import listening
from fieldwise.sync import sync_dataset
from fieldwise.webhooks import SIGNATURE_HEADER, sign
from tests.faults import FaultInjector, FaultPlan
from tests.runner.conftest import V1, MakeWorld, World, write_text_dataset
from tests.runner.engines import HOLD_ENV, PASS_ENV

SLOW = {"engine": "python", "entrypoint": "tests.runner.engines:slow"}
HELD = {"engine": "python", "entrypoint": "tests.runner.engines:held"}
LOOPBACK = ("127.0.0.1", "localhost")
# Where a test shows that events, not the safety-net poll, finished the runs, the poll is set
# this far away: no loaded machine delays an event that long, and it still ends a lost one.
NO_POLL = PairPolicy(webhook_poll_s=120.0)


def _hooked(make_world: MakeWorld, n: int, *, dispatch: float = 0.05, **kw: Any) -> World:
    return make_world(
        n,
        v1=SLOW,
        v2={**SLOW, "description": "v2"},
        allow_python_engines=True,
        webhook_allow_http=LOOPBACK,
        extra={"webhooks.poll_interval": dispatch},
        **kw,
    )


def _run_reads(world: World) -> int:
    prefix = f"/processors/{world.processor_id}/runs/"
    return sum(1 for m, p in world.log.requests if m == "GET" and p.startswith(prefix))


def _endpoint_calls(world: World) -> list[tuple[str, str]]:
    return [(m, p) for m, p in world.log.requests if p.startswith("/webhooks/endpoints")]


def _endpoints(world: World) -> list[Any]:
    with Client(world.service.base_url, world.service.api_key) as client:
        return list(client.call(ops.list_webhook_endpoints()).data)


def _deliveries(world: World) -> list[Any]:
    """Every delivery, once none is mid-attempt (the dispatcher records an attempt just after
    the receiver answers, so the runner can finish first)."""
    deadline = time.monotonic() + 60  # only guards against a hang
    with Client(world.service.base_url, world.service.api_key) as client:
        while True:
            found = list(client.call(ops.list_webhook_deliveries()).data)
            if all(d.state != "pending" for d in found) or time.monotonic() > deadline:
                return found
            time.sleep(0.02)


def _check_complete(world: World, runset_id: str, pairs: int) -> None:
    frame = load_results(runset_id)
    assert len(frame) == pairs
    assert len(set(zip(frame.item_id, frame.version_id, strict=True))) == pairs
    assert (frame.status == "succeeded").all()
    for row in frame.itertuples():
        assert row.value == {"first": f"Invoice No: {row.ground_truth['invoice_number']}"}


def _reads_per_run(world: World) -> Counter[str]:
    prefix = f"/processors/{world.processor_id}/runs/"
    return Counter(
        p[len(prefix) :] for m, p in list(world.log.requests) if m == "GET" and p.startswith(prefix)
    )


def test_events_replace_polling_and_the_endpoint_is_deleted(
    make_world: MakeWorld, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    world = _hooked(make_world, 4)
    kwargs: dict[str, Any] = {
        "eval_set": "texts",
        "processor_id": world.processor_id,
        "versions": [world.v1, world.v2],
        "concurrency": 8,
    }
    hooked = run_versions(world.connection(), wait="webhooks", policy=NO_POLL, **kwargs)
    assert (hooked.total, hooked.done, hooked.succeeded, hooked.failed) == (8, 8, 8, 0)
    _check_complete(world, hooked.runset_id, 8)
    # One read per run, after its event; no poll in between (the safety net is 120 s away).
    hooked_reads = _run_reads(world)
    assert hooked_reads == 8
    calls = _endpoint_calls(world)
    assert [m for m, _ in calls] == ["POST", "DELETE"]
    assert _endpoints(world) == []
    delivered = [d for d in _deliveries(world) if d.state == "delivered"]
    assert sorted({d.payload["data"]["run_id"] for d in delivered}) == sorted(
        set(load_results(hooked.runset_id).run_id)
    )
    assert {d.event_type for d in delivered} == {"processor.run.completed"}

    # Polling instead: the runs are held on the server until each has been read twice (an
    # observed state; how fast the runs would finish on their own does not matter).
    hold = tmp_path / "hold"
    hold.touch()
    monkeypatch.setenv(HOLD_ENV, str(hold))
    monkeypatch.setenv(PASS_ENV, "0")
    with Client(world.service.base_url, world.service.api_key) as client:
        held = [client.create_version(world.processor_id, HELD).id for _ in range(2)]
    world.log.clear()
    polling: dict[str, Any] = {}
    runner = threading.Thread(
        target=lambda: polling.update(
            result=run_versions(world.connection(), use_cache=False, **{**kwargs, "versions": held})
        )
    )
    runner.start()
    deadline = time.monotonic() + 120  # only guards against a hang
    while not (len(reads := _reads_per_run(world)) == 8 and min(reads.values()) >= 2):
        assert time.monotonic() < deadline, reads
        time.sleep(0.02)
    hold.unlink()
    runner.join(120)
    assert polling["result"].done == 8
    polled_reads = _run_reads(world)
    print(f"GET /runs/{{id}}: webhooks {hooked_reads}, polling {polled_reads}")
    assert polled_reads >= 2 * hooked_reads
    assert _endpoint_calls(world) == []


def test_a_lost_delivery_is_caught_by_the_safety_net_poll(make_world: MakeWorld) -> None:
    # The dispatcher is off: events are recorded but never delivered.
    world = _hooked(make_world, 2, dispatch=0)
    result = run_versions(
        world.connection(),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=[world.v1, world.v2],
        wait="webhooks",
        policy=PairPolicy(webhook_poll_s=0.3),
    )
    assert (result.done, result.succeeded) == (4, 4)
    _check_complete(world, result.runset_id, 4)
    # Every 0.3 s per run, not every 50 ms: a run waited at most the whole elapsed time, so
    # it can have been read at most once per 0.3 s of it, plus once, however slow the machine.
    assert 4 <= _run_reads(world) <= 4 * (result.elapsed_s / 0.3 + 1)
    assert _deliveries(world) == []
    assert _endpoints(world) == []


def test_an_endpoint_disabled_mid_way_still_completes(make_world: MakeWorld) -> None:
    world = _hooked(make_world, 4)
    client = Client(world.service.base_url, world.service.api_key)

    def disable_after_first(progress: Any) -> None:
        if progress.done == 1:
            (endpoint,) = client.call(ops.list_webhook_endpoints()).data
            client.call(ops.update_webhook_endpoint(endpoint.id, enabled=False))

    with client:
        result = run_versions(
            world.connection(),
            eval_set="texts",
            processor_id=world.processor_id,
            versions=[world.v1, world.v2],
            concurrency=8,
            wait="webhooks",
            policy=PairPolicy(webhook_poll_s=0.3),
            progress=disable_after_first,
        )
    assert (result.done, result.succeeded) == (8, 8)
    _check_complete(world, result.runset_id, 8)
    # How many events got through before the disable depends on timing; what must hold is
    # that the runs whose events never came were finished by the safety-net poll.
    assert len([d for d in _deliveries(world) if d.state == "delivered"]) <= 8
    assert _endpoints(world) == []


def test_the_receiver_verifies_and_keeps_only_this_processors_events(
    make_world: MakeWorld,
) -> None:
    world = make_world(1, webhook_allow_http=LOOPBACK, extra={"webhooks.poll_interval": 0})

    async def scenario() -> tuple[int, int, bool, bool]:
        async with world.connection().async_client() as aclient:
            listen = WebhookListen()
            async with listening(aclient, "test-processor", listen, description="test") as events:
                (endpoint,) = (await aclient.call(ops.list_webhook_endpoints())).data
                assert endpoint.events == ["processor.run.completed", "processor.run.failed"]
                body = json.dumps(
                    {"id": "evt_forged", "type": "processor.run.completed",
                     "data": {"processor_id": "test-processor", "run_id": "run_x"}}
                ).encode()  # fmt: skip
                async with httpx.AsyncClient() as raw:
                    forged = await raw.post(
                        endpoint.url,
                        content=body,
                        headers={SIGNATURE_HEADER: sign(body, "whsec_wrong", 2_000_000_000)},
                    )
                assert forged.status_code == 400
                # A test send is queued for the dispatcher (off here: poll_interval 0), and
                # the retry route sends it now.
                sent = await aclient.call(
                    ops.send_test_webhook("processor.run.completed", endpoint.id)
                )
                assert sent.state == "pending"
                first = await aclient.call(ops.retry_webhook_delivery(sent.id))
                assert first.state == "delivered"
                # The same event again (a retry) is counted once.
                await aclient.call(ops.retry_webhook_delivery(sent.id))
                other = await aclient.call(
                    ops.send_test_webhook("parse.run.completed", endpoint.id)
                )
                assert (await aclient.call(ops.retry_webhook_delivery(other.id))).state == (
                    "delivered"
                )
                woke = await events.wait("run_test", timeout=5)
                again = await events.wait("run_test", timeout=0.05)
                received = events.received
            left = (await aclient.call(ops.list_webhook_endpoints())).data
            return received, len(left), woke, again

    received, left, woke, again = asyncio.run(scenario())
    assert (received, left, woke, again) == (1, 0, True, False)


def test_a_refused_receiver_url_is_a_clear_error(make_world: MakeWorld) -> None:
    world = make_world(1)  # no http allowed: the service refuses http://127.0.0.1
    with pytest.raises(RunnerError, match="FIELDWISE_WEBHOOK_ALLOW_HTTP"):
        run_versions(
            world.connection(),
            eval_set="texts",
            processor_id=world.processor_id,
            versions=[world.v1],
            wait="webhooks",
        )
    assert _endpoints(world) == []


def test_the_embedded_service_delivers_to_the_local_receiver(tmp_path: Path) -> None:
    root = write_text_dataset(tmp_path / "texts", 2)
    with connect(ClientSettings(), data_dir=tmp_path / "embedded") as connection:
        with connection.client() as client:
            sync_dataset(
                client, load_dataset(root), state_dir=tmp_path / ".fw-sync",
                service_identity=connection.identity,
            )  # fmt: skip
            processor = client.create_processor("texts")
            version = client.create_version(processor.id, V1)
        result = run_versions(
            connection,
            eval_set="texts",
            processor_id=processor.id,
            versions=[version.id],
            wait="webhooks",
            policy=NO_POLL,
        )
        assert (result.done, result.succeeded) == (2, 2)
        # Done before the safety net could read any run: an event finished each.
        assert result.elapsed_s < NO_POLL.webhook_poll_s
        with connection.client() as client:
            assert client.call(ops.list_webhook_endpoints()).data == []


def test_cli_wait_webhooks_and_its_usage_errors(make_world: MakeWorld) -> None:
    world = _hooked(make_world, 2)
    base = ["--base-url", world.service.base_url, "--api-key", world.service.api_key]
    args = ["run", "--eval-set", "texts", "--processor", world.processor_id]
    result = CliRunner().invoke(
        cli, [*base, *args, "--version", world.v1, "--wait", "webhooks",
              "--webhook-host", "127.0.0.1", "--webhook-port", "0", "--json", "--quiet"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["succeeded"] == 2
    assert _run_reads(world) == 2
    assert _endpoints(world) == []

    result = CliRunner().invoke(cli, [*base, *args, "--version", world.v1, "--webhook-port", "1"])
    assert result.exit_code == 2
    assert "need --wait webhooks" in result.output


def test_an_interrupt_or_an_error_still_deletes_the_endpoint(make_world: MakeWorld) -> None:
    world = _hooked(make_world, 4)
    kwargs: dict[str, Any] = {
        "eval_set": "texts",
        "processor_id": world.processor_id,
        "versions": [world.v1, world.v2],
        "concurrency": 2,
        "wait": "webhooks",
    }

    async def interrupted() -> RunInterrupted:
        first = asyncio.Event()

        def on_progress(progress: Progress) -> None:
            if progress.done:
                first.set()

        task = asyncio.create_task(
            arun_versions(world.connection(), progress=on_progress, **kwargs)
        )
        await first.wait()
        task.cancel()  # what asyncio.run does on Ctrl-C
        with pytest.raises(RunInterrupted) as stopped:
            await task
        return stopped.value

    stopped = asyncio.run(interrupted())
    assert 1 <= stopped.runset.done < 8
    assert _endpoints(world) == []

    def explode(progress: Any) -> None:
        if progress.done > stopped.runset.done:  # a pair finished while listening
            raise ZeroDivisionError("a bug in a progress callback")

    with pytest.raises(ZeroDivisionError):
        run_versions(
            world.connection(), resume=stopped.runset.runset_id, wait="webhooks", progress=explode
        )
    assert _endpoints(world) == []
    writes = [m for m, _ in _endpoint_calls(world) if m != "GET"]
    assert writes == ["POST", "DELETE"] * 2


def test_connect_allows_loopback_and_keeps_the_users_hosts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIELDWISE_WEBHOOK_ALLOW_HTTP", "hooks.internal")
    with connect(ClientSettings(), data_dir=tmp_path / "embedded") as connection:
        assert connection.embedded is not None
        settings = connection.embedded.app.state.fieldwise.settings  # type: ignore[attr-defined]
        assert settings.webhook_allow_http == ("hooks.internal", "127.0.0.1", "localhost")


def test_a_lost_create_answer_starts_no_second_run(make_world: MakeWorld) -> None:
    """Awaited by webhook, creates are not held, but an answer cut off after the service took
    the create is looked up by the create's token all the same: one run per pair."""
    plan = FaultPlan(seed=5, mishap_script=["truncate"] * 3)
    world = _hooked(
        make_world,
        3,
        wrap=lambda app: FaultInjector(
            app, plan, only=lambda s: s["method"] == "POST" and s["path"].endswith("/runs")
        ),
    )
    result = run_versions(
        world.connection(timeout=10.0),
        eval_set="texts",
        processor_id=world.processor_id,
        versions=[world.v1, world.v2],
        concurrency=2,
        wait="webhooks",
        policy=NO_POLL,
    )
    assert plan.mishaps["truncate"] == 3
    assert (result.done, result.succeeded, result.failed) == (6, 6, 0)
    _check_complete(world, result.runset_id, 6)
    with Client(world.service.base_url, world.service.api_key) as client:
        runs = list(client.paginate(lambda c: ops.list_runs(world.processor_id, 100, c)))
    assert len(runs) == 6, [(r.id, r.params) for r in runs]
    assert sorted(r.id for r in runs) == sorted(load_results(result.runset_id).run_id)
    assert len({r.params[CREATE_PARAM] for r in runs}) == 6
