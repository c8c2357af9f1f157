"""The HTML stays bounded: past a size, the top disagreements per field; every unit in Parquet."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pandas as pd
from bs4 import BeautifulSoup

from fieldwise.report import ItemTable, make_environment, render_html, write_report
from fieldwise.report._subset import FLIPS, bounded, flips, items_frame
from tests.report._sample import sample_report


def _units(table: ItemTable) -> dict[tuple[str, str], tuple[int, tuple[str, str, str] | None]]:
    """(document, field) -> (code, values) of every unit."""
    values = {v[0]: v[1:] for v in table.values}
    out = {}
    for d, name in enumerate(table.documents):
        for r in range(table.offsets[d], table.offsets[d + 1]):
            out[(name, table.fields[table.field[r]])] = (table.code[r], values.get(r))
    return out


def test_small_tables_are_kept_whole() -> None:
    table = sample_report().items
    assert bounded(table) is table


def test_large_tables_keep_the_top_disagreements_of_each_field() -> None:
    table = sample_report().items
    kept = bounded(table, limit=10, k=2)
    whole, some = _units(table), _units(kept)
    # every kept unit is the same unit, values and all, as in the whole table
    assert all(whole[key] == unit for key, unit in some.items())
    per_field = Counter(field for _doc, field in some)
    assert max(per_field.values()) <= 2
    kept_flips = [FLIPS[f] for f in flips(kept)]
    assert "both_right" not in kept_flips
    # regressions come first: a field with two regressions keeps only regressions
    regressed = Counter(
        table.fields[table.field[r]] for r, f in enumerate(flips(table)) if FLIPS[f] == "regressed"
    )
    for field, n in regressed.items():
        if n >= 2:
            rows = [r for r in range(len(kept.code)) if kept.fields[kept.field[r]] == field]
            assert {FLIPS[flips(kept)[r]] for r in rows} == {"regressed"}


def test_parquet_beside_the_html_holds_every_unit(tmp_path: Path) -> None:
    data = sample_report()
    write_report(data, tmp_path, ["html"], make_environment())
    frame = pd.read_parquet(tmp_path / "items.parquet")
    assert len(frame) == len(data.items.code) == 144
    assert frame.equals(items_frame(data.items, data.baseline, data.candidate).astype(frame.dtypes))
    assert Counter(frame["flip"])["regressed"] == data.total_regressions
    row = frame[
        (frame["document"] == "documents/inv-05.pdf") & (frame["field"] == "invoice_number")
    ]
    assert row[["expected", "baseline_value", "candidate_value"]].values.tolist() == [
        ["INV-1005", "INV-1005", "INV-1OO5"]
    ]


def test_the_report_says_where_the_rest_is() -> None:
    html = render_html(sample_report(), make_environment())
    note = BeautifulSoup(html, "html.parser").select_one("#items-note")
    assert note is not None
    assert "items.parquet" in note.get_text()
