"""The ``workflow_step`` job: one :func:`~fieldwise.service.resources.workflows.lifecycle.take_step`
in one transaction. A step is not a durable run of its own (the workflow run moves with its
node runs), so it is a plain job handler, not a :class:`~fieldwise.service.jobs.template.RunJob`.
"""

from __future__ import annotations

from sqlalchemy import Connection

from fieldwise.service.clock import Clock
from fieldwise.service.jobs import Job, release
from fieldwise.service.resources.workflows.lifecycle import take_step
from fieldwise.service.state import ServiceState


class WorkflowStepHandler:
    """The ``workflow_step`` job kind: one :func:`take_step` in one transaction."""

    def run(self, state: ServiceState, job: Job) -> None:
        with state.engine.begin() as conn:
            if release(conn, state.clock, job):  # else another process took this step
                take_step(conn, state.clock, job.target_id)

    def fail(self, state: ServiceState, job: Job, reason: str, message: str) -> None:
        with state.engine.begin() as conn:
            release(conn, state.clock, job)

    def requeue(self, conn: Connection, clock: Clock, target_id: str) -> bool:
        return True  # a step is idempotent: taking it again is always safe
