"""Parse once per document content: a cache of parsed documents in the blob store.

The parsed form is stored as a file (purpose ``parsed``, derived from the input file) and
indexed by the content's sha256 in ``parse_cache``; deleting the input file deletes the
parsed file with it, after which the stale cache row is simply a miss.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from fieldwise.service.engines.parsing import ParsedDocument, ParseLimits
from fieldwise.service.engines.parsing.stored import (
    StoredDocument,
    document_from_json,
    document_to_json,
)
from fieldwise.service.engines.processes import EnginePool
from fieldwise.service.ids import isoformat
from fieldwise.service.resources.files.ops import ParentGone, discard, store_file
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.parse.tables import parse_cache
from fieldwise.service.state import ServiceState

#: Bump when the parser's output for the same bytes changes, so old entries are not reused.
PARSER_REVISION = "2"  # 2: PDFs keep their embedded invoice XML

__all__ = [
    "PARSER_REVISION",
    "ParseCache",
    "document_from_json",
    "document_to_json",
    "parse_limits",
]


def parse_limits(state: ServiceState, max_seconds: float | None = None) -> ParseLimits:
    """The parser's bounds with the service's settings applied over its defaults, and
    ``max_seconds`` as its time budget (None: none)."""
    settings = state.settings
    given: dict[str, Any] = {
        "max_csv_columns": settings.max_csv_columns,
        "max_csv_cells": settings.max_csv_cells,
        "max_page_pixels": settings.max_page_pixels,
        "max_document_pixels": settings.max_document_pixels,
        "max_markup_bytes": settings.max_markup_bytes,
        "max_inflation_ratio": settings.max_inflation_ratio,
        "max_markup_elements": settings.max_markup_elements,
        "max_markup_depth": settings.max_markup_depth,
        "max_words": settings.max_words,
        "max_seconds": max_seconds,
    }
    return ParseLimits(**{name: value for name, value in given.items() if value is not None})


class ParseCache:
    """Parsed documents by content hash; one parse at a time per content in this process.
    A parse that takes longer than ``max_seconds`` (None: no budget) stops and raises
    TimeBudgetExceeded; nothing is cached then."""

    def __init__(
        self,
        state: ServiceState,
        pool: EnginePool | None = None,
        *,
        max_seconds: float | None = None,
    ) -> None:
        self.state = state
        self.pool = pool  # parse on its worker processes, when given
        self.max_seconds = max_seconds
        self._guard = threading.Lock()
        self._locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)

    def _lock(self, key: str) -> threading.Lock:
        with self._guard:
            return self._locks[key]

    def get(self, input_file: Any) -> ParsedDocument:
        """The parsed ``input_file`` row's content; raises ParseError subclasses."""
        return self.get_stored(input_file).doc

    def get_stored(self, input_file: Any) -> StoredDocument:
        """The parsed ``input_file`` row's content in its stored form (decoded only when its
        ``doc`` is asked for: the engine processes take the bytes); raises ParseError
        subclasses."""
        key = f"{input_file.sha256}:{PARSER_REVISION}"
        with self._lock(key):
            cached = self._lookup(key)
            if cached is not None:
                return cached
            data = self.state.blobs.read(input_file.sha256)
            limits = parse_limits(self.state, self.max_seconds)
            named = {"filename": input_file.filename, "content_type": input_file.content_type}
            if self.pool is not None:
                # Encoded where it was parsed, and kept there for this key's extractions.
                stored = StoredDocument(key, self.pool.parse(data, key=key, limits=limits, **named))
            else:
                doc = self.state.engines.parse(data, limits=limits, **named)
                stored = StoredDocument.of(key, doc)
            self._store(key, stored.data, input_file.id)
            # The stored form reads back as the parsed document (full-precision floats, same
            # nesting: tests/service/resources/parse/test_cache_form.py), so a hit and a miss
            # extract alike.
            return stored

    def _lookup(self, key: str) -> StoredDocument | None:
        with self.state.engine.connect() as conn:
            row = conn.execute(
                select(files.c.sha256)
                .select_from(parse_cache.join(files, files.c.id == parse_cache.c.file_id))
                .where(parse_cache.c.key == key)
            ).first()
        if row is None:
            return None
        try:
            return StoredDocument(key, self.state.blobs.read(row.sha256))
        except FileNotFoundError:  # deleted, or cut short by a crash (BlobCorrupt): a miss
            return None

    def _store(self, key: str, body: bytes, input_file_id: str) -> None:
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
