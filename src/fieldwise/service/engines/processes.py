"""Parsing and extraction on worker processes, so every core works.

The service's job workers are threads of one interpreter: parsing and the rules engine are
pure Python, so two of them never ran at once. :class:`EnginePool` sends that work to
``workers`` processes (``spawn``ed: children start from a clean interpreter, not a copy of a
threaded one, and are the service's own children; each watches its parent and exits when the
service is gone, even killed without a chance to stop them). The engines are pure functions
of their inputs, so what crosses is plain data: the document's bytes, the parse limits, the
parsed document in its stored form (JSON bytes, :mod:`.parsing.stored`: they pickle at memory
speed where a document object pickles and unpickles word by word) and the config. A child
keeps the last documents it parsed or decoded, by content key, so the other versions' runs of
a document it has seen skip decoding it again.

A child OCRs on ``ocr_threads(workers)`` threads, the cores shared out among the processes:
ONNX Runtime's default, a thread per core in every process, made two processes OCRing at once
take 1.8 times as long on two cores (``benchmarks/ocr.py``).

Memory stays bounded: a child keeps at most ``KEPT`` documents of at most ``KEPT_BYTES``
stored bytes together, and is replaced after ``TASKS_PER_CHILD`` tasks. When a
child dies (killed, out of memory, a crash in a native library) every task in flight fails
with :class:`BrokenProcessPool`; the pool is replaced and each of those tasks is tried once
more in a process of its own, so only a document that kills a child twice fails, as
:class:`WorkerCrashed`, and the others finish.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from fieldwise.service.engines import extraction, parsing
from fieldwise.service.engines.parsing import ParsedDocument, ParseLimits
from fieldwise.service.engines.parsing.stored import (
    StoredDocument,
    decode_document,
    encode_document,
)

if TYPE_CHECKING:
    from fieldwise.service.engines.extraction import ExtractionConfig
    from fieldwise.service.engines.parsing.ocr import OcrEngine

__all__ = [
    "KEPT",
    "KEPT_BYTES",
    "TASKS_PER_CHILD",
    "EnginePool",
    "WorkerCrashed",
    "ocr_threads",
]

TASKS_PER_CHILD = 500
#: What a child imports in its initializer. The engine packages load their modules on first
#: use (so the service's own process pays for them only when it parses or extracts itself).
_ENGINE_MODULES = (
    "fieldwise.service.engines.extraction.engine",
    "fieldwise.service.engines.parsing.api",
)
#: Documents a child keeps decoded (a run set's versions of one document arrive together),
#: and at most this many stored bytes among them (a decoded document takes a few times more).
KEPT = 16
KEPT_BYTES = 16 * 1024 * 1024
T = TypeVar("T")


class _Kept:
    """A child's decoded documents by content key, least recently used dropped first (a
    child runs one task at a time: no lock)."""

    def __init__(self) -> None:
        self._docs: OrderedDict[str, tuple[ParsedDocument, int]] = OrderedDict()
        self._bytes = 0

    def get(self, key: str) -> ParsedDocument | None:
        found = self._docs.get(key)
        if found is None:
            return None
        self._docs.move_to_end(key)
        return found[0]

    def keep(self, key: str, doc: ParsedDocument, size: int) -> None:
        if size > KEPT_BYTES or key in self._docs:
            return
        self._docs[key] = (doc, size)
        self._bytes += size
        while len(self._docs) > KEPT or self._bytes > KEPT_BYTES:
            _, (_, dropped) = self._docs.popitem(last=False)
            self._bytes -= dropped


#: The documents this process keeps, and the OCR engine it uses, when it is an engine process
#: (made by its initializer; None in the service's own process). A task sent to a process
#: pool reaches state of its process only through its module: these are the two such names.
_kept: _Kept | None = None
_ocr: OcrEngine | None = None


def ocr_threads(processes: int) -> int:
    """Threads for each of ``processes`` processes OCRing side by side: the cores shared out,
    at least one each."""
    return max(1, (os.cpu_count() or 1) // max(1, processes))


class WorkerCrashed(Exception):
    """The worker process running the task died, on two pools in a row."""


def _watch_parent(parent: int) -> None:
    """In a child: exit as soon as ``parent``, the process that started it, is gone. Its pid
    is taken in the parent: a child still starting when its parent died (killed while frozen,
    say) was already handed to another parent, and would otherwise watch that one forever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="fieldwise-parent-watch", daemon=True).start()


