"""Server-side evaluation runs: a processor version scored on an evaluation set.

An evaluation run (``evrun_…``) is a durable job (:mod:`fieldwise.service.jobs`) in its own
worker pool: it snapshots the set's items, creates a real processor run per item (outputs stay
inspectable), waits for them, scores the outputs with :mod:`fieldwise.compare` and stores the
metrics and every scored cell, recording ``evaluation.completed`` in the finishing transaction.
"""

from __future__ import annotations

from fieldwise.service.resources.evaluation_runs.handler import (
    EvaluationRunHandler,
    EvaluationServices,
    evaluation_services,
)
from fieldwise.service.resources.evaluation_runs.lifecycle import (
    JOB_KIND,
    cancel_evaluation,
    create_evaluation_run,
    event_data,
    finish_evaluation,
    get_evaluation_run,
)
from fieldwise.service.resources.evaluation_runs.schemas import (
    EvaluationResultPublic,
    EvaluationRunCreate,
    EvaluationRunPublic,
    EvaluationRunStatus,
    Outcome,
)
from fieldwise.service.resources.evaluation_runs.scoring import Cell, Scoring, score
from fieldwise.service.resources.evaluation_runs.tables import (
    create_evaluation_tables,
    evaluation_results,
    evaluation_run_items,
    evaluation_runs,
)

__all__ = [
    "JOB_KIND",
    "Cell",
    "EvaluationResultPublic",
    "EvaluationRunCreate",
    "EvaluationRunHandler",
    "EvaluationRunPublic",
    "EvaluationRunStatus",
    "EvaluationServices",
    "Outcome",
    "Scoring",
    "cancel_evaluation",
    "create_evaluation_run",
    "create_evaluation_tables",
    "evaluation_results",
    "evaluation_run_items",
    "evaluation_runs",
    "evaluation_services",
    "event_data",
    "finish_evaluation",
    "get_evaluation_run",
    "score",
]
