"""ReportData is plain and deterministic; JSON round-trips; HTML is self-contained and ordered."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from fieldwise._errors import ReportError
from fieldwise.gate import Policy, decide
from fieldwise.report import (
    FORMATS,
    ReportData,
    build_report,
    default_report_dir,
    make_environment,
    render_html,
    render_json,
    render_junit,
    render_markdown,
    report_from_json,
    write_report,
)
from tests.gate._build import make, scores
from tests.report._sample import CONTEXT, sample_report, sample_result, sample_verdict

PLAIN = (str, int, float, bool, type(None))


def walk(value: Any, path: str = "data") -> None:
    """Every leaf is a plain Python value (no numpy scalar, no DataFrame) and not NaN."""
    if dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            walk(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, tuple):
        for i, v in enumerate(value):
            walk(v, f"{path}[{i}]")
    else:
        assert type(value) in PLAIN, f"{path} is {type(value).__name__}"
        assert not (isinstance(value, float) and math.isnan(value)), f"{path} is NaN"


def test_report_data_is_frozen_plain_and_deterministic() -> None:
    data = sample_report()
    walk(data)
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.dataset = "x"  # type: ignore[misc]
    # built again from scratch (sample_report() is cached): byte-identical
    fresh = sample_result()
    again = build_report(fresh, CONTEXT, sample_verdict(fresh))
    assert again is not data
    assert render_json(again) == render_json(data)


def test_report_figures_agree_with_the_comparison() -> None:
    result = sample_result()
    data = build_report(result, CONTEXT)
    assert data.accuracy_baseline == result.accuracy_baseline
    assert data.accuracy_candidate == result.accuracy_candidate
    sig = result.significance.set_index("field")
    assert data.total_regressions == int(sig["regressed"].sum()) == 10
    assert data.total_improvements == int(sig["fixed"].sum()) == 9
    for row in data.fields:
        assert row.regressed == sig.loc[row.field, "regressed"]
        assert row.delta_low is not None
        assert row.delta_high is not None
        assert row.delta is not None
        assert row.delta_low <= row.delta + 1e-12 <= row.delta_high + 2e-12
    # worst delta first (no verdict: nothing failed the gate)
    deltas = [r.delta for r in data.fields]
    assert deltas == sorted(deltas)  # type: ignore[type-var]
    assert data.fields[0].status == "regressed"
    assert data.fields[-1].status == "improved"
    assert [s.document for s in data.suspects] == ["documents/inv-07.pdf"]
    assert data.recommended_threshold == result.recommended_threshold
    # item table: 24 documents x 6 fields, all units
    assert len(data.items.code) == data.items.offsets[-1] == 144


def test_json_round_trip(tmp_path: Path) -> None:
    data = sample_report()
    text = render_json(data)
    assert json.loads(text)["verdict"]["passed"] is False
    back = report_from_json(text)
    assert back == data
    assert isinstance(back, ReportData)
    assert back.verdict == data.verdict
    with pytest.raises(ReportError, match="not a fieldwise report"):
        report_from_json('{"dataset": "x"}')


def html_of(data: ReportData) -> str:
    return render_html(data, make_environment())


def test_html_is_self_contained() -> None:
    html = html_of(sample_report())
    soup = BeautifulSoup(html, "html.parser")
    assert soup.find_all(["link", "img", "iframe", "object", "embed"]) == []
    for tag in soup.find_all(True):
        for attr in ("src", "href", "action", "xlink:href"):
            assert not tag.get(attr), f"<{tag.name} {attr}=...> loads something"
    assert not re.search(r"https?://", html)
    assert not re.search(r"url\(|@import", html)
    assert len(soup.find_all("style")) == 1
    charts = [s for s in soup.find_all("svg") if "swatch" not in (s.get("class") or [])]
    # forest plot, flips, reliability diagram, accuracy vs automation
    assert len(charts) == 4
    scripts = soup.find_all("script")
    assert [s.get("type") for s in scripts] == ["application/json", None]
    # the item data is embedded exactly once
    assert html.count('id="fw-items"') == 1


def test_html_sections_in_order() -> None:
    html = html_of(sample_report())
    ids = [
        "verdict",
        "summary",
        "warnings",
        "fields",
        "regressions",
        "improvements",
        "confidence",
        "suspects",
        "failed-runs",
        "items",
        "about",
    ]
    positions = [html.index(f'id="{i}"') for i in ids]
    assert positions == sorted(positions)
    assert "Do not publish" in html
    for shown in ("sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f0", "es_123", "proc_inv", "draft v2"):
        assert shown in html


def test_hostile_values_stay_inert() -> None:
    truth = {"</script><script>alert(1)</script>": {"a": "<b>&amp;"}}
    out = {next(iter(truth)): {"a": "<!-- x"}}
    data = build_report(make(truth, out, {}), dataclasses.replace(CONTEXT, document_names={}))
    html = html_of(data)
    soup = BeautifulSoup(html, "html.parser")
    assert soup.find("b") is None
    script = soup.find("script", id="fw-items")
    assert script is not None
    embedded = json.loads(str(script.string))
    assert embedded["documents"] == ["</script><script>alert(1)</script>"]
    assert embedded["values"] == [[0, "<b>&amp;", "<!-- x", ""]]
    assert "<!-- x" not in html


def test_single_version_report_renders_every_format(tmp_path: Path) -> None:
    truth = {"d1": {"a": "x"}, "d2": {"a": "y"}}
    from fieldwise.compare import build_frame, compare, parse_field_specs

    frame = build_frame(truth, {"v1": {"d1": {"value": {"a": "x"}}}})
    result = compare(frame, parse_field_specs({}), baseline="v1")
    data = build_report(result, CONTEXT)
    assert (data.candidate, data.regressions, data.delta) == (None, (), None)
    paths = write_report(data, tmp_path / "out", list(FORMATS), make_environment())
    assert sorted(paths) == sorted(FORMATS)
    assert report_from_json(paths["json"].read_text()) == data
    assert "(no gate)" in paths["md"].read_text()


def test_write_report_and_default_dir(tmp_path: Path) -> None:
    data = sample_report()
    assert default_report_dir(data) == Path("reports/invoices/20260301T120000Z-v1-vs-v2")
    odd = dataclasses.replace(
        data,
        dataset="my data/set",
        candidate_id="ver 2/draft",
        generated_at="2026-03-01T12:00:00+00:00",
    )
    assert default_report_dir(odd, tmp_path) == (
        tmp_path / "my-data-set" / "20260301T120000Z-v1-vs-ver-2-draft"
    )
    paths = write_report(data, tmp_path / "r", ["md", "junit"])
    assert paths == {"md": tmp_path / "r" / "summary.md", "junit": tmp_path / "r" / "junit.xml"}
    assert not (tmp_path / "r" / "report.html").exists()
    with pytest.raises(ReportError, match="unknown report format 'pdf'"):
        write_report(data, tmp_path / "r", ["pdf"])
    (tmp_path / "file").write_text("")
    with pytest.raises(ReportError, match="cannot write"):
        write_report(data, tmp_path / "file" / "sub", ["md"])


def test_exports_exist() -> None:
    import fieldwise.gate
    import fieldwise.report

    for module in (fieldwise.report, fieldwise.gate):
        assert len(set(module.__all__)) == len(module.__all__)
        for name in module.__all__:
            assert hasattr(module, name)


def test_an_inconclusive_verdict_shows_in_every_format() -> None:
    result = scores(10, 10, 10)
    verdict = decide(result, Policy(margin=0.02))
    assert verdict.status == "inconclusive"
    data = build_report(result, dataclasses.replace(CONTEXT, failed_runs=()), verdict)
    assert data.status == "inconclusive"
    (test,) = data.comparisons[0].tests
    assert test.mde is not None
    assert not test.significant
    html = html_of(data)
    first = html[: html.index('id="summary"')]  # the first screen: verdict and accuracy table
    assert "INCONCLUSIVE" in first
    assert "cannot rule out a regression beyond the margin" in first
    assert f"MDE ±{test.mde * 100:.1f} pp" in first
    assert "Field accuracy per version" in first
    assert "## ⚠️ INCONCLUSIVE" in render_markdown(data, make_environment())
    junit = render_junit(data)
    assert '<error message="a: delta 95% interval' in junit
    assert 'type="inconclusive"' in junit
