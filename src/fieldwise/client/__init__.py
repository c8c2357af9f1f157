"""The HTTP client of the Document Processing Service (any server that honours the spec)."""

from fieldwise.client import _ops as ops
from fieldwise.client._client import AsyncClient, Client
from fieldwise.client._lookup import NAME_PAGE, one_named
from fieldwise.client._models import (
    Deleted,
    EvaluationRun,
    EvaluationSet,
    File,
    Item,
    Page,
    Processor,
    PublishOverride,
    Run,
    TrainingRun,
    Version,
    VersionVerdict,
)
from fieldwise.client._ops import Op
from fieldwise.client._retry import surely_unprocessed
from fieldwise.client._verdicts import (
    MAX_REASON_CHARS,
    MAX_REASONS,
    VerdictRecord,
    record_verdicts,
)

__all__ = [
    "MAX_REASONS",
    "MAX_REASON_CHARS",
    "NAME_PAGE",
    "AsyncClient",
    "Client",
    "Deleted",
    "EvaluationRun",
    "EvaluationSet",
    "File",
    "Item",
    "Op",
    "Page",
    "Processor",
    "PublishOverride",
    "Run",
    "TrainingRun",
    "VerdictRecord",
    "Version",
    "VersionVerdict",
    "one_named",
    "ops",
    "record_verdicts",
    "surely_unprocessed",
]
