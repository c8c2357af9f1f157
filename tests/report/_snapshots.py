"""Golden files under tests/snapshots/: a missing or different snapshot FAILS the test.

Regenerate deliberately with ``FIELDWISE_UPDATE_SNAPSHOTS=1 pytest tests/report`` and review
the diff. The variable is read at import, before the suite's fixtures clear FIELDWISE_*.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

SNAPSHOTS = Path(__file__).resolve().parent.parent / "snapshots"
UPDATE = os.environ.get("FIELDWISE_UPDATE_SNAPSHOTS") == "1"


def assert_snapshot(name: str, text: str) -> None:
    """Compare ``text`` with ``tests/snapshots/<name>`` (or rewrite it when updating)."""
    path = SNAPSHOTS / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(
            f"snapshot {path} is missing; run with FIELDWISE_UPDATE_SNAPSHOTS=1 to create it"
        )
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                text.splitlines(keepends=True),
                fromfile=f"snapshots/{name}",
                tofile="rendered",
            )
        )
        pytest.fail(f"{name} differs from its snapshot:\n{diff}")
