"""The ``parse_run`` job: a queued parse run, parsed by a worker."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import Connection, Row
from sqlalchemy.exc import SQLAlchemyError

from fieldwise.service.jobs import Job, fail_or_release
from fieldwise.service.jobs.template import RunJob
from fieldwise.service.resources.parse.lifecycle import PARSE_RUNS, execute_parse, finish_parse_run
from fieldwise.service.resources.parse.ops_cache import ParseCache
from fieldwise.service.state import ServiceState

log = logging.getLogger("fieldwise.service.parse")


class ParseRunJob(RunJob[ServiceState]):
    """The ``parse_run`` job kind (``POST /parse/file/async``). Its body ends the run itself,
    succeeded or failed (the synchronous parse shares it); a failure that cannot record its
    notification still ends the run."""

    def __init__(self, cache: ParseCache) -> None:
        super().__init__(PARSE_RUNS)
        self.cache = cache

    def work(self, state: ServiceState, row: Row[Any], job: Job) -> None:
        execute_parse(state, self.cache, row, job, notify=True)

    def fail(self, state: ServiceState, job: Job, reason: str, message: str) -> None:
        def fail_target(conn: Connection, *, notify: bool = True) -> bool:
            row = PARSE_RUNS.get(conn, job.target_id)
            return row is not None and finish_parse_run(
                conn,
                state.clock,
                row,
                "failed",
                job=job,
                reason=reason,
                message=message,
                notify=notify,
            )

        try:
            fail_or_release(state.engine, state.clock, job, fail_target)
        except SQLAlchemyError:
            # Even the failure's notification cannot be stored (the database refuses its
            # webhook_url, say): end the run failed without it rather than leave it started.
            log.exception("parse run %s: failing it without its notification", job.target_id)
            fail_or_release(
                state.engine, state.clock, job, lambda conn: fail_target(conn, notify=False)
            )
