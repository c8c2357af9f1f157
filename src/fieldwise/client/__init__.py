"""The HTTP client of the Document Processing Service (any server that honours the spec)."""

from fieldwise.client import _ops as ops
from fieldwise.client._client import AsyncClient, Client
from fieldwise.client._models import (
    Deleted,
    EvaluationSet,
    File,
    Item,
    Page,
    Processor,
    Version,
)
from fieldwise.client._ops import Op
from fieldwise.client._retry import surely_unprocessed

__all__ = [
    "AsyncClient",
    "Client",
    "Deleted",
    "EvaluationSet",
    "File",
    "Item",
    "Op",
    "Page",
    "Processor",
    "Version",
    "ops",
    "surely_unprocessed",
]
