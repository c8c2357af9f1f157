"""Bad input to ``fieldwise runsets import``: one clear line naming what and where, exit 2,
and no run set (nor a staging folder) left behind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise.datasets import Dataset
from tests.cli_main import MainResult, run_main
from tests.imports import shapes


def _import(invoices: Dataset, results: Path, *versions: str, fmt: str = "auto") -> MainResult:
    args = [f"--version={v}" for v in versions]
    return run_main(
        "runsets",
        "import",
        str(invoices.root),
        *args,
        "--format",
        fmt,
        "--results-dir",
        str(results),
    )


def _refused(result: MainResult, results: Path, *expected: str) -> None:
    assert result.exit_code == 2, result.stdout
    assert "Traceback" not in result.stderr
    for text in expected:
        assert text in result.stderr
    assert not results.exists() or list(results.iterdir()) == []  # nothing half-written


def _jsonl(truth: dict[str, Any], path: Path) -> Path:
    rows = [json.dumps({"file": f, "output": gt}) for f, gt in sorted(truth.items())]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_a_malformed_jsonl_line_is_named_by_file_and_line(
    invoices: Dataset, truth: dict[str, Any], tmp_path: Path
) -> None:
    good = _jsonl(truth, tmp_path / "good.jsonl")
    bad = tmp_path / "bad.jsonl"
    lines = good.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2][:40]  # torn
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    results = tmp_path / "results"
    # a good source beside it: nothing of it is written either
    _refused(_import(invoices, results, f"ok={good}", f"bad={bad}"), results, f"{bad}:3: not JSON")
    wrapped = tmp_path / "wrapped.jsonl"
    wrapped.write_text('{"file": "a.pdf", "output": [1, 2]}\n', encoding="utf-8")
    _refused(_import(invoices, results, f"w={wrapped}"), results, f"{wrapped}:1:", '"output"')


def test_a_csv_row_of_the_wrong_width_is_named_by_line(invoices: Dataset, tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text("file,total\ninvoice-001.pdf,12.5\ninvoice-002.pdf,1,2\n", encoding="utf-8")
    results = tmp_path / "results"
    _refused(_import(invoices, results, f"c={path}"), results, f"{path}:3: 3 cells")
    headless = tmp_path / "q.csv"
    headless.write_text("name,total\na,1\n", encoding="utf-8")
    _refused(_import(invoices, results, f"c={headless}", fmt="csv"), results, "no 'file' column")


def test_a_malformed_vendor_response_in_a_folder(
    invoices: Dataset, truth: dict[str, Any], tmp_path: Path
) -> None:
    folder = shapes.write_azure(
        {f: {"value": gt, "confidence": {}} for f, gt in truth.items()}, tmp_path / "az"
    )
    broken = sorted(folder.iterdir())[1]
    broken.write_text(broken.read_text(encoding="utf-8")[:200], encoding="utf-8")
    results = tmp_path / "results"
    _refused(_import(invoices, results, f"az={folder}"), results, f"{broken}:", "not JSON")


def test_unknown_and_ambiguous_formats(
    invoices: Dataset, truth: dict[str, Any], tmp_path: Path
) -> None:
    results = tmp_path / "results"
    text = tmp_path / "notes.txt"
    text.write_text("these are not predictions\n", encoding="utf-8")
    _refused(_import(invoices, results, f"x={text}"), results, "unknown format")
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    first, second = sorted(truth)[:2]
    azure = shapes.azure_response({"value": truth[first], "confidence": {}})
    google = shapes.google_document({"value": truth[second], "confidence": {}})
    (mixed / f"{shapes.stem(first)}.json").write_text(json.dumps(azure), encoding="utf-8")
    (mixed / f"{shapes.stem(second)}.json").write_text(json.dumps(google), encoding="utf-8")
    _refused(_import(invoices, results, f"m={mixed}"), results, "ambiguous", "azure", "google")
    refused = run_main(
        "runsets", "import", str(invoices.root), "--version", f"x={text}", "--format", "xml"
    )
    assert refused.exit_code == 2
    assert "'xml' is not one of" in refused.stderr


@pytest.mark.parametrize(
    ("versions", "expected"),
    [
        (["azure"], "is not NAME=PATH"),
        (["=p.jsonl"], "is not NAME=PATH"),
        (["a=p.jsonl", "a=p.jsonl"], "version name 'a' is given twice"),
        (["a b=p.jsonl"], "version name 'a b'"),
        (["a=does-not-exist.jsonl"], "does-not-exist.jsonl: no such file or folder"),
    ],
)
def test_bad_version_options(
    versions: list[str], expected: str, invoices: Dataset, truth: dict[str, Any], tmp_path: Path
) -> None:
    _jsonl(truth, tmp_path / "p.jsonl")  # the working directory is tmp_path
    results = tmp_path / "results"
    _refused(_import(invoices, results, *versions), results, expected)


def test_a_document_twice_or_none_of_the_dataset(
    invoices: Dataset, truth: dict[str, Any], tmp_path: Path
) -> None:
    results = tmp_path / "results"
    twice = tmp_path / "twice.jsonl"
    first = sorted(truth)[0]
    twice.write_text(
        json.dumps({"file": first, "output": {}})
        + "\n"
        + json.dumps({"file": shapes.stem(first), "output": {}})
        + "\n",
        encoding="utf-8",
    )
    _refused(
        _import(invoices, results, f"t={twice}"),
        results,
        f"{twice}:2: a second output for {first}",
        f"{twice}:1",
    )
    strangers = tmp_path / "strangers.jsonl"
    strangers.write_text(json.dumps({"file": "other.pdf", "output": {}}) + "\n", encoding="utf-8")
    _refused(_import(invoices, results, f"s={strangers}"), results, "none of its 1 outputs")


def test_not_a_dataset_and_an_unwritable_results_dir(
    invoices: Dataset, truth: dict[str, Any], tmp_path: Path
) -> None:
    source = _jsonl(truth, tmp_path / "p.jsonl")
    lone = run_main("runsets", "import", str(tmp_path / "nowhere"), "--version", f"p={source}")
    assert lone.exit_code == 2
    assert "nowhere" in lone.stderr
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    blocked = _import(invoices, blocker / "results", f"p={source}")
    assert blocked.exit_code == 2
    assert "cannot write a run set under" in blocked.stderr
