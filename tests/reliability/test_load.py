"""Load: 640 processor runs through the service from 64 concurrent clients.

Every run must reach exactly one terminal state (one completion event each, none duplicated,
none lost) and every output must be retrievable and belong to its input. No unsafe retries:
any request refused, or lost after reaching the server, fails the test. The figures of
``benchmarks/load.py`` come from the same flow.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from fieldwise.client import AsyncClient, Client, ops
from fieldwise.service.events.outbox import events
from tests.conftest import TEST_KEY
from tests.reliability.conftest import TERMINAL, TRIVIAL, make_processor
from tests.service.jobs.test_crash_recovery import _serve

pytestmark = pytest.mark.slow  # about 30 s on 2 cores; runs in CI (nothing deselects it)

# Races need concurrency, not volume: 64 clients keep 64 runs in flight from first to last, and
# ten rounds of them already interleave claims, completions and event writes; the 2,000 runs of
# benchmarks/load.py (the throughput figure) cost a CI run 85 s more and find nothing more.
RUNS = 640
CONCURRENCY = 64
DOCUMENTS = 40


@dataclass(frozen=True)
class Outcome:
    run_id: str
    status: str
    expected: str
    output: dict[str, object]


async def _one(client: AsyncClient, processor_id: str, file_id: str, expected: str) -> Outcome:
    run = await client.call(ops.create_run(processor_id, file_id))
    delay = 0.02
    while run.status not in TERMINAL:
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.3)
        run = await client.call(ops.get_run(processor_id, run.id))
    assert run.output_file_id is not None, run.failure_message
    content = await client.call(ops.get_file_content(run.output_file_id))
    return Outcome(run.id, run.status, expected, json.loads(content))


async def _drive(
    base_url: str, key: str, processor_id: str, files: list[tuple[str, str]]
) -> list[Outcome]:
    gate = asyncio.Semaphore(CONCURRENCY)
    # Retries only where the client's policy says they are safe (reads; a POST that never
    # reached the server), so a create is never sent twice.
    async with AsyncClient(base_url, key, max_retries=3, max_connections=CONCURRENCY) as client:

        async def bounded(k: int) -> Outcome:
            file_id, expected = files[k % len(files)]
            async with gate:
                return await _one(client, processor_id, file_id, expected)

        return await asyncio.gather(*(bounded(k) for k in range(RUNS)))


def test_640_runs_from_64_clients_all_end_once_and_nothing_is_lost(tmp_path: Path) -> None:
    # The service in its own process, as deployed: client and server do not share one GIL.
    data_dir = tmp_path / "svc"
    with _serve(data_dir, tmp_path / "service.log") as (_proc, base_url):
        with Client(base_url, TEST_KEY, max_retries=0) as client:
            processor_id, _ = make_processor(client, "load", TRIVIAL)
            files = []
            for k in range(DOCUMENTS):
                first = f"DOC-{k:03d}"
                content = f"{first}\nbody\n".encode()
                files.append((client.upload_file(content, filename=f"{k}.txt").id, first))

        started = time.perf_counter()
        outcomes = asyncio.run(_drive(base_url, TEST_KEY, processor_id, files))
        elapsed = time.perf_counter() - started

        assert len(outcomes) == RUNS
        assert len({o.run_id for o in outcomes}) == RUNS
        assert Counter(o.status for o in outcomes) == {"succeeded": RUNS}
        for outcome in outcomes:
            assert outcome.output["value"] == {"first": outcome.expected}

        with Client(base_url, TEST_KEY, max_retries=0) as client:
            listed = list(
                client.paginate(lambda c: ops.list_runs(processor_id, limit=1000, cursor=c))
            )
        assert sorted(r.id for r in listed) == sorted(o.run_id for o in outcomes)
        assert {r.status for r in listed} == {"succeeded"}

    engine = create_engine(f"sqlite:///{data_dir / 'fieldwise.db'}")
    with engine.connect() as conn:
        rows = conn.execute(select(events.c.data).where(events.c.type.like("processor.run.%")))
        completions = Counter(row.data["run_id"] for row in rows)
    engine.dispose()
    assert set(completions) == {o.run_id for o in outcomes}
    assert set(completions.values()) == {1}  # exactly one terminal event per run
    print(f"\n{RUNS} runs, {CONCURRENCY} clients: {RUNS / elapsed:.0f} runs/s ({elapsed:.1f} s)")
