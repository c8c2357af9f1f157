"""The one lifecycle of every durable run (processor, parse, workflow, evaluation, training runs).

``queued`` → ``in_progress`` → ``succeeded`` | ``failed`` | ``canceled`` (and ``queued`` →
``canceled``). A run kind is a table with ``status``, ``attempts`` and the timing columns, and
a job kind; :class:`DurableRuns` moves its rows:

- :meth:`~DurableRuns.create`: insert a queued row and enqueue its job (one transaction);
- claim: the worker pool claims the job with a lease (:func:`fieldwise.service.jobs.claim`);
- :meth:`~DurableRuns.start`: ``queued`` → ``in_progress`` for the claimed job;
- heartbeat: the lease keeper renews the job's lease (:meth:`~DurableRuns.heartbeat`);
- :meth:`~DurableRuns.finish` / :meth:`~DurableRuns.fail`: to a terminal state, only while the
  worker still holds its lease (the job's token) and the row is still in the states it left;
- :meth:`~DurableRuns.cancel`: a user's ``queued``/``in_progress`` → ``canceled``;
- :meth:`~DurableRuns.requeue`: a recovered run goes back to ``queued``.

Each move is a conditional UPDATE whose row count says who won, so of two racing callers (two
claimants, a worker finishing and a user canceling, a frozen worker and the one that recovered
its job) exactly one changes the row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, Engine, Row, Table, bindparam, insert, select, update
from sqlalchemy.sql.expression import ClauseElement

from fieldwise.service.clock import Clock
from fieldwise.service.ids import isoformat, new_id
from fieldwise.service.jobs.queue import (
    DEFAULT_LEASE,
    Job,
    add_job,
    finish_jobs,
    release,
    renew,
)
from fieldwise.service.run_states import ACTIVE
from fieldwise.service.store.prepared import by_id, prepared, updated_row


class RunStopped(Exception):
    """A job handler's signal: the run was canceled or deleted meanwhile, or its lease was
    lost — drop the work and store nothing."""


class RunInterrupted(Exception):
    """A job handler's signal: the service is stopping — requeue the run."""


