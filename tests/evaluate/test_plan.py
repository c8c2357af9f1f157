"""``fieldwise plan``: the MDE per field with today's documents and the documents a margin
needs, from the dataset alone and from a run set's observed discordance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fieldwise.cli import main
from fieldwise.compare.stats._power import connor_sample_size, minimum_detectable_effect
from tests.evaluate._runsets import write_runset


def _dataset(root: Path, n: int) -> Path:
    (root / "documents").mkdir(parents=True)
    (root / "dataset.toml").write_text(
        '[dataset]\nname = "tiny"\n\n[fields.invoice_number]\ntype = "string"\n\n'
        '[fields.total]\ntype = "currency"\n\n[gate]\nalpha = 0.1\n'
    )
    lines = []
    for i in range(n):
        name = f"documents/inv-{i:02d}.pdf"
        (root / name).write_bytes(b"%PDF-1.4 " + name.encode())
        truth = {"invoice_number": f"N{i}", **({"total": 100.0 + i} if i % 2 else {})}
        lines.append(json.dumps({"file": name, "ground_truth": truth}))
    (root / "ground_truth.jsonl").write_text("\n".join(lines) + "\n")
    return root


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    out = capsys.readouterr()
    return int(exited.value.code or 0), out.out, out.err


def test_plan_from_the_dataset_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _dataset(tmp_path / "tiny", 40)
    code, out, err = _main(capsys, "plan", str(root), "--margin", "0.05", "--json")
    assert code == 0, err
    plan = json.loads(out)
    assert plan["alpha"] == 0.1  # the dataset's gate
    rows = {r["field"]: r for r in plan["rows"]}
    assert rows["invoice_number"]["documents"] == 40
    assert rows["total"]["documents"] == 20  # only odd documents have a total
    assert rows["total"]["mde"] == pytest.approx(
        minimum_detectable_effect(20, 0.1, alpha=0.1), rel=1e-9
    )
    assert rows["total"]["needed"] == connor_sample_size(0.05, 0.1, alpha=0.1)
    assert not rows["total"]["observed"]
    code, out, _ = _main(capsys, "plan", str(root))
    assert "(assumed)" in out
    assert "invoice_number" in out


def test_plan_with_a_runset_uses_its_discordance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _dataset(tmp_path / "tiny", 40)
    truth = {f"inv-{i:02d}": {"invoice_number": f"N{i}"} for i in range(40)}
    flipped = {k: ({"invoice_number": "?"} if k < "inv-10" else v) for k, v in truth.items()}
    write_runset(tmp_path / "res", "rs_p", truth, {"v1": truth, "v2": flipped})
    code, out, err = _main(
        capsys,
        "plan",
        str(root),
        "--runset",
        "rs_p",
        "--results-dir",
        str(tmp_path / "res"),
        "--json",
    )
    assert code == 0, err
    rows = {r["field"]: r for r in json.loads(out)["rows"]}
    assert rows["invoice_number"]["observed"]
    assert rows["invoice_number"]["discordance"] == 0.25  # 10 of 40 documents flipped


def test_plan_rejects_a_bad_margin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _dataset(tmp_path / "tiny", 4)
    code, _, err = _main(capsys, "plan", str(root), "--margin", "2")
    assert code == 2
    assert "margin must be between 0 and 1" in err
