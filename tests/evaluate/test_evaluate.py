"""The main job through the CLI, on a freshly generated dataset and the embedded service:
evaluate → verdict and report; compare/gate/report/publish on the same run set agree."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from fieldwise.cli import main
from fieldwise.datasets.generate import generate_dataset

REPO = Path(__file__).resolve().parents[2]


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    out = capsys.readouterr()
    return int(exited.value.code or 0), out.out, out.err


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight text-layer invoices with the repository's baseline and candidate configs."""
    root = tmp_path_factory.mktemp("ds") / "invoices"
    generate_dataset("invoices", count=8, seed=11, out_dir=root, scanned_share=0.0)
    shutil.copytree(
        REPO / "datasets" / "invoices" / "processor", root / "processor", dirs_exist_ok=True
    )
    return root


def _accuracies(text: str) -> dict[str, str]:
    # "published (ver_…): field accuracy 93.1% …", or the bare id
    line = r"^(?:[\w-]+ \()?(ver_\w+)\)?: field accuracy ([\d.]+%)"
    return dict(re.findall(line, text, flags=re.MULTILINE))


def test_evaluate_then_compare_gate_report_agree(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _main(capsys, "evaluate", str(dataset), "--quiet")
    assert code in (0, 1, 3), err  # a verdict (8 documents: under min_documents), not an error
    assert "verdict: " in out
    runset_id = re.search(r"run set (rs_\w+)", out).group(1)  # type: ignore[union-attr]
    report = Path(re.search(r"report: (\S+)", out).group(1))  # type: ignore[union-attr]
    assert report.is_file()
    html = report.read_text(encoding="utf-8")
    assert "<html" in html
    for name in ("summary.md", "junit.xml", "report.json"):
        assert (report.parent / name).is_file()
    saved = json.loads((report.parent / "report.json").read_text())

    code_cmp, out_cmp, _ = _main(capsys, "compare", runset_id)
    assert code_cmp == 0
    figures = _accuracies(out_cmp)
    assert len(figures) == 2
    base, cand = saved["baseline_id"], saved["candidate_id"]
    headline = r"field accuracy \(correct / expected\): baseline ([\d.]+%) \[[^]]*\] → "
    line = re.search(headline + r"candidate ([\d.]+%)", out)
    assert line is not None
    assert (figures[base], figures[cand]) == (line.group(1), line.group(2))

    code_gate, out_gate, _ = _main(capsys, "gate", runset_id)
    assert code_gate == code
    assert ("PASS" in out_gate) == (code == 0)

    code_rep, _out, _ = _main(
        capsys, "report", runset_id, "--format", "md", "-o", str(tmp_path / "rep")
    )
    assert code_rep == 0
    assert (tmp_path / "rep" / "summary.md").is_file()


def test_second_evaluate_is_served_from_cache(
    dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _main(capsys, "evaluate", str(dataset), "--quiet", "--format", "json")
    code, out, _ = _main(capsys, "evaluate", str(dataset), "--quiet", "--format", "json")
    assert "(16 cached, 0 failed)" in out
    assert code in (0, 1, 3)


def test_gate_exit_codes_follow_the_policy(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _main(capsys, "evaluate", str(dataset), "--quiet", "--format", "json")
    runset_id = re.search(r"run set (rs_\w+)", out).group(1)  # type: ignore[union-attr]
    strict = tmp_path / "strict.toml"
    strict.write_text("[gate]\nmin_accuracy = 0.999999\n")
    broken = tmp_path / "broken.toml"
    broken.write_text("[gate]\nmin_acuracy = 0.5\n")
    assert _main(capsys, "gate", runset_id, "--policy", str(strict))[0] == 1
    code, _, err = _main(capsys, "gate", runset_id, "--policy", str(broken))
    assert code == 2
    assert "min_acuracy" in err
    assert _main(capsys, "gate", "rs_missing")[0] == 2


def test_publish_needs_a_passing_verdict(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = _main(capsys, "evaluate", str(dataset), "--quiet", "--format", "json")
    runset_id = re.search(r"run set (rs_\w+)", out).group(1)  # type: ignore[union-attr]
    report = json.loads(next(Path("reports").rglob("report.json")).read_text())
    candidate = report["candidate_id"]
    strict = tmp_path / "strict.toml"
    strict.write_text("[gate]\nmin_accuracy = 0.999999\n")
    assert _main(capsys, "gate", runset_id, "--policy", str(strict))[0] == 1
    code, _, err = _main(
        capsys,
        "publish",
        "--processor",
        "invoice-extractor",
        "--version",
        candidate,
        "--runset",
        runset_id,
    )
    assert code == 1  # refused: a decision, not an error
    assert "gate failed" in err
    code, out, err = _main(
        capsys,
        "publish",
        "--processor",
        "invoice-extractor",
        "--version",
        candidate,
        "--runset",
        runset_id,
        "--force",
    )
    assert code == 0, err
    assert "FORCED" in err
    _, out, _ = _main(capsys, "processors", "show", "invoice-extractor", "--json")
    assert json.loads(out)["default_version_id"] == candidate


def test_compare_needs_no_service(dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _main(capsys, "evaluate", str(dataset), "--quiet", "--format", "json")
    runset_id = re.search(r"run set (rs_\w+)", out).group(1)  # type: ignore[union-attr]
    offline = ("--base-url", "http://127.0.0.1:9", "--api-key", "unused")
    code, out, err = _main(capsys, *offline, "compare", runset_id)
    assert code == 0, err
    assert "invoice_number" in out
    # Field types come from the spec recorded at sync time (else every field is "string").
    assert re.search(r"^total\s+currency", out, flags=re.MULTILINE)


def test_publish_needs_a_single_candidate(
    dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _main(
        capsys, "evaluate", str(dataset), "--quiet", "--publish",
        "--candidate", "latest-draft", "--candidate", "published",
    )  # fmt: skip
    assert code == 2
    assert "--publish needs a single candidate" in err


def test_output_the_dataset_does_not_declare_is_not_evaluated_and_never_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both versions output ``po_number``; the dataset neither declares nor expects it. The
    gate has no rule about it (it said "no document has an expected value … not measured is
    not a pass"), and the output says it was not evaluated."""
    root = tmp_path / "invoices"
    generate_dataset("invoices", count=8, seed=11, out_dir=root, scanned_share=0.0)
    shutil.copytree(
        REPO / "datasets" / "invoices" / "processor", root / "processor", dirs_exist_ok=True
    )
    toml = (root / "dataset.toml").read_text(encoding="utf-8")
    (root / "dataset.toml").write_text(
        toml.replace('[fields.po_number]\ntype = "string"\n\n', ""), encoding="utf-8"
    )
    lines = []
    for line in (root / "ground_truth.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        record["ground_truth"].pop("po_number", None)
        lines.append(json.dumps(record) + "\n")
    (root / "ground_truth.jsonl").write_text("".join(lines), encoding="utf-8")

    code, out, err = _main(capsys, "evaluate", str(root), "--quiet")
    assert code in (0, 1, 3), err
    assert "po_number" not in "".join(line for line in out.splitlines() if line.startswith("  - "))
    assert "  not evaluated (output, but not declared in the dataset): po_number" in out
    report = Path(re.search(r"report: (\S+)", out).group(1))  # type: ignore[union-attr]
    shown = "Not evaluated (output, but not declared in the dataset): po_number"
    assert shown in report.read_text(encoding="utf-8")
    assert shown in (report.parent / "summary.md").read_text(encoding="utf-8")
    runset_id = re.search(r"run set (rs_\w+)", out).group(1)  # type: ignore[union-attr]
    code_gate, out_gate, _ = _main(capsys, "gate", runset_id, "--json")
    assert code_gate == code
    (verdict,) = json.loads(out_gate)["verdicts"]
    assert verdict["not_evaluated"] == ["po_number"]
    assert not [r for r in verdict["rules"] if r["field"] == "po_number"]
