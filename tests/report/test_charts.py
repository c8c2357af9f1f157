"""The report's charts and version names, on the sample comparison and on hand-made inputs."""

from __future__ import annotations

import re

from bs4 import BeautifulSoup

from fieldwise.report import CurvePoint, make_environment, render_html
from fieldwise.report._chart import Series
from fieldwise.report._forest import forest_plot
from fieldwise.report._names import display_name, version_names
from fieldwise.report._svg import reliability_bins
from tests.report._sample import sample_report

BASE = Series("published", "ver_A", "#7b8aa0", "5 3")
CAND = Series("latest-draft", "ver_B", "#3558d6", "")


def test_display_name_prefers_the_label_and_a_config_files_name() -> None:
    assert display_name("published", "ver_X") == "published"
    assert display_name("processor/v2.json", "ver_X") == "v2.json"
    assert display_name("", "ver_X") == "ver_X"
    assert version_names(sample_report()) == {"v1": "published v1", "v2": "draft v2"}


def test_forest_plot_has_one_mark_per_field_regressions_first() -> None:
    tests = sample_report().comparisons[0].tests
    svg = BeautifulSoup(str(forest_plot(tests, CAND, BASE)), "html.parser")
    marks = svg.select("circle.mark")
    assert sorted(m["data-field"] for m in marks) == sorted(t.field for t in tests)
    deltas = {t.field: t.delta for t in tests}
    ordered = [deltas[m["data-field"]] for m in marks]
    assert ordered == sorted(ordered)
    # an MDE band per field that has one, a title naming both versions
    assert len(svg.select("rect.mde")) == sum(t.mde is not None for t in tests)
    assert "latest-draft − published" in svg.figcaption.get_text()


def test_reliability_bins_are_differences_of_the_cumulative_sweep() -> None:
    # 10 predictions at confidence 0.35 (4 right), 20 at 0.95 (19 right)
    points = []
    for i in range(21):
        t = i / 20
        n = (10 if t <= 0.35 else 0) + (20 if t <= 0.95 else 0)
        right = (4 if t <= 0.35 else 0) + (19 if t <= 0.95 else 0)
        points.append(CurvePoint("v", t, n, n / 30, right / n if n else 0.0))
    bins = reliability_bins(points)
    assert [(b.low, b.predictions) for b in bins] == [(0.3, 10), (0.9, 20)]
    assert [round(b.accuracy, 4) for b in bins] == [0.4, 0.95]


def test_every_chart_is_titled_and_its_legend_matches_its_lines() -> None:
    html = render_html(sample_report(), make_environment())
    soup = BeautifulSoup(html, "html.parser")
    titles = [f.figcaption.strong.get_text() for f in soup.select("figure.chart")]
    assert titles == [
        "Δ field accuracy per field: draft v2 − published v1",
        "Flips per field: draft v2 against published v1",
        "Reliability diagram",
        "Accuracy vs automation",
    ]
    for chart_id in ("reliability", "coverage"):
        figure = soup.select_one(f"#{chart_id}")
        assert figure is not None
        drawn = {
            (line["stroke"], line.get("stroke-dasharray", ""))
            for line in figure.select("svg polyline")
        }
        keyed = {
            (line["stroke"], line.get("stroke-dasharray", ""))
            for line in figure.select(".legend svg.swatch line")
            if line.get("stroke", "").startswith("#") and line["stroke"] != "#9aa6b8"
        }
        assert drawn == keyed
        assert len(drawn) == 2
    # each version's recommended threshold is marked on the automation curve
    assert len(soup.select("#coverage circle.threshold")) == 2
    assert "CONFIDENCE_THRESHOLD" not in html.upper().replace("CONFIDENCE THRESHOLD", "")
    assert not re.search(r"see row_counts", html)
