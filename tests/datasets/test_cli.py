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
    assert "dataset inv: 3 items, 11 fields" in result.output
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
    (tmp_path / "documents" / "a.pdf").write_bytes(b"%PDF")
    (tmp_path / "dataset.toml").write_text("[fields.total]\ntype = 'currency'\n")
    line = {"file": "documents/a.pdf", "ground_truth": {"total": 1, "iban": "DE1"}}
    (tmp_path / "ground_truth.jsonl").write_text(json.dumps(line) + "\n")
    result = CliRunner().invoke(datasets, ["validate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "warning: ground_truth.jsonl:1: field 'iban' is not declared" in result.output


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
        (tmp_path / "documents" / f"{name}.pdf").write_bytes(b"%PDF")
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
