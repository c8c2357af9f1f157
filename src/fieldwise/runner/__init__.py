"""fieldwise.runner: run processor versions over an evaluation set — concurrent, cached,
resumable — and keep every result on disk.

``run_versions(connection, eval_set=..., processor_id=..., versions=[...])`` turns every
(item, version) pair into a processor run through the API and records each finished pair in
the run set's folder under ``.fieldwise/results/`` (whose layout only the run-set store knows);
``load_results(runset_id)`` reads them back as a pandas DataFrame without asking the service.
``wait="webhooks"`` learns of finished runs from signed webhook events (a local receiver plus
a temporary endpoint) instead of polling.
"""

from __future__ import annotations

from fieldwise._errors import RunInterrupted
from fieldwise.runner._cache import DEFAULT_CACHE_PATH, CachedRun, RunCache
from fieldwise.runner._execute import PairPolicy
from fieldwise.runner._merge import merge_runsets
from fieldwise.runner._model import (
    ItemSnapshot,
    LoadedRunSet,
    Manifest,
    Progress,
    RunRecord,
    RunSet,
    VersionRef,
)
from fieldwise.runner._options import WAIT_MODES, RunOptions
from fieldwise.runner._plan import Connection, items_digest, provenance
from fieldwise.runner._resolve import (
    alias_targets,
    resolve_eval_set,
    resolve_version,
    snapshot_items,
)
from fieldwise.runner._results import RESULT_COLUMNS, load_results
from fieldwise.runner._run import arun_versions, run_versions
from fieldwise.runner._runset_store import (
    DEFAULT_RESULTS_DIR,
    RUNSET_ENTRIES,
    RecordWriter,
    cells_path,
    create_runset,
    list_runsets,
    load_runset,
    new_runset_id,
    read_statistics,
    records_stamp,
    verdict_path,
    write_statistics,
    write_whole_runset,
)
from fieldwise.runner._webhook_wait import WebhookListen

__all__ = [
    "DEFAULT_CACHE_PATH",
    "DEFAULT_RESULTS_DIR",
    "RESULT_COLUMNS",
    "RUNSET_ENTRIES",
    "WAIT_MODES",
    "CachedRun",
    "Connection",
    "ItemSnapshot",
    "LoadedRunSet",
    "Manifest",
    "PairPolicy",
    "Progress",
    "RecordWriter",
    "RunCache",
    "RunInterrupted",
    "RunOptions",
    "RunRecord",
    "RunSet",
    "VersionRef",
    "WebhookListen",
    "alias_targets",
    "arun_versions",
    "cells_path",
    "create_runset",
    "items_digest",
    "list_runsets",
    "load_results",
    "load_runset",
    "merge_runsets",
    "new_runset_id",
    "provenance",
    "read_statistics",
    "records_stamp",
    "resolve_eval_set",
    "resolve_version",
    "run_versions",
    "snapshot_items",
    "verdict_path",
    "write_statistics",
    "write_whole_runset",
]
