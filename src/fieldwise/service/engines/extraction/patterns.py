"""User-supplied field patterns, matched under a hard time limit.

A version config's ``pattern`` is written by whoever drafts the version, so it may backtrack
catastrophically (``(a|aa)+$`` on a long line). Python's ``re`` would then hold the GIL for
hours and freeze the whole service. Patterns run in the ``regex`` module instead, with the
same syntax and semantics as ``re`` (its VERSION0), because it takes a ``timeout`` and
releases the GIL while it matches (``concurrent=True``): a slow pattern stalls only its own
run, and past the budget that run fails with :class:`PatternTimeout`.

RE2 (linear time) was the other choice; it cannot compile lookbehinds, which shipped configs
use (``benchmarks/real/zugferd-dev``), and its ``\\d``/``\\s``/``\\b`` are ASCII-only, which
would silently change what existing patterns match.

The budget is per :func:`pattern_budget` block (one document's extraction): every search in
it shares ``seconds``. Outside a block each search gets :data:`DEFAULT_SECONDS` on its own.
"""

from __future__ import annotations

import contextvars
import functools
import time
from collections.abc import Iterator
from contextlib import contextmanager

import regex

from fieldwise._errors import FieldwiseError

__all__ = [
    "DEFAULT_SECONDS",
    "MAX_PATTERN_LENGTH",
    "FieldPattern",
    "PatternTimeout",
    "compile_pattern",
    "compiled",
    "pattern_budget",
]

#: Longer patterns are refused when a version is created (a config is not a place for them).
MAX_PATTERN_LENGTH = 1000
#: Seconds all of one document's pattern searches may take together (the service's
#: ``max_pattern_seconds`` setting overrides it).
DEFAULT_SECONDS = 2.0


class PatternTimeout(FieldwiseError):
    """A field pattern ran past its time budget (it backtracks too much on this document)."""


class _Budget:
    """The seconds a block's searches may take together, and those they took so far: only
    time spent inside searches counts (a deadline on the clock would also charge the rest of
    the extraction, and a busy machine's waits, to the patterns)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.spent = 0.0

    @property
    def left(self) -> float:
        return self.seconds - self.spent


_budget: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar(
    "fieldwise_pattern_budget", default=None
)


@contextmanager
def pattern_budget(seconds: float | None) -> Iterator[None]:
    """Every pattern search inside the block shares ``seconds`` (None: the default)."""
    token = _budget.set(_Budget(DEFAULT_SECONDS if seconds is None else seconds))
    try:
        yield
    finally:
        _budget.reset(token)


class FieldPattern:
    """One compiled field pattern whose searches stop at the time budget."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled = compile_pattern(source)
        self.groups = self._compiled.groups

    def search(self, text: str) -> regex.Match[str] | None:
        """The first match in ``text``; :class:`PatternTimeout` past the budget."""
        budget = _budget.get()
        limit = budget.seconds if budget is not None else DEFAULT_SECONDS
        left = budget.left if budget is not None else limit
        if left <= 0:
            raise self._timeout(limit)
        start = time.monotonic()
        try:
            return self._compiled.search(text, timeout=left, concurrent=True)
        except TimeoutError:
            raise self._timeout(limit) from None
        finally:
            if budget is not None:
                budget.spent += time.monotonic() - start

    def _timeout(self, limit: float) -> PatternTimeout:
        return PatternTimeout(
            f"pattern {self.source!r} took over {limit:g} s on this document "
            "(max_pattern_seconds); it backtracks too much: simplify it "
            "(e.g. no nested quantifiers such as (a+)+ or (a|aa)+)"
        )


def compile_pattern(source: str) -> regex.Pattern[str]:
    """``source`` compiled as the engine runs it; :class:`regex.error` if it is invalid."""
    return regex.compile(source, regex.VERSION0)


@functools.lru_cache(maxsize=256)
def compiled(pattern: str | None) -> FieldPattern | None:
    """Compiled (and cached) field pattern."""
    return FieldPattern(pattern) if pattern is not None else None
