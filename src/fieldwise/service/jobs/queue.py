"""Enqueue, claim, renew and finish jobs; all state lives in the ``jobs`` table.

A claim is one transaction: ``SELECT … FOR UPDATE SKIP LOCKED`` of the oldest queued job (on
PostgreSQL two claimants skip each other's rows; SQLite serializes writers and ignores the
clause), then a conditional ``UPDATE … WHERE status = 'queued'`` that sets a fresh lease token
and expiry. Every later move of a running job names that token, so a worker whose lease was
taken from it (expired, recovered, claimed again) can change nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Row,
    Select,
    bindparam,
    delete,
    insert,
    or_,
    select,
    update,
)

from fieldwise.service.clock import Clock
from fieldwise.service.ids import isoformat, new_id
from fieldwise.service.jobs.signal import count_queued
from fieldwise.service.jobs.tables import jobs
from fieldwise.service.store.prepared import prepared, updated_row

#: A job whose lease expired this many times (its worker died or froze) is abandoned.
DEFAULT_MAX_ATTEMPTS = 3
#: How long a claim lasts unless renewed (``settings.lease_seconds`` overrides it).
DEFAULT_LEASE = timedelta(seconds=30)


@dataclass(frozen=True)
class Job:
    """A claimed job: what to do (``kind``, ``target_id``), which attempt this is, and the
    lease ``token`` every conditional move of it names."""

    id: str
    kind: str
    target_id: str
    attempts: int
    max_attempts: int
    token: str | None = None


def _token() -> str:
    return secrets.token_hex(16)


_JOB_COLUMNS = (
    jobs.c.id,
    jobs.c.kind,
    jobs.c.target_id,
    jobs.c.attempts,
    jobs.c.max_attempts,
    jobs.c.lease_token,
)


def _job(row: Row[Any]) -> Job:
    return Job(row.id, row.kind, row.target_id, row.attempts, row.max_attempts, row.lease_token)


def enqueue(
    conn: Connection,
    clock: Clock,
    kind: str,
    target_id: str,
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> str:
    """Add a queued job in the caller's transaction (with the row it works on); return its id."""
    return add_job(conn, clock, kind, target_id, max_attempts=max_attempts).id


def add_job(
    conn: Connection,
    clock: Clock,
    kind: str,
    target_id: str,
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    claimed_by: str | None = None,
    lease: timedelta = DEFAULT_LEASE,
) -> Job:
    """Add a job in the caller's transaction (with the row it works on) and return it.

    ``claimed_by`` records work the caller does itself right away (a synchronous parse) as a
    job it already holds, with a lease it must keep renewing, so that the job is recovered if
    the process dies meanwhile.
    """
    now = clock.now()
    job = Job(
        new_id("job"),
        kind,
        target_id,
        1 if claimed_by else 0,
        max_attempts,
        _token() if claimed_by else None,
    )
    if not claimed_by:
        count_queued(conn, kind)  # wakes an idle worker of this process once committed
    conn.execute(
        insert(jobs).values(
            id=job.id,
            kind=kind,
            target_id=target_id,
            status="running" if claimed_by else "queued",
            attempts=job.attempts,
            max_attempts=max_attempts,
            owner=claimed_by,
            created_at=isoformat(now),
            claimed_at=isoformat(now) if claimed_by else None,
            lease_token=job.token,
            lease_expires_at=isoformat(now + lease) if claimed_by else None,
        )
    )
    return job


def claim(
    engine: Engine,
    clock: Clock,
    owner: str,
    kinds: tuple[str, ...],
    *,
    lease: timedelta = DEFAULT_LEASE,
) -> Job | None:
    """Claim the oldest queued job of the given kinds with a new lease, or return None."""
    with engine.begin() as conn:
        candidate = conn.execute(_oldest_queued(conn, kinds)).first()
        if candidate is None:
            return None
        now = clock.now()
        params = {
            "p_id": candidate.id,
            "p_owner": owner,
            "p_claimed_at": isoformat(now),
            "p_token": _token(),
            "p_expires": isoformat(now + lease),
        }
        claimed = updated_row(
            conn,
            _claim_move(conn, returning=conn.dialect.update_returning),
            params,
            lambda: conn.execute(select(jobs).where(jobs.c.id == candidate.id)).one(),
        )
        return None if claimed is None else _job(claimed)


def _oldest_queued(conn: Connection, kinds: tuple[str, ...]) -> Select[Any]:
    return prepared(
        conn,
        ("jobs.oldest_queued", kinds),
        lambda: (
            select(jobs.c.id)
            .where(jobs.c.status == "queued", jobs.c.kind.in_(kinds))
            .order_by(jobs.c.seq)
            .limit(1)
            .with_for_update(skip_locked=True)
        ),
    )


def _claim_move(conn: Connection, *, returning: bool) -> Any:
    def build() -> Any:
        move = (
            update(jobs)
            .where(jobs.c.id == bindparam("p_id"), jobs.c.status == "queued")
            .values(
                status="running",
                attempts=jobs.c.attempts + 1,
                owner=bindparam("p_owner"),
                claimed_at=bindparam("p_claimed_at"),
                lease_token=bindparam("p_token"),
                lease_expires_at=bindparam("p_expires"),
            )
        )
        return move.returning(*_JOB_COLUMNS) if returning else move

    return prepared(conn, ("jobs.claim", returning), build)


def _held(job: Job) -> ColumnElement[bool]:
    return (jobs.c.id == job.id) & (jobs.c.status == "running") & (jobs.c.lease_token == job.token)


def held(conn: Connection, job: Job) -> bool:
    """Whether ``job`` is still running under its lease token (nobody took it over)."""
    return conn.execute(select(jobs.c.id).where(_held(job))).first() is not None


