"""fieldwise.runner: run processor versions over an evaluation set — concurrent, cached,
resumable — and keep every result on disk.

``run_versions(connection, eval_set=..., processor_id=..., versions=[...])`` turns every
(item, version) pair into a processor run through the API and records each finished pair in
``.fieldwise/results/<runset_id>/records.jsonl``; ``load_results(runset_id)`` reads them back
as a pandas DataFrame without asking the service. ``wait="webhooks"`` learns of finished
runs from signed webhook events (a local receiver plus a temporary endpoint) instead of polling.
"""

from __future__ import annotations

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
from fieldwise.runner._plan import Connection
from fieldwise.runner._resolve import alias_targets
from fieldwise.runner._run import WAIT_MODES, RunInterrupted, arun_versions, run_versions
from fieldwise.runner._store import (
    DEFAULT_RESULTS_DIR,
    RESULT_COLUMNS,
    list_runsets,
    load_results,
    load_runset,
)
from fieldwise.runner._webhook_wait import WebhookListen

__all__ = [
    "DEFAULT_CACHE_PATH",
    "DEFAULT_RESULTS_DIR",
    "RESULT_COLUMNS",
    "WAIT_MODES",
    "CachedRun",
    "Connection",
    "ItemSnapshot",
    "LoadedRunSet",
    "Manifest",
    "PairPolicy",
    "Progress",
    "RunCache",
    "RunInterrupted",
    "RunRecord",
    "RunSet",
    "VersionRef",
    "WebhookListen",
    "alias_targets",
    "arun_versions",
    "list_runsets",
    "load_results",
    "load_runset",
    "merge_runsets",
    "run_versions",
]
