"""Retention: outputs of runs finished more than ``retention_days`` ago are removed.

:func:`sweep_once` does one pass (tests call it under a ManualClock); :class:`Sweeper` calls it
at start and then every :data:`SWEEP_INTERVAL_SECONDS` of wall time. A swept processor run keeps
its record (status, timings, failure) with ``output`` cleared and ``output_expired_at`` set; a
swept parse run loses its stored input and output the same way.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select, update

from fieldwise.service.ids import isoformat
from fieldwise.service.jobs.ticker import Ticker
from fieldwise.service.resources.files.ops import delete_files, unlink
from fieldwise.service.resources.parse.tables import parse_runs
from fieldwise.service.resources.runs.tables import processor_runs
from fieldwise.service.state import ServiceState

log = logging.getLogger("fieldwise.service.retention")

SWEEP_INTERVAL_SECONDS = 3600.0
_BATCH = 500


@dataclass(frozen=True)
class SweepResult:
    processor_runs: int
    parse_runs: int
    blobs_deleted: int


def sweep_once(state: ServiceState) -> SweepResult:
    """Remove outputs older than ``settings.retention_days`` (by ``state.clock``)."""
    now = state.clock.now()
    cutoff = isoformat(now - timedelta(days=state.settings.retention_days))
    stamp = isoformat(now)
    with state.engine.begin() as conn:
        runs = list(
            conn.execute(
                select(processor_runs.c.id, processor_runs.c.output_file_id)
                .where(
                    processor_runs.c.finished_at < cutoff,
                    processor_runs.c.output_file_id.is_not(None),
                    processor_runs.c.output_expired_at.is_(None),
                )
                .limit(_BATCH)
            )
        )
        prs = list(
            conn.execute(
                select(parse_runs.c.id, parse_runs.c.input_file_id, parse_runs.c.output_file_id)
                .where(parse_runs.c.finished_at < cutoff, parse_runs.c.input_file_id.is_not(None))
                .limit(_BATCH)
            )
        )
        doomed = [r.output_file_id for r in runs] + [
            f for r in prs for f in (r.input_file_id, r.output_file_id) if f
        ]
        unused = delete_files(state, conn, doomed) if doomed else []
        if runs:
            conn.execute(
                update(processor_runs)
                .where(processor_runs.c.id.in_([r.id for r in runs]))
                .values(output=None, output_expired_at=stamp, updated_at=stamp)
            )
        if prs:
            conn.execute(
                update(parse_runs)
                .where(parse_runs.c.id.in_([r.id for r in prs]))
                .values(input_file_id=None, output_file_id=None, updated_at=stamp)
            )
    unlink(state, unused)
    return SweepResult(len(runs), len(prs), len(unused))


class Sweeper:
    """Runs :func:`sweep_once` at start and then periodically, in a daemon thread."""

    def __init__(self, state: ServiceState) -> None:
        self.state = state
        # a locked database is not fatal: the failed sweep is logged, the next one comes
        self._ticker = Ticker(
            "fieldwise-sweeper",
            SWEEP_INTERVAL_SECONDS,
            self._sweep,
            log=log,
            failure="retention sweep failed",
            at_start=True,
        )

    def start(self) -> None:
        self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop()

    def _sweep(self) -> None:
        # one pass removes at most a batch: sweep again until nothing is left (or stopped)
        while sum(vars(sweep_once(self.state)).values()) and not self._ticker.stopping:
            pass
