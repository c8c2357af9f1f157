"""Golden files for the Markdown summary and the JUnit XML (see _sample.py for the data)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fieldwise.report import make_environment, render_junit, render_markdown
from tests.report import _snapshots
from tests.report._sample import sample_report
from tests.report._snapshots import assert_snapshot


def test_markdown_summary() -> None:
    assert_snapshot("summary.md", render_markdown(sample_report(), make_environment()))


def test_markdown_summary_without_gate() -> None:
    data = sample_report(with_verdict=False)
    assert_snapshot("summary-no-gate.md", render_markdown(data, make_environment()))


def test_junit_xml() -> None:
    # a fixed wall time: the default (this process's age) changes on every run
    assert_snapshot("junit.xml", render_junit(sample_report(), wall_seconds=5.0))


def test_missing_snapshot_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(_snapshots, "SNAPSHOTS", tmp_path)
    monkeypatch.setattr(_snapshots, "UPDATE", False)
    with pytest.raises(pytest.fail.Exception, match="missing"):
        assert_snapshot("nope.md", "x")
    (tmp_path / "nope.md").write_text("y")
    with pytest.raises(pytest.fail.Exception, match="differs"):
        assert_snapshot("nope.md", "x")
