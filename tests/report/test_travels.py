"""A report that names things right and travels: p-values as promised, names not ids, links
relative to the report, and every unit's values in items.parquet."""

from __future__ import annotations

import dataclasses
import shutil
import urllib.parse
from pathlib import Path

import pandas as pd
from bs4 import BeautifulSoup

from fieldwise.compare import build_frame, compare
from fieldwise.report import (
    ReportContext,
    ReportData,
    build_report,
    make_environment,
    render_html,
    render_markdown,
    write_report,
)
from tests.report._sample import (
    CONTEXT,
    DOCS,
    SPECS,
    _output,
    _truth,
    sample_report,
    tiny_p_rule,
)

BASE_ID, CAND_ID = "ver_8f14e45fceea167a", "ver_c9f0f895fb98ab91"


def _with_tiny_p(data: ReportData) -> ReportData:
    assert data.verdict is not None
    verdict = dataclasses.replace(data.verdict, rules=(*data.verdict.rules, tiny_p_rule()))
    return dataclasses.replace(data, verdict=verdict, verdicts=(verdict,))


def test_rules_table_prints_p_values_with_three_decimals_or_below() -> None:
    html = render_html(_with_tiny_p(sample_report()), make_environment())
    soup = BeautifulSoup(html, "html.parser")
    # the tiny p is the last rule (the sample's own rule on total has p = 1.000)
    rows = [tr for tr in soup.select("#verdict tr") if "significant_regression[total]" in tr.text]
    row = rows[-1]
    cells = [td.get_text() for td in row.find_all("td")]
    assert cells[2:4] == ["<0.001", "0.050"]
    rules = soup.select_one("#verdict details")
    assert rules is not None
    assert "e-0" not in rules.get_text()


def test_overall_row_says_its_tag_is_the_gates_verdict() -> None:
    # a bare "fail" beside "+42.7 pp" reads as if the figure failed
    soup = BeautifulSoup(render_html(sample_report(), make_environment()), "html.parser")
    overall = soup.select_one("#accuracy tbody tr")
    assert overall is not None
    assert "overall" in overall.get_text()
    tags = [t.get_text() for t in overall.select("span.tag")]
    assert "gate: fail" in tags
    assert "fail" not in tags


def _named_report() -> ReportData:
    """The sample's comparison with service ids as version names and the names people typed
    as labels, as the run set's manifest records them."""
    truth = {d: _truth(i) for i, d in enumerate(DOCS)}
    predictions = {
        vid: {d: _output(i, v) for i, d in enumerate(DOCS)}
        for vid, v in ((BASE_ID, "v1"), (CAND_ID, "v2"))
    }
    frame = build_frame(truth, predictions)
    result = compare(frame, SPECS, baseline=BASE_ID, candidate=CAND_ID, seed=7, n_bootstrap=50)
    labels = {BASE_ID: "published", CAND_ID: "latest-draft"}
    context = dataclasses.replace(
        CONTEXT,
        baseline_id=BASE_ID,
        baseline_label="published",
        candidate_id=CAND_ID,
        candidate_label="latest-draft",
        version_labels=labels,
        failed_runs=(),
    )
    assert isinstance(context, ReportContext)
    return build_report(result, context)


def test_summary_heads_columns_and_title_with_names_ids_only_in_the_footer() -> None:
    text = render_markdown(_named_report(), make_environment())
    body, footer = text.rsplit("\n<sub>", 1)
    assert "published → latest-draft" in body
    fields_head = next(line for line in body.splitlines() if line.startswith("| field | support"))
    assert "| published | latest-draft |" in fields_head
    regressions_head = next(
        line for line in body.splitlines() if line.startswith("| field | document")
    )
    assert regressions_head.endswith("| published | latest-draft |")
    assert "ver_" not in body
    assert BASE_ID in footer
    assert CAND_ID in footer


def _documents(root: Path) -> None:
    for name in DOCS:
        path = root / "documents" / f"{name}.pdf"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"%PDF-1.4 not a real page\n")


def test_document_links_are_relative_and_work_when_the_folder_travels(tmp_path: Path) -> None:
    data = sample_report()
    here = tmp_path / "machine-a"
    _documents(here / "dataset")
    write_report(data, here / "reports" / "run", ["html"], documents_root=here / "dataset")
    html = (here / "reports" / "run" / "report.html").read_text(encoding="utf-8")
    assert "file:" not in html
    assert str(tmp_path) not in html
    hrefs = [
        a["href"]
        for a in BeautifulSoup(html, "html.parser").select("#regressions a[href]")
        if "items.parquet" not in a["href"]
    ]
    assert hrefs
    # the whole tree copied elsewhere (a CI artifact with its documents): every link resolves
    there = tmp_path / "machine-b"
    shutil.copytree(here, there)
    shutil.rmtree(here)
    folder = there / "reports" / "run"
    for href in hrefs:
        assert not Path(urllib.parse.unquote(href)).is_absolute()
        assert (folder / urllib.parse.unquote(href)).is_file(), href


def test_items_parquet_keeps_values_of_every_unit(tmp_path: Path) -> None:
    data = sample_report()
    write_report(data, tmp_path, ["html"])
    frame = pd.read_parquet(tmp_path / "items.parquet")
    right = frame[frame["flip"] == "both_right"]
    assert len(right) > 0
    for column in ("expected", "baseline_value", "candidate_value"):
        assert frame[column].notna().all(), column
    # a unit right in both versions: the predicted values are the expected one
    row = right[
        (right["document"] == "documents/inv-08.pdf") & (right["field"] == "invoice_number")
    ]
    assert len(row) == 1
    assert row.iloc[0]["expected"] == row.iloc[0]["baseline_value"] != ""
    assert row.iloc[0]["expected"] == row.iloc[0]["candidate_value"]
    # the HTML's item browser still embeds values of disagreements only
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert html.count("Widget") < len(frame)
