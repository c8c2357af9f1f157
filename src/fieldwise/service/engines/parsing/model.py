"""The parsed document: pages of words and lines with boxes, plain text and Markdown.

Coordinates are in the page's own units with the origin at the top left and y growing down:
PDF points for PDFs, pixels for images, and a synthetic monospace grid (one character is
``GRID_CHAR_WIDTH`` wide, one line ``GRID_LINE_HEIGHT`` high) for DOCX, HTML, text and CSV.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = ["GRID_CHAR_WIDTH", "GRID_LINE_HEIGHT", "Box", "Line", "Page", "ParsedDocument", "Word"]

GRID_CHAR_WIDTH = 6.0
GRID_LINE_HEIGHT = 12.0


class Box(NamedTuple):
    """An axis-aligned rectangle: left, top, right, bottom.

    A named tuple rather than a frozen dataclass: a page makes a few hundred boxes, words and
    lines, and building one cost a third of the time as a dataclass (immutable, hashable and
    comparable by value either way)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    def union(self, other: Box) -> Box:
        return Box(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )

    def to_list(self) -> list[float]:
        return [round(self.x0, 2), round(self.y0, 2), round(self.x1, 2), round(self.y1, 2)]


class Word(NamedTuple):
    """One word; ``confidence`` is 1.0 for text layers and the OCR score otherwise."""

    text: str
    box: Box
    confidence: float = 1.0


class Line(NamedTuple):
    """A visual row of words, left to right, with its bounding box and text."""

    words: tuple[Word, ...]
    box: Box
    text: str

    @property
    def confidence(self) -> float:
        return min((w.confidence for w in self.words), default=1.0)


@dataclass(frozen=True)
class Page:
    """One page: 1-based ``number``, size, lines top to bottom, and all words in reading order.

    ``source`` is ``"text"`` (a text layer or a structured format) or ``"ocr"``.
    """

    number: int
    width: float
    height: float
    lines: tuple[Line, ...]
    source: str = "text"

    @property
    def words(self) -> tuple[Word, ...]:
        return tuple(w for line in self.lines for w in line.words)

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@dataclass(frozen=True)
class ParsedDocument:
    """A parsed document: its sniffed ``format``, pages, plain ``text`` and ``markdown``.

    ``invoice_xml`` is the invoice a PDF carries as an embedded CII or UBL file (Factur-X,
    ZUGFeRD, XRechnung; see :mod:`.attachments`), None for anything else; only a processor
    with the ``e_invoice`` option reads it.
    """

    format: str
    pages: tuple[Page, ...]
    markdown: str
    invoice_xml: str | None = None

    @property
    def text(self) -> str:
        return "\n\n".join(page.text for page in self.pages)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (``format=json``): pages with lines and words, each with a box."""
        return {
            "format": self.format,
            "page_count": len(self.pages),
            "pages": [
                {
                    "number": page.number,
                    "width": round(page.width, 2),
                    "height": round(page.height, 2),
                    "source": page.source,
                    "lines": [
                        {
                            "text": line.text,
                            "box": line.box.to_list(),
                            "words": [
                                {
                                    "text": w.text,
                                    "box": w.box.to_list(),
                                    "confidence": round(w.confidence, 4),
                                }
                                for w in line.words
                            ],
                        }
                        for line in page.lines
                    ],
                }
                for page in self.pages
            ],
        }

    def to_json_str(self) -> str:
        """``to_json`` serialized deterministically."""
        return json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True)
