"""One (item, version) pair → one finished record: create the run, wait for it (poll, or a
webhook event with a slow poll as safety net), fetch its output, retry a failed run a bounded
number of times, cancel it if we are interrupted."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fieldwise._errors import (
    APIStatusError,
    ClientError,
    NotFoundError,
    RateLimitError,
    ServerError,
    TransportError,
)
from fieldwise.client import AsyncClient, Run, ops, surely_unprocessed
from fieldwise.runner._model import ItemSnapshot, RunRecord, VersionRef
from fieldwise.runner._webhook_wait import RunEvents

# Errors that say "try again later", not "this request is wrong"; the client has already
# retried them with backoff, so seeing one here means the service stayed unwell for a while.
_TRANSIENT = (ServerError, TransportError, RateLimitError)
_TERMINAL = frozenset({"succeeded", "failed", "canceled"})
#: The param a created run carries: the run set that started it (see PairRunner._create).
TAG_PARAM = "fieldwise_run_set"
#: The param a created run carries, unique to its create: when the answer is lost after the
#: service created the run, the runner finds the run by it instead of starting a second.
CREATE_PARAM = "fieldwise_create"


def output_file_id(output_uri: str) -> str:
    """The file id at the end of ``{base_url}/files/{file_id}``."""
    return urlsplit(output_uri).path.rstrip("/").rsplit("/", 1)[-1]


@dataclass(frozen=True)
class Pair:
    item: ItemSnapshot
    version: VersionRef

    @property
    def key(self) -> tuple[str, str]:
        return (self.item.item_id, self.version.version_id)


@dataclass(frozen=True)
class PairPolicy:
    """How hard to try: new runs after a failed one, patience with a flaky service, polling.

    ``webhook_poll_s``: when waiting by webhook, how long to wait for a run's event before
    asking the service anyway (so a lost delivery costs time, never a hung run).

    ``poll_hold_s``: the create and each poll ask the service to hold the answer up to this
    long while the run is unfinished (``?wait=``; the local service answers the moment the
    run ends, so a run is mostly seen finished in the create's answer: one request per run).
    A service that answers at once anyway is polled with the back-off of ``poll_initial_s`` …
    ``poll_max_s``. 0 turns it off. Keep it well below the client's timeout.
    """

    run_retries: int = 2
    transient_retries: int = 3
    poll_initial_s: float = 0.05
    poll_max_s: float = 2.0
    poll_hold_s: float = 2.0
    cancel_timeout_s: float = 5.0
    webhook_poll_s: float = 10.0


@dataclass(frozen=True)
class _Outcome:
    run_id: str | None
    status: str
    output: dict[str, Any] | None
    error: dict[str, Any] | None
    latency_ms: int | None


def _error(reason: str | None, message: str | None) -> dict[str, Any]:
    return {"reason": reason or "unknown", "message": message or ""}


class PairRunner:
    """Runs pairs on one processor through ``aclient``; counts the runs it starts."""

    def __init__(
        self,
        aclient: AsyncClient,
        processor_id: str,
        *,
        policy: PairPolicy,
        now: Callable[[], str],
        tag: str | None = None,
    ) -> None:
        self.aclient = aclient
        self.processor_id = processor_id
        self.policy = policy
        self.now = now
        self.runs_started = 0
        #: Server runs started and not yet seen terminal: what an interrupt must cancel.
        self.in_flight: set[str] = set()
        #: Set while a webhook listener is up: runs are then awaited by event, not polled.
        self.events: RunEvents | None = None
        #: Put in the params of the runs it creates (``TAG_PARAM``), so an interrupt can find
        #: the runs whose create never answered; None: creates carry nothing and are not held.
        self.tag = tag
        #: False once the service refused a tagged create (400 or 422: a remote service that
        #: rejects what it does not know) and took it plain.
        self.creates_tagged = tag is not None
        #: Whether a tagged create went unanswered (cut short by an interrupt or a lost
        #: answer): a run may exist whose id this client does not know.
        self.unanswered = False

    async def run(self, pair: Pair) -> RunRecord:
        """Run ``pair`` to a record; a failure is a failed record, never an exception
        (cancellation propagates; the run stays in ``in_flight`` for :meth:`cancel_in_flight`)."""
        attempts = 0
        outcome: _Outcome | None = None
        while attempts <= self.policy.run_retries:
            attempts += 1
            outcome = await self._attempt(pair)
            if outcome.status == "succeeded" or not self._worth_retrying(outcome):
                break
        assert outcome is not None
        return RunRecord(
            item_id=pair.item.item_id,
            file=pair.item.file,
            file_sha256=pair.item.file_sha256,
            version_id=pair.version.version_id,
            version_alias=pair.version.alias,
            run_id=outcome.run_id,
            status=outcome.status,
            output=outcome.output,
            latency_ms=outcome.latency_ms,
            attempts=attempts,
            cached=False,
            error=outcome.error,
            finished_at=self.now(),
        )

    @staticmethod
    def _worth_retrying(outcome: _Outcome) -> bool:
        reason = (outcome.error or {}).get("reason")
        # A run someone canceled, or a request the service refused as wrong, would end the
        # same way again.
        return reason not in ("canceled", "rejected")

    async def _attempt(self, pair: Pair) -> _Outcome:
        started = time.monotonic()
        try:
            op = ops.create_run(
                self.processor_id, pair.item.file_id, version_id=pair.version.version_id
            )
            run = await self._create(op)
        except APIStatusError as exc:
            if isinstance(exc, _TRANSIENT):
                return _Outcome(None, "failed", None, _error("unavailable", str(exc)), None)
            return _Outcome(None, "failed", None, _error("rejected", str(exc)), None)
        except TransportError as exc:
            return _Outcome(None, "failed", None, _error("unavailable", str(exc)), None)
        self.runs_started += 1
        self.in_flight.add(run.id)
        try:
            run = await self._poll(run)
            return await self._finish(run, started)
        except ClientError as exc:
            return _Outcome(run.id, "failed", None, _error("unavailable", str(exc)), None)
        finally:
            # On cancellation the id stays: the run set cancels what is left, from the
            # top, once every pair task has stopped (a task being cancelled cannot await
            # reliably: httpx may deliver the cancellation again).
            if run.status in _TERMINAL:
                self.in_flight.discard(run.id)

    async def _create(self, op: ops.Op[Run]) -> Run:
        """Start the run. Held like a poll (``?wait=``) while the service may hold it and no
        webhook tells of its end: the local service answers the create once the run ended,
        one request per run where a create and a held read are two; a service that ignores
        ``wait`` answers at once and the run is polled as ever.

        Until a create answers, this client does not know the run's id: the run carries
        :attr:`tag` so that :meth:`cancel_in_flight` finds it, and a token of its own
        (``CREATE_PARAM``): a create whose answer was lost is looked for by it before it is
        asked again, so a dropped connection (during a hold, above all) starts no second
        run. A service that refuses the tagged create (400 or 422: nothing was started) is
        asked again plainly, and from then on every create is plain."""
        if not self.creates_tagged:
            plain: Run = await self._with_patience(lambda: self.aclient.call(op))
            return plain
        assert op.json is not None  # a create's body: input_path and params
        token = uuid.uuid4().hex
        body = {
            **op.json,
            "params": {**op.json["params"], TAG_PARAM: self.tag, CREATE_PARAM: token},
        }
        hold = self.events is None and self.policy.poll_hold_s > 0
        tagged = dataclasses.replace(
            op, json=body, params={"wait": self.policy.poll_hold_s} if hold else op.params
        )
        answered = False
        try:
            run: Run = await self._with_patience(lambda: self._ask_or_find(tagged, token))
            answered = True
            return run
        except APIStatusError as exc:
            answered = exc.status_code < 500  # a refusal started nothing
            if exc.status_code not in (400, 422):
                raise
        finally:
            # cut short (an interrupt, a lost answer): the run may exist, its id unknown here
            self.unanswered = self.unanswered or not answered
        run = await self._with_patience(lambda: self.aclient.call(op))
        self.creates_tagged = False  # refused tagged, taken plainly
        return run

    async def _ask_or_find(self, create: ops.Op[Run], token: str) -> Run:
        """Ask the tagged create once. When it failed in a way that may have started the run
        all the same (its answer lost, or a 5xx that may come after the work: not
        :func:`~fieldwise.client.surely_unprocessed`), the run carrying ``token`` if the
        service has it; else the failure, for :meth:`_with_patience` to ask again."""
        try:
            return await self.aclient.call(create)
        except _TRANSIENT as exc:
            if surely_unprocessed(exc):
                raise
            assert create.json is not None
            found = await self._created_with(token, create.json["params"].get("version_id"))
            if found is None:
                raise
            return found

    async def _created_with(self, token: str, version_id: str | None) -> Run | None:
        """The processor's run whose params carry ``token``, or None. Lists the version's
        runs (oldest first: the spec's lists have no other order), so it is asked only when
        a create's answer went missing."""
        async for run in self._runs_carrying(CREATE_PARAM, token, version_id=version_id):
            return run
        return None

    async def _runs_carrying(
        self,
        param: str,
        value: str | None,
        *,
        status: str | None = None,
        version_id: str | None = None,
    ) -> AsyncIterator[Run]:
        """The processor's runs (of ``status``, of ``version_id``) whose ``param`` is
        ``value``: the runs this runner created, found by what it put in their params."""
        pages = self.aclient.paginate(
            lambda c: ops.list_runs(
                self.processor_id, 1000, c, status=status, version_id=version_id
            )
        )
        async for run in pages:
            if run.params.get(param) == value:
                yield run

    async def _with_patience(self, call: Callable[[], Any]) -> Any:
        """Call, retrying transient errors a few more times beyond the client's own retries."""
        for attempt in range(self.policy.transient_retries + 1):
            try:
                return await call()
            except _TRANSIENT:
                if attempt == self.policy.transient_retries:
                    raise
                await asyncio.sleep(min(self.policy.poll_max_s, 0.25 * 2**attempt))
        raise AssertionError("unreachable")

    async def _poll(self, run: Run) -> Run:
        op = ops.get_run(self.processor_id, run.id)

        async def fetch() -> Run:
            return await self.aclient.call(op)

        if self.events is not None:
            return await self._await_event(run, self.events, fetch)
        hold = self.policy.poll_hold_s
        if hold > 0:
            op = dataclasses.replace(op, params={"wait": hold})
        delay = self.policy.poll_initial_s
        held = hold > 0  # the first question goes at once when the service may hold it
        while run.status not in _TERMINAL:
            if not held:
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.policy.poll_max_s)
            asked = time.monotonic()
            run = await self._with_patience(fetch)
            # Answered unfinished without holding: a service that ignores ``wait`` (or none
            # was asked); back off before asking again.
            held = hold > 0 and time.monotonic() - asked >= hold / 2
        return run

    async def _await_event(self, run: Run, events: RunEvents, fetch: Callable[[], Any]) -> Run:
        """Wait for the run's terminal event, then read the run once; with no event within
        ``webhook_poll_s``, read it anyway."""
        try:
            while run.status not in _TERMINAL:
                await events.wait(run.id, self.policy.webhook_poll_s)
                run = await self._with_patience(fetch)
        finally:
            events.forget(run.id)
        return run

    async def _finish(self, run: Run, started: float) -> _Outcome:
        latency = round((time.monotonic() - started) * 1000)
        if run.status == "canceled":
            return _Outcome(
                run.id, "failed", None, _error("canceled", "the run was canceled"), None
            )
        if run.status != "succeeded":
            error = _error(run.failure_reason, run.failure_message)
            return _Outcome(run.id, "failed", None, error, latency)
        output = run.output
        if output is None and run.output_uri:
            # Through the API, not the URI's host: behind a proxy the base URL a service
            # reports may not be the one this client uses.
            content_op = ops.get_file_content(run.output_file_id or output_file_id(run.output_uri))
            try:
                content = await self._with_patience(lambda: self.aclient.call(content_op))
                fetched = json.loads(content)
            except (NotFoundError, ValueError) as exc:
                return _Outcome(run.id, "failed", None, _error("output_missing", str(exc)), latency)
            output = fetched if isinstance(fetched, dict) else None
        if output is None:
            message = "the run succeeded without an output"
            return _Outcome(run.id, "failed", None, _error("no_output", message), latency)
        return _Outcome(run.id, "succeeded", output, None, latency)

    async def cancel_in_flight(self) -> int:
        """Cancel every server run still in flight, best effort; return how many were asked."""
        run_ids = sorted(self.in_flight)

        async def cancel(run_id: str) -> None:
            # The run may have finished meanwhile (409) or the service may be gone.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    self.aclient.call(ops.cancel_run(self.processor_id, run_id)),
                    timeout=self.policy.cancel_timeout_s,
                )

        if self.unanswered:
            run_ids = sorted({*run_ids, *(await self._tagged_unfinished())})
        await asyncio.gather(*(cancel(r) for r in run_ids))
        self.in_flight.clear()
        return len(run_ids)

    async def _tagged_unfinished(self) -> list[str]:
        """This runner's unfinished runs by their tag (creates cut short by the interrupt
        answered no id), best effort within ``cancel_timeout_s``."""
        found: list[str] = []

        async def collect(status: str) -> None:
            async for run in self._runs_carrying(TAG_PARAM, self.tag, status=status):
                found.append(run.id)

        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                asyncio.gather(collect("queued"), collect("in_progress")),
                timeout=self.policy.cancel_timeout_s,
            )
        return found
