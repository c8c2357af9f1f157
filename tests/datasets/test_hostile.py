"""Hostile dataset folders, through the real CLI: each is refused with a one-line problem
naming the file and the bound (exit 2) instead of hanging, exhausting memory, crashing with
a traceback, or sending a file from outside the folder."""

from __future__ import annotations

from pathlib import Path

from tests.cli_main import run_main

TOML = "[fields.total]\ntype = 'currency'\n"


def _folder(root: Path, toml: str = TOML) -> Path:
    (root / "documents").mkdir(parents=True)
    (root / "documents" / "a.pdf").write_bytes(b"%PDF-1.4 a")
    (root / "dataset.toml").write_text(toml, encoding="utf-8")
    return root


def test_a_csv_header_of_twenty_thousand_columns_is_refused(tmp_path: Path) -> None:
    root = _folder(tmp_path / "wide")
    columns = ["file", *(f"c{i}" for i in range(20_000))]
    (root / "ground_truth.csv").write_text(
        ",".join(columns) + "\n" + "documents/a.pdf" + ",1" * 20_000 + "\n", encoding="utf-8"
    )
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines()[1:] == [
        "  ground_truth.csv:1: the header has 20,001 columns, more than the 10,000 a "
        "ground-truth table may have"
    ]


def test_nested_column_clashes_are_reported_once_per_column(tmp_path: Path) -> None:
    # a parent column and thousands nested under it: one problem, not one per pair
    root = _folder(tmp_path / "clash")
    columns = ["file", "seller", *(f"seller.c{i}" for i in range(5_000))]
    (root / "ground_truth.csv").write_text(",".join(columns) + "\n", encoding="utf-8")
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines()[1:] == [
        "  ground_truth.csv:1: column 'seller' clashes with nested column 'seller.c0'"
    ]
