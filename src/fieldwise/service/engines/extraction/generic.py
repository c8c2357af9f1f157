"""Key/value extraction without a processor: every "Label: value" on the page."""

from __future__ import annotations

import re
from typing import Any

from fieldwise.service.engines.extraction.output import Output
from fieldwise.service.engines.parsing import ParsedDocument, split_cells

__all__ = ["extract_key_values"]

_SAME_CELL = 0.7
_NEXT_CELL = 0.8


def _key(label: str) -> str:
    key = re.sub(r"\W+", "_", label.strip().lower()).strip("_")
    return key or "field"


def extract_key_values(
    doc: ParsedDocument, *, confidence_threshold: float | None = None
) -> dict[str, Any]:
    """Pairs from lines like "Label: value" (same cell) or "Label:" | "value" (next column).

    Keys are the labels in snake case (``Invoice No:`` → ``invoice_no``), values are the raw
    text; a repeated key gets ``_2``, ``_3``... Output has the run output shape.
    """
    out = Output(confidence_threshold)
    seen: dict[str, int] = {}
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            cells = split_cells(line)
            for n, cell in enumerate(cells):
                for i, word in enumerate(cell):
                    if not word.text.endswith(":") or len(word.text) < 2:
                        continue
                    label = " ".join(w.text for w in cell[: i + 1]).rstrip(":")
                    rest = cell[i + 1 :]
                    confidence = _SAME_CELL
                    if not rest and n + 1 < len(cells):
                        rest, confidence = cells[n + 1], _NEXT_CELL
                    value = " ".join(w.text for w in rest).strip()
                    if not value or not _key(label).strip("_0123456789"):
                        break
                    key = _key(label)
                    seen[key] = seen.get(key, 0) + 1
                    if seen[key] > 1:
                        key = f"{key}_{seen[key]}"
                    out.put(key, value, confidence, p + 1, f"{label}: {value}")
                    break
    return out.result()
