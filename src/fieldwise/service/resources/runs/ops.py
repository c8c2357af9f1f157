"""Operations on processor runs that other parts of the service (the console) call."""

from __future__ import annotations

from sqlalchemy import Engine, select

from fieldwise.service.resources.runs.schemas import ProcessorRunPublic
from fieldwise.service.resources.runs.tables import processor_runs
from fieldwise.service.resources.runs.views import run_public


def recent_runs(
    engine: Engine, *, limit: int, before: int | None = None
) -> tuple[list[ProcessorRunPublic], int | None]:
    """Runs of every processor, newest first; ``before`` is the position the previous page
    returned (the next page's start), None at the end."""
    query = select(processor_runs).order_by(processor_runs.c.seq.desc()).limit(limit + 1)
    if before is not None:
        query = query.where(processor_runs.c.seq < before)
    with engine.connect() as conn:
        rows = list(conn.execute(query))
    more = len(rows) > limit
    rows = rows[:limit]
    return [run_public(r) for r in rows], (rows[-1].seq if more else None)
