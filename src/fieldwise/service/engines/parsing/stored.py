"""The stored form of a parsed document: lossless JSON bytes, and the document they hold.

The parse cache keeps a parsed document as these bytes, and they are also what crosses to an
engine process: bytes pickle at memory speed, while a document pickles word by word and is
rebuilt word by word on the other side. :class:`StoredDocument` carries the bytes with a
content ``key`` and decodes them only when a document is needed here (an engine process
that has seen the key keeps its own copy decoded).
"""

from __future__ import annotations

import json
from typing import Any

from fieldwise.service.engines.parsing.model import Box, Line, Page, ParsedDocument, Word

__all__ = [
    "StoredDocument",
    "decode_document",
    "document_from_json",
    "document_to_json",
    "encode_document",
]


def document_to_json(doc: ParsedDocument) -> dict[str, Any]:
    """A lossless JSON form (full-precision boxes, unlike ``ParsedDocument.to_json``)."""
    return {
        "format": doc.format,
        "markdown": doc.markdown,
        "invoice_xml": doc.invoice_xml,
        "pages": [
            {
                "number": p.number,
                "width": p.width,
                "height": p.height,
                "source": p.source,
                "lines": [
                    {
                        "text": line.text,
                        "box": [line.box.x0, line.box.y0, line.box.x1, line.box.y1],
                        "words": [
                            [w.text, w.box.x0, w.box.y0, w.box.x1, w.box.y1, w.confidence]
                            for w in line.words
                        ],
                    }
                    for line in p.lines
                ],
            }
            for p in doc.pages
        ],
    }


def document_from_json(raw: dict[str, Any]) -> ParsedDocument:
    pages = tuple(
        Page(
            number=p["number"],
            width=p["width"],
            height=p["height"],
            source=p["source"],
            lines=tuple(
                Line(
                    words=tuple(
                        Word(w[0], Box(w[1], w[2], w[3], w[4]), w[5]) for w in line["words"]
                    ),
                    box=Box(*line["box"]),
                    text=line["text"],
                )
                for line in p["lines"]
            ),
        )
        for p in raw["pages"]
    )
    return ParsedDocument(
        format=raw["format"],
        pages=pages,
        markdown=raw["markdown"],
        invoice_xml=raw.get("invoice_xml"),
    )


def encode_document(doc: ParsedDocument) -> bytes:
    return json.dumps(document_to_json(doc), ensure_ascii=False, separators=(",", ":")).encode()


def decode_document(data: bytes) -> ParsedDocument:
    return document_from_json(json.loads(data))


class StoredDocument:
    """A parsed document's stored bytes under its content ``key``; :attr:`doc` decodes them
    on first use (two threads racing decode it twice, to equal documents)."""

    __slots__ = ("_doc", "data", "key")

    def __init__(self, key: str, data: bytes, doc: ParsedDocument | None = None) -> None:
        self.key = key
        self.data = data
        self._doc = doc

    @classmethod
    def of(cls, key: str, doc: ParsedDocument) -> StoredDocument:
        return cls(key, encode_document(doc), doc)

    @property
    def doc(self) -> ParsedDocument:
        if self._doc is None:
            self._doc = decode_document(self.data)
        return self._doc