class RunFailed(Exception):
    """A job handler's signal: end the run ``failed`` with ``reason`` (its error code),
    ``message`` and ``values``, columns of the kind's own stored with the failure (an
    evaluation's metrics computed so far)."""

    def __init__(self, reason: str, message: str, values: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.values = values


#: What a run kind does in the transaction of one of its moves (record its event, give its
#: workflow a step), given the row as the move wrote it.
MoveHook = Callable[[Connection, Clock, Row[Any]], None]


@dataclass(frozen=True)
class DurableRuns:
    """The lifecycle of one run kind: rows of ``table``, jobs of kind ``kind``.

    ``started`` runs in the transaction of a worker's :meth:`start`, ``ended`` in that of every
    terminal move (:meth:`finish`, :meth:`fail`, :meth:`cancel`): what a kind adds to them
    (its events, a workflow's step) commits or rolls back with the move itself.
    """

    kind: str
    table: Table
    prefix: str
    started: MoveHook | None = None
    ended: MoveHook | None = None

    def get(self, conn: Connection, run_id: str) -> Row[Any] | None:
        return conn.execute(by_id(conn, self.table), {"p_id": run_id}).first()

    def status_of(self, engine: Engine, run_id: str) -> str | None:
        """The current status, read in its own connection (workers check it between stages)."""
        query = prepared(
            engine,
            ("runs.status_of", self.table),
            lambda: select(self.table.c.status).where(self.table.c.id == bindparam("p_id")),
        )
        with engine.connect() as conn:
            value = conn.execute(query, {"p_id": run_id}).scalar()
        return None if value is None else str(value)

    def create(
        self,
        conn: Connection,
        clock: Clock,
        values: dict[str, Any],
        *,
        claimed_by: str | None = None,
        lease: timedelta = DEFAULT_LEASE,
        run_id: str | None = None,
    ) -> tuple[str, Job]:
        """Insert a queued run with ``values`` and enqueue its job, in the caller's transaction.

        ``claimed_by`` (a process owner) makes it ``in_progress`` at once, its job held by
        that process under a lease (work done right away, such as a synchronous parse).
        ``run_id``: the id, when the caller made it beforehand (:meth:`next_id`).
        """
        run_id = run_id or self.next_id()
        stamp = isoformat(clock.now())
        conn.execute(
            insert(self.table).values(
                id=run_id,
                status="in_progress" if claimed_by else "queued",
                attempts=1 if claimed_by else 0,
                queued_at=stamp,
                started_at=stamp if claimed_by else None,
                created_at=stamp,
                updated_at=stamp,
                **values,
            )
        )
        job = add_job(conn, clock, self.kind, run_id, claimed_by=claimed_by, lease=lease)
        return run_id, job

    def next_id(self) -> str:
        """A new id for a run of this kind (a caller that must know it before the insert, to
        be woken when the run ends, makes it here and passes it to :meth:`create`)."""
        return new_id(self.prefix)

    def start(self, engine: Engine, clock: Clock, job: Job) -> Row[Any] | None:
        """``queued`` → ``in_progress`` for a claimed job; None (and the job released) when
        the run is gone or no longer queued (canceled meanwhile)."""
        with engine.begin() as conn:
            row = self.mark_started(conn, clock, job.target_id, attempt=job.attempts)
            if row is None:
                release(conn, clock, job)
            elif self.started is not None:
                self.started(conn, clock, row)
            return row

    def mark_started(
        self, conn: Connection, clock: Clock, run_id: str, *, attempt: int | None = None
    ) -> Row[Any] | None:
        """``queued`` → ``in_progress`` in the caller's transaction; None if not queued."""
        returning = conn.dialect.update_returning

        def build() -> Any:
            values: dict[str, Any] = {
                "status": "in_progress",
                "started_at": bindparam("p_at"),
                "updated_at": bindparam("p_at2"),
            }
            if attempt is not None:
                values["attempts"] = bindparam("p_attempts")
            move = (
                update(self.table)
                .where(self.table.c.id == bindparam("p_id"), self.table.c.status == "queued")
                .values(**values)
            )
            return move.returning(*self.table.c) if returning else move

        move = prepared(conn, ("runs.start", self.table, attempt is not None, returning), build)
        stamp = isoformat(clock.now())
        params: dict[str, Any] = {"p_id": run_id, "p_at": stamp, "p_at2": stamp}
        if attempt is not None:
            params["p_attempts"] = attempt
        return updated_row(conn, move, params, lambda: self.get(conn, run_id))

    def heartbeat(
        self, conn: Connection, clock: Clock, job: Job, lease: timedelta = DEFAULT_LEASE
    ) -> bool:
        """Renew the job's lease; False when it was lost (another process took the job)."""
        return renew(conn, clock, job, lease)

    def finish(
        self,
        conn: Connection,
        clock: Clock,
        run_id: str,
        status: str,
        *,
        job: Job | None = None,
        from_states: tuple[str, ...] = ("in_progress",),
        values: dict[str, Any] | None = None,
    ) -> Row[Any] | None:
        """Move a run in ``from_states`` to the terminal ``status`` with ``values``; return the
        row, or None when nothing changed (then the caller must change nothing else).

        With ``job`` (a worker's), the move happens only while the job's lease is still this
        worker's: a worker that froze past its lease cannot overwrite the result of the one
        that recovered its job. The run's jobs are finished in the same transaction.
        """
        if job is not None and job.token is not None and not release(conn, clock, job):
            return None
        values = values or {}
        returning = conn.dialect.update_returning
        # A value may be SQL (a training run's progress set from another column): that goes
        # into the statement itself, the rest are bound.
        expressions = {k: v for k, v in values.items() if isinstance(v, ClauseElement)}
        columns = tuple(sorted(values.keys() - expressions.keys()))

        def build() -> Any:
            move = (
                update(self.table)
                .where(
                    self.table.c.id == bindparam("p_id"),
                    self.table.c.status.in_(bindparam("p_from", expanding=True)),
                )
                .values(
                    status=bindparam("p_status"),
                    finished_at=bindparam("p_at"),
                    updated_at=bindparam("p_at2"),
                    **{name: bindparam(f"p_set_{name}") for name in columns},
                    **expressions,
                )
            )
            return move.returning(*self.table.c) if returning else move

        # One statement per set of columns a kind finishes with (a handful), built once; one
        # with SQL in it is built each time (rare, and its SQL could differ).
        key = ("runs.finish", self.table, columns, returning)
        move = build() if expressions else prepared(conn, key, build)
        stamp = isoformat(clock.now())
        params: dict[str, Any] = {
            "p_id": run_id,
            "p_from": list(from_states),
            "p_status": status,
            "p_at": stamp,
            "p_at2": stamp,
            **{f"p_set_{name}": values[name] for name in columns},
        }
        row = updated_row(conn, move, params, lambda: self.get(conn, run_id))
        if row is None:
            return None
        finish_jobs(conn, clock, run_id)
        if self.ended is not None:
            self.ended(conn, clock, row)
        return row

    def fail(
        self,
        conn: Connection,
        clock: Clock,
        run_id: str,
        reason: str,
        message: str,
        *,
        job: Job | None = None,
        from_states: tuple[str, ...] = ("in_progress",),
        values: dict[str, Any] | None = None,
    ) -> Row[Any] | None:
        """:meth:`finish` as ``failed`` with a reason (a code) and a message."""
        failure = {"failure_reason": reason, "failure_message": message, **(values or {})}
        return self.finish(
            conn, clock, run_id, "failed", job=job, from_states=from_states, values=failure
        )

    def cancel(
        self, conn: Connection, clock: Clock, run_id: str, values: dict[str, Any] | None = None
    ) -> Row[Any] | None:
        """A user's cancel: ``queued``/``in_progress`` → ``canceled``; None if already ended."""
        return self.finish(conn, clock, run_id, "canceled", from_states=ACTIVE, values=values)

    def requeue(self, conn: Connection, clock: Clock, run_id: str) -> bool:
        """A recovered ``queued``/``in_progress`` run goes back to ``queued``; False when it
        already ended or is gone."""
        changed = conn.execute(
            update(self.table)
            .where(self.table.c.id == run_id, self.table.c.status.in_(ACTIVE))
            .values(status="queued", started_at=None, updated_at=isoformat(clock.now()))
        ).rowcount
        return bool(changed)
