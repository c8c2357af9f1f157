"""Parse once per document content: a cache of parsed documents in the blob store.

The parsed form is stored as a file (purpose ``parsed``, derived from the input file) and
indexed by the content's sha256 in ``parse_cache``; deleting the input file deletes the
parsed file with it, after which the stale cache row is simply a miss.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from fieldwise.service.engines.parsing import (
    Box,
    Line,
    Page,
    ParsedDocument,
    ParseLimits,
    Word,
    parse_document,
)
from fieldwise.service.engines.processes import EnginePool
from fieldwise.service.ids import isoformat
from fieldwise.service.resources.files.ops import ParentGone, discard, store_file
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.parse.tables import parse_cache
from fieldwise.service.state import ServiceState

#: Bump when the parser's output for the same bytes changes, so old entries are not reused.
PARSER_REVISION = "1"


def document_to_json(doc: ParsedDocument) -> dict[str, Any]:
    """A lossless JSON form (full-precision boxes, unlike ``ParsedDocument.to_json``)."""
    return {
        "format": doc.format,
        "markdown": doc.markdown,
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
    return ParsedDocument(format=raw["format"], pages=pages, markdown=raw["markdown"])


def parse_limits(state: ServiceState) -> ParseLimits:
    """The parser's bounds with the service's settings applied over its defaults."""
    settings = state.settings
    given = {
        "max_csv_columns": settings.max_csv_columns,
        "max_csv_cells": settings.max_csv_cells,
        "max_page_pixels": settings.max_page_pixels,
        "max_document_pixels": settings.max_document_pixels,
    }
    return ParseLimits(**{name: value for name, value in given.items() if value is not None})


class ParseCache:
    """Parsed documents by content hash; one parse at a time per content in this process."""

    def __init__(self, state: ServiceState, pool: EnginePool | None = None) -> None:
        self.state = state
        self.pool = pool  # parse on its worker processes, when given
        self._guard = threading.Lock()
        self._locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)

    def _lock(self, key: str) -> threading.Lock:
        with self._guard:
            return self._locks[key]

    def get(self, input_file: Any) -> ParsedDocument:
        """The parsed ``input_file`` row's content; raises ParseError subclasses."""
        key = f"{input_file.sha256}:{PARSER_REVISION}"
        with self._lock(key):
            cached = self._lookup(key)
            if cached is not None:
                return cached
            data = self.state.blobs.read(input_file.sha256)
            parse = self.pool.parse if self.pool is not None else parse_document
            doc = parse(
                data,
                filename=input_file.filename,
                content_type=input_file.content_type,
                limits=parse_limits(self.state),
            )
            self._store(key, document_to_json(doc), input_file.id)
            # The stored form reads back as this very document (full-precision floats, same
            # nesting: tests/parsing/test_cache_form.py), so a hit and a miss extract alike
            # without rebuilding every word from the JSON here.
            return doc

    def _lookup(self, key: str) -> ParsedDocument | None:
        with self.state.engine.connect() as conn:
            row = conn.execute(
                select(files.c.sha256)
                .select_from(parse_cache.join(files, files.c.id == parse_cache.c.file_id))
                .where(parse_cache.c.key == key)
            ).first()
        if row is None:
            return None
        try:
            data = self.state.blobs.read(row.sha256)
        except FileNotFoundError:  # deleted, or cut short by a crash (BlobCorrupt): a miss
            return None
        return document_from_json(json.loads(data))

    def _store(self, key: str, raw: dict[str, Any], input_file_id: str) -> None:
        body = json.dumps(raw, ensure_ascii=False, separators=(",", ":")).encode()
        blob = self.state.blobs.stage_bytes(body)
        try:
            with self.state.engine.begin() as conn:
                conn.execute(delete(parse_cache).where(parse_cache.c.key == key))
                row = store_file(
                    self.state,
                    conn,
                    blob=blob,
                    filename="parsed.json",
                    content_type="application/json",
                    purpose="parsed",
                    metadata={},
                    derived_from=input_file_id,
                )
                conn.execute(
                    insert(parse_cache).values(
                        key=key, file_id=row.id, created_at=isoformat(self.state.clock.now())
                    )
                )
        except (IntegrityError, ParentGone):
            # Another process cached it first (theirs is as good), or the input was deleted
            # while we parsed (nothing may derive from it now): keep none of ours.
            discard(self.state, blob)
        except BaseException:
            discard(self.state, blob)
            raise
