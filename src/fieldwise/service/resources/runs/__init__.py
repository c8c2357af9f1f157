"""Runs of the local service: processor runs, parse runs, workflow runs and batches.

Runs are rows with a durable job each (:mod:`fieldwise.service.jobs`); workers parse (once per
document content, :class:`ParseCache`), extract and store the output as a file. Terminal
moves record events in the outbox in the same transaction. :func:`sweep_once` applies the
retention period.
"""

from __future__ import annotations

from fieldwise.service.resources.parse.cache import ParseCache, document_from_json, document_to_json
from fieldwise.service.resources.runs.background import RunServices, run_services
from fieldwise.service.resources.runs.retention import SweepResult, sweep_once
from fieldwise.service.resources.runs.tables import RUN_STATES, TERMINAL, create_run_tables

__all__ = [
    "RUN_STATES",
    "TERMINAL",
    "ParseCache",
    "RunServices",
    "SweepResult",
    "create_run_tables",
    "document_from_json",
    "document_to_json",
    "run_services",
    "sweep_once",
]
