"""The ``evaluation_run`` job: snapshot the set's items, run the version on each as a real
processor run, wait for them, score with :mod:`fieldwise.compare`, and finish in one
transaction (cells, metrics, ``evaluation.completed``).

Evaluation jobs run in their own worker pool (:func:`evaluation_services`): an evaluation
waits for its processor runs, which the runs pool executes, so the two never starve each
other. A stopping service requeues the evaluation it was waiting on; the processor runs
already made are kept and reused by the next attempt.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Row, func, insert, select, update

from fieldwise._errors import CompareError, FieldwiseError
from fieldwise.compare import specs_from_recorded
from fieldwise.service.clock import Clock
from fieldwise.service.ids import isoformat
from fieldwise.service.jobs import Job
from fieldwise.service.jobs.durable import RunFailed, RunInterrupted, RunStopped
from fieldwise.service.jobs.pool import StoppingPool
from fieldwise.service.jobs.template import RunJob
from fieldwise.service.resources.evaluation_runs.lifecycle import EVALUATIONS, JOB_KIND
from fieldwise.service.resources.evaluation_runs.tables import (
    evaluation_results,
    evaluation_run_items,
    evaluation_runs,
)
from fieldwise.service.resources.evaluation_sets.tables import evaluation_sets, items
from fieldwise.service.resources.runs.lifecycle import create_processor_run
from fieldwise.service.resources.runs.tables import processor_runs
from fieldwise.service.run_states import TERMINAL
from fieldwise.service.state import ServiceState

if TYPE_CHECKING:
    from fieldwise.service.resources.evaluation_runs.job_scoring import Scoring

_POLL_MIN = 0.02
_POLL_MAX = 0.5


class EvaluationRunJob(RunJob[ServiceState]):
    """The ``evaluation_run`` job kind; ``stopping`` is set when the service shuts down."""

    def __init__(self, stopping: threading.Event) -> None:
        super().__init__(EVALUATIONS)
        self.stopping = stopping

    def work(self, state: ServiceState, row: Row[Any], job: Job) -> None:
        self._snapshot(state, row)
        self._wait(state, row.id, job)
        scoring, summary = self._score(state, row)
        self._commit(state, row, job, scoring, summary)

    def _snapshot(self, state: ServiceState, row: Any) -> None:
        """Create one processor run per item, once (a requeued evaluation keeps its runs)."""
        with state.engine.begin() as conn:
            # Write first: the row lock makes a concurrent cancel either precede or follow us.
            still = conn.execute(
                update(evaluation_runs)
                .where(evaluation_runs.c.id == row.id, evaluation_runs.c.status == "in_progress")
                .values(updated_at=isoformat(state.clock.now()))
            ).rowcount
            if not still:
                raise RunStopped
            done = conn.execute(
                select(func.count())
                .select_from(evaluation_run_items)
                .where(evaluation_run_items.c.evaluation_run_id == row.id)
            ).scalar_one()
            if done:
                return
            snapshot = list(
                conn.execute(
                    select(items.c.id, items.c.file_id, items.c.ground_truth)
                    .where(items.c.eval_set_id == row.eval_set_id)
                    .order_by(items.c.seq)
                )
            )
            if not snapshot:
                raise RunFailed(
                    "empty_evaluation_set",
                    f"evaluation set {row.eval_set_id} has no items",
                    {"metrics": {"items": 0, "runs": _run_counts([])}},
                )
            conn.execute(
                insert(evaluation_run_items),
                [_start_item(conn, state.clock, row, item) for item in snapshot],
            )

    def _wait(self, state: ServiceState, run_id: str, job: Job) -> None:
        delay = _POLL_MIN
        pending_query = (
            select(func.count())
            .select_from(
                evaluation_run_items.join(
                    processor_runs,
                    processor_runs.c.id == evaluation_run_items.c.processor_run_id,
                )
            )
            .where(
                evaluation_run_items.c.evaluation_run_id == run_id,
                processor_runs.c.status.not_in(TERMINAL),
            )
        )
        while True:
            if self.stopping.is_set():
                raise RunInterrupted
            self.check(state, run_id, job)
            with state.engine.connect() as conn:
                pending = conn.execute(pending_query).scalar_one()
            if not pending:
                return
            self.stopping.wait(delay)
            delay = min(_POLL_MAX, delay * 2)

    def _score(self, state: ServiceState, row: Any) -> tuple[Scoring, list[dict[str, Any]]]:
        with state.engine.connect() as conn:
            rows = list(
                conn.execute(
                    select(
                        evaluation_run_items.c.item_id,
                        evaluation_run_items.c.file_id,
                        evaluation_run_items.c.ground_truth,
                        evaluation_run_items.c.processor_run_id,
                        processor_runs.c.status,
                        processor_runs.c.output,
                        processor_runs.c.failure_reason,
                        processor_runs.c.failure_message,
                    )
                    .select_from(
                        evaluation_run_items.outerjoin(
                            processor_runs,
                            processor_runs.c.id == evaluation_run_items.c.processor_run_id,
                        )
                    )
                    .where(evaluation_run_items.c.evaluation_run_id == row.id)
                    .order_by(evaluation_run_items.c.seq)
                )
            )
            set_metadata = conn.execute(
                select(evaluation_sets.c.metadata).where(evaluation_sets.c.id == row.eval_set_id)
            ).scalar()
        summary = [
            {
                "item_id": r.item_id,
                "file_id": r.file_id,
                "processor_run_id": r.processor_run_id,
                # a processor run deleted meanwhile has no output: count it as failed
                "run_status": r.status if r.status is not None else "deleted",
            }
            for r in rows
        ]
        base = {"items": len(rows), "runs": _run_counts(rows)}
        so_far = {"metrics": base}  # a failed evaluation shows what it counted
        outputs = {r.item_id: r.output for r in rows if r.status == "succeeded" and r.output}
        if not outputs:
            raise RunFailed("all_runs_failed", _all_failed_message(rows), so_far)
        try:
            specs = specs_from_recorded((set_metadata or {}).get("compare_spec"))
        except FieldwiseError as exc:
            raise RunFailed("invalid_compare_spec", str(exc), so_far) from None
        # Imported here, not at module level: scoring pulls in pandas and numpy (about a second),
        # which a service that only answers requests (an embedded `fieldwise sync`) never needs.
        from fieldwise.service.resources.evaluation_runs.job_scoring import score

        truth = {r.item_id: r.ground_truth for r in rows}
        try:
            scoring = score(truth, outputs, specs, version_id=row.version_id)
        except CompareError as exc:
            raise RunFailed("compare_error", str(exc), so_far) from None
        scoring.metrics.update(base)
        return scoring, summary

    def _commit(
        self,
        state: ServiceState,
        row: Any,
        job: Job,
        scoring: Scoring,
        summary: list[dict[str, Any]],
    ) -> None:
        by_item = {s["item_id"]: s for s in summary}
        records = [
            {
                "evaluation_run_id": row.id,
                **by_item[cell.item_id],
                "field": cell.field,
                "row": cell.row,
                "expected": cell.expected,
                "predicted": cell.predicted,
                "outcome": cell.outcome,
                "confidence": cell.confidence,
                "score": cell.score,
            }
            for cell in scoring.cells
        ]
        with state.engine.begin() as conn:
            if records:
                conn.execute(insert(evaluation_results), records)
            done = EVALUATIONS.finish(
                conn, state.clock, row.id, "succeeded", job=job, values={"metrics": scoring.metrics}
            )
            if done is None:
                raise RunStopped  # canceled meanwhile, or lease lost: roll the cells back too


def _start_item(conn: Connection, clock: Clock, row: Any, item: Any) -> dict[str, Any]:
    run_id = create_processor_run(
        conn,
        clock,
        processor_id=row.processor_id,
        version_id=row.version_id,
        input_file_id=item.file_id,
        input_path=item.file_id,
        params={"version_id": row.version_id, "evaluation_run_id": row.id},
        base_url=row.base_url,
    )
    return {
        "evaluation_run_id": row.id,
        "item_id": item.id,
        "file_id": item.file_id,
        "ground_truth": item.ground_truth,
        "processor_run_id": run_id,
    }


def _run_counts(rows: list[Any]) -> dict[str, int]:
    counts = {"succeeded": 0, "failed": 0, "canceled": 0, "deleted": 0}
    for r in rows:
        counts[r.status if r.status in counts else "deleted"] += 1
    return counts


def _all_failed_message(rows: list[Any]) -> str:
    first = next((r for r in rows if r.status == "failed"), rows[0])
    detail = f"{first.failure_reason}: {first.failure_message}" if first.failure_reason else ""
    return f"none of the {len(rows)} processor runs produced an output" + (
        f"; first failure ({first.processor_run_id}) {detail}" if detail else ""
    )


def evaluation_services(state: ServiceState) -> StoppingPool[ServiceState]:
    """The worker pool of evaluation jobs, apart from the runs pool that the evaluations wait
    on (so neither starves the other); the factory in ``fieldwise.service.app``."""
    return StoppingPool(state, JOB_KIND, EvaluationRunJob)
