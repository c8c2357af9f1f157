"""``run_versions``: every (item, version) pair of an evaluation set through the processor,
concurrently, cached and resumable."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

from fieldwise._errors import RunInterrupted, RunnerError
from fieldwise.client import AsyncClient
from fieldwise.runner._cache import RunCache
from fieldwise.runner._execute import Pair, PairPolicy, PairRunner
from fieldwise.runner._model import LoadedRunSet, Manifest, Progress, RunRecord, RunSet
from fieldwise.runner._options import RunOptions
from fieldwise.runner._plan import Connection, prepare_runset
from fieldwise.runner._runset_store import RecordWriter
from fieldwise.runner._webhook_wait import WebhookListen, listening


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class _Tally:
    """Counts kept up to date per record (a run set can hold tens of thousands of pairs)."""

    def __init__(self, total: int, records: list[RunRecord]) -> None:
        self.total = total
        self.done: dict[tuple[str, str], RunRecord] = {}
        self.succeeded = self.failed = self.cached = 0
        for record in records:
            self.add(record)
        self.resumed = len(self.done)

    def _count(self, record: RunRecord, sign: int) -> None:
        if record.status == "succeeded":
            self.succeeded += sign
        else:
            self.failed += sign
        self.cached += sign * record.cached

    def add(self, record: RunRecord) -> None:
        previous = self.done.get(record.pair)
        if previous is not None:
            self._count(previous, -1)
        self.done[record.pair] = record
        self._count(record, 1)

    def progress(self) -> Progress:
        return Progress(self.total, len(self.done), self.succeeded, self.failed, self.cached)


async def arun_versions(
    connection: Connection, options: RunOptions | None = None, /, **changes: Any
) -> RunSet:
    """Async form of :func:`run_versions`."""
    o = (options or RunOptions()).with_changes(changes)
    if o.resume is None and not (o.eval_set and o.processor_id):
        raise RunnerError("give an evaluation set and a processor, or resume=RUNSET_ID")
    started = time.monotonic()
    report = o.progress or (lambda _p: None)
    arguments = {"eval_set": o.eval_set, "concurrency": o.concurrency, "use_cache": o.use_cache}
    async with connection.async_client(max_connections=max(10, 2 * o.concurrency)) as aclient:
        loaded = await prepare_runset(
            aclient,
            connection,
            eval_set=o.eval_set,
            processor_id=o.processor_id,
            versions=list(o.versions),
            resume=o.resume,
            results_dir=o.results_dir,
            arguments=arguments,
            shard=o.shard,
            split=o.split,
            force=o.force,
        )
        manifest = loaded.manifest
        kept = [r for r in loaded.records if not (o.retry_failed and r.status != "succeeded")]
        tally = _Tally(manifest.pair_count, kept)
        pending = deque(
            Pair(item, version)
            for item in loaded.items
            for version in manifest.versions
            if (item.item_id, version.version_id) not in tally.done
        )
        runner = PairRunner(
            aclient,
            manifest.processor_id,
            policy=o.policy or PairPolicy(),
            now=_utc_now,
            tag=manifest.runset_id,
        )

        def summary() -> RunSet:
            p = tally.progress()
            return RunSet(
                runset_id=manifest.runset_id,
                directory=loaded.directory,
                manifest=manifest,
                total=p.total,
                done=p.done,
                succeeded=p.succeeded,
                failed=p.failed,
                cached=p.cached,
                resumed=tally.resumed,
                new_runs=runner.runs_started,
                elapsed_s=time.monotonic() - started,
                loaded=LoadedRunSet(
                    loaded.directory, manifest, loaded.items, tuple(tally.done.values())
                ),
            )

        report(tally.progress())
        with RunCache(o.cache_path) as cache, RecordWriter(loaded.directory) as writer:

            def finish(record: RunRecord) -> None:
                writer.append(record, durable=not record.cached)
                tally.add(record)
                if record.status == "succeeded" and not record.cached and record.output:
                    cache.put(
                        manifest.service_identity,
                        manifest.processor_id,
                        record.version_id,
                        record.file_sha256,
                        run_id=record.run_id,
                        output=record.output,
                        latency_ms=record.latency_ms,
                        stored_at=record.finished_at,
                    )
                report(tally.progress())

            to_run = _serve_from_cache(pending, cache, manifest, finish) if o.use_cache else pending
            writer.sync()

            async def worker() -> None:
                while to_run:
                    finish(await runner.run(to_run.popleft()))

            listen = o.webhook or WebhookListen()
            async with _waiting(o.wait, aclient, runner, manifest.runset_id, listen, bool(to_run)):
                workers = min(o.concurrency, len(to_run))
                tasks = [asyncio.create_task(worker()) for _ in range(workers)]
                try:
                    await asyncio.gather(*tasks)
                except asyncio.CancelledError:
                    await _drain(tasks)
                    await runner.cancel_in_flight()
                    raise RunInterrupted(summary()) from None
                except BaseException:
                    await _drain(tasks)
                    await runner.cancel_in_flight()
                    raise
    return summary()


@contextlib.asynccontextmanager
async def _waiting(
    wait: str,
    aclient: AsyncClient,
    runner: PairRunner,
    runset_id: str,
    listen: WebhookListen,
    needed: bool,
) -> AsyncIterator[None]:
    """With ``wait="webhooks"`` and runs to start, listen for their events meanwhile."""
    if wait != "webhooks" or not needed:
        yield
        return
    description = f"fieldwise run {runset_id} (deleted when the run ends)"
    async with listening(aclient, runner.processor_id, listen, description=description) as ev:
        runner.events = ev
        try:
            yield
        finally:
            runner.events = None


async def _drain(tasks: list[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _serve_from_cache(
    pending: deque[Pair],
    cache: RunCache,
    manifest: Manifest,
    finish: Callable[[RunRecord], None],
) -> deque[Pair]:
    """Record every pending pair the cache holds; return the rest."""
    rest: deque[Pair] = deque()
    for pair in pending:
        hit = cache.get(
            manifest.service_identity,
            manifest.processor_id,
            pair.version.version_id,
            pair.item.file_sha256,
        )
        if hit is None or not pair.item.file_sha256:
            rest.append(pair)
            continue
        finish(
            RunRecord(
                item_id=pair.item.item_id,
                file=pair.item.file,
                file_sha256=pair.item.file_sha256,
                version_id=pair.version.version_id,
                version_alias=pair.version.alias,
                run_id=hit.run_id,
                status="succeeded",
                output=hit.output,
                latency_ms=hit.latency_ms,
                attempts=0,
                cached=True,
                error=None,
                finished_at=_utc_now(),
            )
        )
    return rest


def run_versions(
    connection: Connection, options: RunOptions | None = None, /, **changes: Any
) -> RunSet:
    """Run processor ``versions`` over every item of ``eval_set``; return the run set.

    The options are one :class:`RunOptions` value; keywords (``eval_set=...``) change it, or
    make one from the defaults.

    ``eval_set`` is an id (``es_…``) or a name; ``versions`` are ``ver_…`` ids or the aliases
    ``published`` / ``latest-draft`` / ``trained:latest`` (resolved once, at the start; both
    are recorded). ``split`` runs only the items sync recorded in that split. A trained
    version is refused on items it was trained on unless ``force`` (recorded in the run set).
    ``concurrency`` bounds the runs in flight. ``use_cache`` reuses succeeded outputs of the
    same service, processor, version and file content. ``resume`` (a run set id) runs only
    that set's missing pairs, ``retry_failed`` also its failed ones. ``progress`` is called
    with a :class:`Progress` after every pair. ``policy`` tunes retries and polling.

    ``wait="webhooks"`` waits for each run's ``processor.run.completed`` / ``.failed`` event
    instead of polling: a receiver listens at ``webhook`` (default 127.0.0.1, a free port) and
    a temporary endpoint with its URL is registered on the service, deleted at the end. A run
    whose event does not come within ``policy.webhook_poll_s`` is read anyway.

    Without ``resume``, the newest incomplete run set with the same service, processor, set,
    versions and items is resumed instead of starting over. Ctrl-C cancels in-flight runs
    best-effort and raises :class:`RunInterrupted`; everything finished is saved.

    ``shard=(i, N)`` runs only the items whose content hash falls in shard i of N: N machines
    running shards 1..N make run sets that ``merge_runsets`` joins into one.
    """
    return asyncio.run(arun_versions(connection, options, **changes))