def finished_under(conn: Connection, job: Job) -> bool:
    """Whether ``job`` was finished under its own lease (released: done, not lost)."""
    query = select(jobs.c.id).where(
        jobs.c.id == job.id, jobs.c.status == "finished", jobs.c.lease_token == job.token
    )
    return conn.execute(query).first() is not None


def renew(conn: Connection, clock: Clock, job: Job, lease: timedelta = DEFAULT_LEASE) -> bool:
    """Extend the lease of a job still held under ``job.token``; False when it was lost."""
    changed = conn.execute(
        update(jobs).where(_held(job)).values(lease_expires_at=isoformat(clock.now() + lease))
    ).rowcount
    return bool(changed)


def release(conn: Connection, clock: Clock, job: Job) -> bool:
    """Finish a job still held under ``job.token`` (in the worker's terminal transaction);
    False when the lease was lost: the caller must then change nothing and roll back."""
    release_held = prepared(
        conn,
        "jobs.release",
        lambda: (
            update(jobs)
            .where(
                jobs.c.id == bindparam("p_id"),
                jobs.c.status == "running",
                jobs.c.lease_token == bindparam("p_token"),
            )
            .values(status="finished", finished_at=bindparam("p_at"), lease_expires_at=None)
        ),
    )
    if job.token is None:  # ``_held`` then matches ``lease_token IS NULL``
        changed = conn.execute(
            update(jobs)
            .where(_held(job))
            .values(status="finished", finished_at=isoformat(clock.now()), lease_expires_at=None)
        ).rowcount
        return bool(changed)
    params = {"p_id": job.id, "p_token": job.token, "p_at": isoformat(clock.now())}
    return bool(conn.execute(release_held, params).rowcount)


def fail_or_release(
    engine: Engine, clock: Clock, job: Job, fail_target: Callable[[Connection], bool]
) -> None:
    """A handler's ``fail``: in one transaction, fail the job's target (``fail_target`` returns
    whether it did, which also finishes the job); when it could not — the target is already
    terminal or gone, or this worker lost its lease — only release the job."""
    with engine.begin() as conn:
        if not fail_target(conn):
            release(conn, clock, job)


def finish_jobs(conn: Connection, clock: Clock, target_id: str) -> None:
    """Mark every unfinished job of a target finished (it reached a terminal state)."""
    finish_all = prepared(
        conn,
        "jobs.finish_target",
        lambda: (
            update(jobs)
            .where(jobs.c.target_id == bindparam("p_target"), jobs.c.status != "finished")
            .values(status="finished", finished_at=bindparam("p_at"), lease_expires_at=None)
        ),
    )
    conn.execute(finish_all, {"p_target": target_id, "p_at": isoformat(clock.now())})


def finish_job(conn: Connection, clock: Clock, job_id: str) -> None:
    """Mark one job finished (its work is done; other jobs of its target are left alone)."""
    conn.execute(
        update(jobs)
        .where(jobs.c.id == job_id, jobs.c.status != "finished")
        .values(status="finished", finished_at=isoformat(clock.now()), lease_expires_at=None)
    )


def delete_jobs(conn: Connection, target_ids: list[str]) -> None:
    conn.execute(delete(jobs).where(jobs.c.target_id.in_(target_ids)))


def requeue(conn: Connection, job: Job) -> bool:
    """Put a job held under ``job.token`` back in the queue (its worker is stopping)."""
    changed = conn.execute(
        update(jobs)
        .where(_held(job))
        .values(
            status="queued", owner=None, claimed_at=None, lease_token=None, lease_expires_at=None
        )
    ).rowcount
    return bool(changed)


def _expired(now: datetime) -> ColumnElement[bool]:
    # A NULL expiry is a job claimed before leases existed: nobody renews it.
    return (jobs.c.status == "running") & or_(
        jobs.c.lease_expires_at.is_(None), jobs.c.lease_expires_at < isoformat(now)
    )


def expired(conn: Connection, now: datetime, kinds: tuple[str, ...]) -> list[Job]:
    """Running jobs of these kinds whose lease ran out (their worker died or froze)."""
    rows = conn.execute(
        select(jobs).where(_expired(now), jobs.c.kind.in_(kinds)).order_by(jobs.c.seq)
    )
    return [_job(r) for r in rows]


def orphans(conn: Connection, kinds: tuple[str, ...], owner: str) -> list[Job]:
    """Running jobs of these kinds held by any process but ``owner``: when ``owner`` is the
    only process that may claim (SQLite), those processes are gone, whatever their leases say."""
    rows = conn.execute(
        select(jobs)
        .where(
            jobs.c.status == "running",
            jobs.c.kind.in_(kinds),
            or_(jobs.c.owner.is_(None), jobs.c.owner != owner),
        )
        .order_by(jobs.c.seq)
    )
    return [_job(r) for r in rows]


def take_over(
    conn: Connection,
    clock: Clock,
    job: Job,
    owner: str,
    *,
    only_expired: bool = True,
    lease: timedelta = DEFAULT_LEASE,
) -> Job | None:
    """Take a lost job's lease (still under the token seen, and still expired unless
    ``only_expired`` is False): of two recoverers exactly one wins; None for the loser."""
    token = _token()
    condition = (
        (jobs.c.id == job.id)
        & (jobs.c.status == "running")
        & (jobs.c.lease_token.is_(None) if job.token is None else jobs.c.lease_token == job.token)
    )
    if only_expired:
        condition = condition & _expired(clock.now())
    won = conn.execute(
        update(jobs)
        .where(condition)
        .values(owner=owner, lease_token=token, lease_expires_at=isoformat(clock.now() + lease))
    ).rowcount
    if not won:
        return None
    return Job(job.id, job.kind, job.target_id, job.attempts, job.max_attempts, token)