def _start(parent: int, threads: int) -> None:
    """A child's initializer: watch the parent, keep documents from now on, and OCR on
    ``threads`` threads (its models load on its first scan)."""
    global _kept, _ocr
    # Ctrl-C reaches the whole process group: the parent decides when its children stop (it
    # shuts the pool down, or they follow it out, see _watch_parent). A child that took the
    # SIGINT itself died with a KeyboardInterrupt traceback per process on the user's terminal.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _kept = _Kept()
    _ocr = parsing.OcrEngine(threads)
    # The service's own process imports the engines only when it runs one; a child exists to
    # run them, so it loads them now, before its first task (what warm() waits for).
    for module in _ENGINE_MODULES:
        importlib.import_module(module)
    _watch_parent(parent)


def _ready() -> int:
    """A task that does nothing: the child's initializer loaded the engines."""
    return os.getpid()


def _parse(
    key: str, data: bytes, filename: str | None, content_type: str | None, limits: ParseLimits
) -> bytes:
    """In a child: parse, keep the document for the extractions of ``key``, and answer its
    stored form (which the service stores as is)."""
    doc = parsing.parse_document(
        data, filename=filename, content_type=content_type, limits=limits, ocr_engine=_ocr
    )
    stored = encode_document(doc)
    if _kept is not None:
        _kept.keep(key, doc, len(stored))
    return stored


def _extract(
    key: str,
    stored: bytes,
    config: ExtractionConfig,
    threshold: float | None,
    pattern_seconds: float | None,
) -> dict[str, Any]:
    """In a child: extract from the document of ``key``, decoded from ``stored`` unless kept."""
    doc = _kept.get(key) if _kept is not None else None
    if doc is None:
        doc = decode_document(stored)
        if _kept is not None:
            _kept.keep(key, doc, len(stored))
    return extraction.extract(
        doc, config, confidence_threshold=threshold, pattern_seconds=pattern_seconds
    )


class EnginePool:
    """``workers`` processes running :func:`parse_document` and :func:`extract`; started on
    first use, replaced when one dies, stopped by :meth:`close`."""

    def __init__(self, workers: int) -> None:
        # More processes than cores would only take turns on them.
        self.workers = max(1, min(workers, os.cpu_count() or 1))
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False
        self._warmed = False

    def _current(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the engine pool is closed")
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start,
                    initargs=(os.getpid(), ocr_threads(self.workers)),
                    max_tasks_per_child=TASKS_PER_CHILD,
                )
            return self._executor

    def warm(self) -> None:
        """Start every process now, without waiting for them (once; later calls do nothing):
        the executor spawns a process per task while it has fewer than ``workers``, so left
        alone it starts them one by one as work arrives, each importing the engines first."""
        with self._lock:
            if self._closed or self._warmed:
                return
            self._warmed = True
        executor = self._current()
        for _ in range(self.workers):
            executor.submit(_ready)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is broken:
                self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    def _call(self, fn: Callable[..., T], *args: Any) -> T:
        executor = self._current()
        try:
            return executor.submit(fn, *args).result()
        except BrokenProcessPool:
            self._replace(executor)
        # Every task in flight lost its process, not only the one that killed it: try this
        # one again alone, in a process of its own, so a second death is surely its own.
        alone = ProcessPoolExecutor(
            1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start,
            initargs=(os.getpid(), ocr_threads(self.workers)),
        )
        try:
            return alone.submit(fn, *args).result()
        except BrokenProcessPool as exc:
            raise WorkerCrashed(
                "the worker process handling this document stopped unexpectedly, twice "
                "(killed, out of memory, or a crash in a native library)"
            ) from exc
        finally:
            alone.shutdown(wait=True, cancel_futures=True)

    def parse(
        self,
        data: bytes,
        *,
        key: str,
        filename: str | None,
        content_type: str | None,
        limits: ParseLimits,
    ) -> bytes:
        """:func:`parse_document` in a worker process, answered in the stored form
        (:func:`~.parsing.stored.encode_document`); that process keeps the document for
        ``key``, the content's. Raises its ParseError subclasses."""
        return self._call(_parse, key, data, filename, content_type, limits)

    def extract(
        self,
        stored: StoredDocument,
        config: ExtractionConfig,
        threshold: float | None,
        *,
        pattern_seconds: float | None = None,
    ) -> dict[str, Any]:
        """:func:`extract` (a rules config) in a worker process; its patterns share
        ``pattern_seconds`` there (a PatternTimeout comes back as itself)."""
        return self._call(_extract, stored.key, stored.data, config, threshold, pattern_seconds)

    def close(self) -> None:
        """Stop the processes (tasks in flight finish first)."""
        with self._lock:
            self._closed = True
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
