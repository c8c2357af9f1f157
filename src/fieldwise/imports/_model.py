"""The values an import is made of: one document's output as a source gave it, vendor cells
before mapping, and what the import could not use (listed, never dropped)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fieldwise._errors import PredictionsError

__all__ = [
    "FORMATS",
    "VENDOR_FORMATS",
    "Cell",
    "Output",
    "PredictionsError",
    "Source",
    "VendorDocument",
]

#: Vendor formats: their field names are mapped onto the dataset's.
VENDOR_FORMATS = ("azure", "google", "textract")
#: Every format ``--format`` accepts besides ``auto``.
FORMATS = ("jsonl", "csv", "parquet", "folder", *VENDOR_FORMATS)


@dataclass(frozen=True)
class Source:
    """One ``--version NAME=PATH``: the version's name, where its predictions are and in
    which format (``auto``: detected from the content)."""

    name: str
    path: str
    format: str = "auto"


@dataclass(frozen=True)
class Cell:
    """A vendor's value for one field, with its confidence in [0, 1] (None: not given)."""

    value: Any
    confidence: float | None


@dataclass(frozen=True)
class VendorDocument:
    """One document as a vendor returned it, in the vendor's names: scalar fields, arrays of
    rows (line items), and what the parser had to choose (``notes``)."""

    fields: Mapping[str, Cell]
    arrays: Mapping[str, tuple[Mapping[str, Cell], ...]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Output:
    """One document's predictions in the dataset's names, as a run output carries them:
    ``value`` (nested like the ground truth) and ``confidence`` by dotted path
    (``line_items.0.amount``). ``key`` is how the source named the document, ``where`` the
    file (and line) it came from."""

    key: str
    where: str
    value: Mapping[str, Any]
    confidence: Mapping[str, float] = field(default_factory=dict)
    unmapped: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def run_output(self) -> dict[str, Any]:
        """``{"value": ..., "metadata": {path: {"confidence": c}}}`` (what a run records)."""
        metadata = {path: {"confidence": c} for path, c in sorted(self.confidence.items())}
        return {"value": dict(self.value), "metadata": metadata}
