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
    Run,
    TrainingRun,
    Version,
)
from fieldwise.client._ops import Op
from fieldwise.client._retry import surely_unprocessed

__all__ = [
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
    "Run",
    "TrainingRun",
    "Version",
    "one_named",
    "ops",
    "surely_unprocessed",
]
