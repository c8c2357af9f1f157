"""The HTTP client of the Document Processing Service (any server that honours the spec)."""

from fieldwise.client import ops
from fieldwise.client._client import AsyncClient, Client
from fieldwise.client.models import (
    Deleted,
    EvaluationSet,
    File,
    Item,
    Page,
    Processor,
    Version,
)
from fieldwise.client.ops import Op

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
]
