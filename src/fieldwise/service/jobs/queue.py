"""Enqueue, claim and finish jobs; all state lives in the ``jobs`` table.

Claiming is a conditional ``UPDATE … WHERE status = 'queued'`` whose row count says who won:
on SQLite writers are serialized, and on PostgreSQL (read committed) a second updater re-checks
the condition after the first commits and updates nothing. So a job is claimed by one worker.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, Engine, delete, insert, select, update

from fieldwise.service.clock import Clock
from fieldwise.service.ids import isoformat, new_id
from fieldwise.service.jobs.tables import jobs

#: A job interrupted this many times (the process died while it ran) is abandoned.
DEFAULT_MAX_ATTEMPTS = 3

_CLAIM_WINDOW = 8


@dataclass(frozen=True)
class Job:
    """A claimed job: what to do (``kind``, ``target_id``) and which attempt this is."""

    id: str
    kind: str
    target_id: str
    attempts: int
    max_attempts: int


def enqueue(
    conn: Connection,
    clock: Clock,
    kind: str,
    target_id: str,
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    claimed: bool = False,
) -> str:
    """Add a queued job in the caller's transaction (with the row it works on); return its id.

    ``claimed`` records work the caller does itself right away (a synchronous parse) as a
    running job, so that recovery still finds it if the process dies meanwhile.
    """
    job_id = new_id("job")
    conn.execute(
        insert(jobs).values(
            id=job_id,
            kind=kind,
            target_id=target_id,
            status="running" if claimed else "queued",
            attempts=1 if claimed else 0,
            max_attempts=max_attempts,
            owner=None,
            created_at=isoformat(clock.now()),
            claimed_at=isoformat(clock.now()) if claimed else None,
        )
    )
    return job_id


def claim(engine: Engine, clock: Clock, owner: str, kinds: tuple[str, ...]) -> Job | None:
    """Claim the oldest queued job of the given kinds, or return None when there is none."""
    with engine.connect() as conn:
        candidates = list(
            conn.execute(
                select(jobs.c.id)
                .where(jobs.c.status == "queued", jobs.c.kind.in_(kinds))
                .order_by(jobs.c.seq)
                .limit(_CLAIM_WINDOW)
            )
        )
    for candidate in candidates:
        with engine.begin() as conn:
            won = conn.execute(
                update(jobs)
                .where(jobs.c.id == candidate.id, jobs.c.status == "queued")
                .values(
                    status="running",
                    attempts=jobs.c.attempts + 1,
                    owner=owner,
                    claimed_at=isoformat(clock.now()),
                )
            ).rowcount
            if won != 1:
                continue
            row = conn.execute(select(jobs).where(jobs.c.id == candidate.id)).one()
            return Job(row.id, row.kind, row.target_id, row.attempts, row.max_attempts)
    return None


def finish_jobs(conn: Connection, clock: Clock, target_id: str) -> None:
    """Mark every unfinished job of a target finished (it reached a terminal state)."""
    conn.execute(
        update(jobs)
        .where(jobs.c.target_id == target_id, jobs.c.status != "finished")
        .values(status="finished", finished_at=isoformat(clock.now()))
    )


def finish_job(conn: Connection, clock: Clock, job_id: str) -> None:
    """Mark one job finished (its work is done; other jobs of its target are left alone)."""
    conn.execute(
        update(jobs)
        .where(jobs.c.id == job_id, jobs.c.status != "finished")
        .values(status="finished", finished_at=isoformat(clock.now()))
    )


def delete_jobs(conn: Connection, target_ids: list[str]) -> None:
    conn.execute(delete(jobs).where(jobs.c.target_id.in_(target_ids)))


def requeue(conn: Connection, job_id: str) -> None:
    conn.execute(
        update(jobs).where(jobs.c.id == job_id).values(status="queued", owner=None, claimed_at=None)
    )


def interrupted(conn: Connection) -> list[Job]:
    """Jobs left ``running`` by a process that died (call before workers start)."""
    rows = conn.execute(select(jobs).where(jobs.c.status == "running").order_by(jobs.c.seq))
    return [Job(r.id, r.kind, r.target_id, r.attempts, r.max_attempts) for r in rows]
