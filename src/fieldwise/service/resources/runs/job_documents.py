"""The parsed documents of the last few inputs, kept in memory for the runs that follow.

A run set runs every version on each document, and its runs of one document arrive together.
The first parses it (through the parse cache, which stores it); without this, each of the
others read the stored form back from the database and the blob store and rebuilt every word
of it on the service's one interpreter, the very work the engine processes are there to
spare it. A parsed document is immutable and a pure function of the content (its sha256),
so the one in memory is the one the cache would give. It is kept in its stored form
(:class:`StoredDocument`), which is what the engine processes take, decoded here only when a
run extracts in this process.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from fieldwise.service.engines.parsing.stored import StoredDocument

#: Documents kept: enough for the runs in flight of a run set (a client's concurrency).
KEPT = 32
#: And at most this many stored bytes among them (about 20 kB a page of text), so a run set
#: of 500-page documents cannot hold gigabytes of words: a document past it alone is not kept
#: (its other runs load it again).
KEPT_BYTES = 8 * 1024 * 1024


class RecentDocuments:
    """At most ``kept`` parsed documents by content key, least recently used dropped first;
    one load at a time per key, so the runs waiting for a document being parsed get it."""

    def __init__(self, kept: int = KEPT, kept_bytes: int = KEPT_BYTES) -> None:
        self.kept = kept
        self.kept_bytes = kept_bytes
        self._bytes = 0
        self._docs: OrderedDict[str, StoredDocument] = OrderedDict()
        self._guard = threading.Lock()
        self._loading: dict[str, tuple[threading.Lock, int]] = {}

    def get(self, key: str, load: Callable[[], StoredDocument]) -> StoredDocument:
        """The document of ``key``: kept, or ``load()``ed now (its errors propagate)."""
        found = self._kept(key)
        if found is not None:
            return found
        lock = self._enter(key)
        try:
            with lock:
                found = self._kept(key)
                if found is None:
                    found = load()
                    self._keep(key, found)
                return found
        finally:
            self._leave(key)

    def _kept(self, key: str) -> StoredDocument | None:
        with self._guard:
            doc = self._docs.get(key)
            if doc is not None:
                self._docs.move_to_end(key)
            return doc

    def _keep(self, key: str, doc: StoredDocument) -> None:
        if len(doc.data) > self.kept_bytes:
            return
        with self._guard:
            old = self._docs.pop(key, None)
            self._bytes += len(doc.data) - (len(old.data) if old is not None else 0)
            self._docs[key] = doc
            while len(self._docs) > self.kept or self._bytes > self.kept_bytes:
                _, dropped = self._docs.popitem(last=False)
                self._bytes -= len(dropped.data)

    def _enter(self, key: str) -> threading.Lock:
        # A lock per key while anyone loads or waits for it, dropped after (never a leak).
        with self._guard:
            lock, users = self._loading.get(key, (threading.Lock(), 0))
            self._loading[key] = (lock, users + 1)
            return lock

    def _leave(self, key: str) -> None:
        with self._guard:
            lock, users = self._loading[key]
            if users == 1:
                del self._loading[key]
            else:
                self._loading[key] = (lock, users - 1)

    def clear(self) -> None:
        with self._guard:
            self._docs.clear()
            self._bytes = 0
