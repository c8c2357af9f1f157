"""The parsed documents a run handler keeps for the other runs of the same document."""

from __future__ import annotations

import threading

import pytest

from fieldwise.service.engines.parsing import ParseError, parse_document
from fieldwise.service.engines.parsing.stored import StoredDocument
from fieldwise.service.resources.runs.job_documents import RecentDocuments
from tests.service.resources.runs.conftest import wait_for


def _doc(text: str) -> StoredDocument:
    return StoredDocument.of(text, parse_document(text.encode(), filename="d.txt"))


def test_a_document_is_loaded_once_then_kept() -> None:
    recent = RecentDocuments(kept=2)
    loads: list[str] = []

    def load(key: str) -> StoredDocument:
        loads.append(key)
        return _doc(f"Total: {key}\n")

    first = recent.get("a", lambda: load("a"))
    assert recent.get("a", lambda: load("a")) is first
    assert loads == ["a"]
    recent.get("b", lambda: load("b"))
    recent.get("a", lambda: load("a"))  # a is now the most recently used
    recent.get("c", lambda: load("c"))  # drops b, the least recently used
    recent.get("a", lambda: load("a"))
    recent.get("b", lambda: load("b"))
    assert loads == ["a", "b", "c", "b"]


def test_a_failed_load_is_not_kept() -> None:
    recent = RecentDocuments()

    def fail() -> StoredDocument:
        raise ParseError("unreadable")

    with pytest.raises(ParseError):
        recent.get("a", fail)
    assert recent.get("a", lambda: _doc("Total: 1\n")).doc.markdown
    assert not recent._loading  # no lock is left behind, after a failure either


def test_runs_waiting_for_a_document_being_loaded_get_that_one() -> None:
    recent = RecentDocuments()
    release = threading.Event()
    loads: list[int] = []
    got: list[StoredDocument] = []

    def load() -> StoredDocument:
        loads.append(1)
        release.wait(60)
        return _doc("Total: 1\n")

    threads = [threading.Thread(target=lambda: got.append(recent.get("a", load))) for _ in range(6)]
    for thread in threads:
        thread.start()
    # Every thread is in: one loading, the others waiting for it.
    wait_for(lambda: recent._loading.get("a", (None, 0))[1] == 6)
    release.set()
    for thread in threads:
        thread.join(timeout=60)
    assert len(loads) == 1
    assert len(got) == 6
    assert all(doc is got[0] for doc in got)
    assert not recent._loading


def test_bytes_kept_are_bounded_too() -> None:
    recent = RecentDocuments(kept=10, kept_bytes=50)
    loads: list[str] = []

    def load(key: str, size: int) -> StoredDocument:
        loads.append(key)
        return StoredDocument(key, b"x" * size)

    recent.get("a", lambda: load("a", 20))
    recent.get("b", lambda: load("b", 20))
    recent.get("c", lambda: load("c", 20))  # 60 bytes: drops a, the least recently used
    recent.get("b", lambda: load("b", 20))
    recent.get("a", lambda: load("a", 20))  # back, dropping c
    assert loads == ["a", "b", "c", "a"]
    assert recent._bytes == 40
    recent.get("big", lambda: load("big", 60))  # past the bound alone: never kept
    recent.get("big", lambda: load("big", 60))
    assert loads[-2:] == ["big", "big"]
    assert set(recent._docs) == {"a", "b"}
    assert recent._bytes == 40
