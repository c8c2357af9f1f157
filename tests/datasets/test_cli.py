from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from fieldwise._errors import DatasetError, DatasetValidationError
from fieldwise.cli._datasets import datasets
from tests.cli_main import run_main


def test_generate_then_validate(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "inv"
    result = runner.invoke(datasets, ["generate", "invoices", "--count", "3", "--seed", "4",
                                      "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"wrote 3 invoices to {out}" in result.output
    assert (out / "processor" / "v2.json").is_file()

    result = runner.invoke(datasets, ["validate", str(out)])
    assert result.exit_code == 0, result.output
    # three invoices have no PO number: the generator declares only the fields they have
    assert "dataset inv: 3 items, 10 fields" in result.output
    assert "po_number" not in (out / "dataset.toml").read_text(encoding="utf-8")
    assert "critical" in result.output
    assert result.output.rstrip().endswith("ok")


def test_generate_refuses_a_non_empty_folder_without_force(tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("keep")
    runner = CliRunner()
    result = runner.invoke(
        datasets, ["generate", "receipts", "--count", "1", "--out", str(tmp_path)]
    )
    assert isinstance(result.exception, DatasetError)
    assert "--force" in str(result.exception)
    result = runner.invoke(
        datasets, ["generate", "receipts", "--count", "1", "--out", str(tmp_path), "--force"]
    )
    assert result.exit_code == 0, result.output


def test_generate_rejects_unknown_kind_and_bad_count(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(datasets, ["generate", "bills", "--out", str(tmp_path)]).exit_code == 2
    result = runner.invoke(datasets, ["generate", "invoices", "--count", "0", "--out", "x"])
    assert result.exit_code == 2


def test_validate_prints_warnings(tmp_path: Path) -> None:
    (tmp_path / "documents").mkdir()
    (tmp_path / "documents" / "a.pdf").write_bytes(b"%PDF a")
    (tmp_path / "documents" / "b.pdf").write_bytes(b"%PDF b")
    (tmp_path / "dataset.toml").write_text("[fields.total]\ntype = 'currency'\n")
    line = {"file": "documents/a.pdf", "ground_truth": {"total": 1}}
    (tmp_path / "ground_truth.jsonl").write_text(json.dumps(line) + "\n")
    result = CliRunner().invoke(datasets, ["validate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "warning: 1 document(s) have no ground truth: documents/b.pdf" in result.output


def test_validate_raises_every_problem_for_the_error_site(tmp_path: Path) -> None:
    (tmp_path / "dataset.toml").write_text("[fields.total]\ntype = 'currency'\n")
    (tmp_path / "ground_truth.jsonl").write_text(
        '{"file": "documents/a.pdf", "ground_truth": {}}\n{'
    )
    result = CliRunner().invoke(datasets, ["validate", str(tmp_path)])
    error = result.exception
    assert isinstance(error, DatasetValidationError)
    assert error.exit_code == 2
    assert error.problems[0] == "ground_truth.jsonl:1: file not found: documents/a.pdf"
    assert error.problems[1].startswith("ground_truth.jsonl:2: invalid JSON")


def test_every_command_has_help() -> None:
    runner = CliRunner()
    for name in ("generate", "validate", "init"):
        result = runner.invoke(datasets, [name, "--help"])
        assert result.exit_code == 0
        assert result.output.startswith("Usage:")


def test_validate_accepts_amounts_as_people_write_them(tmp_path: Path) -> None:
    (tmp_path / "documents").mkdir()
    for name in ("a", "b"):
        (tmp_path / "documents" / f"{name}.pdf").write_bytes(b"%PDF " + name.encode())
    (tmp_path / "dataset.toml").write_text("[fields.total]\ntype = 'currency'\n")
    lines = [
        {"file": "documents/a.pdf", "ground_truth": {"total": "RM 29.70"}},
        {"file": "documents/b.pdf", "ground_truth": {"total": "1.021,91 €"}},
    ]
    (tmp_path / "ground_truth.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    result = run_main("datasets", "validate", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.rstrip().endswith("ok")

    lines[1]["ground_truth"] = {"total": "twelve"}
    (tmp_path / "ground_truth.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    result = run_main("datasets", "validate", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: 1 problem in dataset:",
        "  ground_truth.jsonl:2: 'total' is declared as currency but 'twelve' cannot be read "
        "as an amount",
    ]


def _folder(root: Path, toml: str, truths: dict[str, dict[str, object]]) -> Path:
    """A dataset at ``root``: ``dataset.toml``, one PDF per key of ``truths`` (distinct bytes
    unless the name says ``copy``) and their ground truth as JSON lines."""
    (root / "documents").mkdir(parents=True)
    (root / "dataset.toml").write_text(toml, encoding="utf-8")
    for name in truths:
        (root / "documents" / name).write_bytes(b"%PDF " + name.replace("copy", "").encode())
    (root / "ground_truth.jsonl").write_text(
        "".join(
            json.dumps({"file": f"documents/{name}", "ground_truth": truth}) + "\n"
            for name, truth in truths.items()
        ),
        encoding="utf-8",
    )
    return root


TYPO_TOML = "[fields.invoice_number]\ntype = 'string'\n\n[fields.grand_totl]\ntype = 'currency'\n"


def test_a_typo_in_a_field_name_is_refused_both_ways(tmp_path: Path) -> None:
    """``[fields.grand_totl]``: ``grand_total`` in the ground truth is undeclared (it would be
    compared as a string) and ``grand_totl`` has no value anywhere (it would measure nothing).
    Every command that loads the dataset exits 2 and names both."""
    truths = {
        "a.pdf": {"invoice_number": "A-1", "grand_total": "10.00"},
        "b.pdf": {"invoice_number": "B-2", "grand_total": "12.50"},
    }
    root = _folder(tmp_path / "ds", TYPO_TOML, truths)
    for command in (("datasets", "validate"), ("sync", "--dry-run")):
        result = run_main(*command, str(root))
        assert result.exit_code == 2, (command, result.stdout, result.stderr)
        assert result.stderr.splitlines() == [
            "error: 2 problems in dataset:",
            "  dataset.toml:4: field 'grand_totl' is declared but no document has a value for "
            "it (a typo? ground truth without it?)",
            "  ground_truth.jsonl:1: field 'grand_total' is not declared in dataset.toml "
            "(2 items); declare it under [fields] or leave it out of the ground truth",
        ]


def test_dates_that_cannot_be_dates_are_refused_with_file_line_value_and_type(
    tmp_path: Path,
) -> None:
    toml = "[dataset]\ndate_order = 'DMY'\n\n[fields.issue_date]\ntype = 'date'\n"
    truths = {
        "a.pdf": {"issue_date": "04/07/2023"},
        "b.pdf": {"issue_date": "31/02/2023"},
        "c.pdf": {"issue_date": "next tuesday"},
        "d.pdf": {"issue_date": "4 July 2023"},
    }
    root = _folder(tmp_path / "ds", toml, truths)
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stdout
    assert result.stderr.splitlines() == [
        "error: 2 problems in dataset:",
        "  ground_truth.jsonl:2: 'issue_date' is declared as date but '31/02/2023' is not a "
        "date (date_order DMY)",
        "  ground_truth.jsonl:3: 'issue_date' is declared as date but 'next tuesday' is not a "
        "date (date_order DMY)",
    ]


def test_byte_identical_documents_are_refused_unless_allowed(tmp_path: Path) -> None:
    toml = "[fields.total]\ntype = 'currency'\n"
    truths = {"a.pdf": {"total": "1.00"}, "acopy.pdf": {"total": "1.00"}, "b.pdf": {"total": 2}}
    root = _folder(tmp_path / "ds", toml, truths)
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stdout
    assert result.stderr.splitlines() == [
        "error: 1 problem in dataset:",
        "  ground_truth.jsonl:2: documents/acopy.pdf is byte-identical to documents/a.pdf; "
        "remove one, or set [dataset] allow_duplicates = true to count both",
    ]
    (root / "dataset.toml").write_text("[dataset]\nallow_duplicates = true\n\n" + toml)
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 0, result.stderr
    assert "dataset ds: 3 items" in result.stdout
