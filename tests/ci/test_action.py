"""The composite GitHub Action (action.yml) is valid and its steps work.

Its shell steps run here for real, in order, with the inputs substituted as GitHub would and
GITHUB_OUTPUT / GITHUB_STEP_SUMMARY pointing at files: the evaluate step against the embedded
service on a small copy of the bundled dataset. Two kinds of step do not run: GitHub's own
actions (`uses:` — setup-python, upload-artifact), whose inputs are checked instead, and the
install step, which would reinstall fieldwise over the test environment (its command is checked
to install the action's own checkout).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
EXPR = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def _load() -> dict[str, Any]:
    data = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _small_dataset(dest: Path, count: int = 6) -> Path:
    """The bundled dataset's configs with its first `count` text-layer documents (no OCR)."""
    src = ROOT / "datasets" / "invoices"
    generator = json.loads((src / "generator.json").read_text(encoding="utf-8"))
    keep = [d["file"] for d in generator["documents"] if not d["scanned"]][:count]
    (dest / "documents").mkdir(parents=True)
    shutil.copy(src / "dataset.toml", dest / "dataset.toml")
    shutil.copytree(src / "processor", dest / "processor")
    for name in keep:
        shutil.copy(src / name, dest / name)
    lines = [
        line
        for line in (src / "ground_truth.jsonl").read_text(encoding="utf-8").splitlines()
        if json.loads(line)["file"] in keep
    ]
    (dest / "ground_truth.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dest


def _substitute(text: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    def value(match: re.Match[str]) -> str:
        expr = match.group(1)
        if expr.startswith("inputs."):
            return inputs[expr.removeprefix("inputs.")]
        step = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        if step:
            return outputs.get(step.group(1), {}).get(step.group(2), "")
        raise AssertionError(f"action.yml uses an expression this test does not know: {expr}")

    return EXPR.sub(value, text)


def _read_outputs(path: Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines() if line)
    return dict(pairs)


def test_action_is_a_valid_composite_action() -> None:
    action = _load()
    assert action["runs"]["using"] == "composite"
    declared = set(action["inputs"])
    step_ids = {s["id"] for s in action["runs"]["steps"] if "id" in s}
    for match in EXPR.finditer(ACTION.read_text(encoding="utf-8")):
        expr = match.group(1)
        if expr.startswith("inputs."):
            assert expr.removeprefix("inputs.") in declared, expr
        elif expr.startswith("steps."):
            assert expr.split(".")[1] in step_ids, expr
    for step in action["runs"]["steps"]:
        assert ("run" in step) != ("uses" in step), step
        if "run" in step:
            assert step["shell"] == "bash", step.get("name")
    for name, spec in action["inputs"].items():
        assert spec.get("description"), name
        assert spec.get("required") or "default" in spec, name


@pytest.mark.slow
def test_action_steps_gate_a_dataset_and_set_the_outcome(tmp_path: Path) -> None:
    action = _load()
    dataset = _small_dataset(tmp_path / "dataset")
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    inputs.update(dataset=str(dataset), **{"report-dir": str(tmp_path / "report")})
    outputs: dict[str, dict[str, str]] = {}
    summary = tmp_path / "summary.md"
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("FIELDWISE_", "GITHUB_"))},
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_STEP_SUMMARY": str(summary),
    }
    final_code = None
    for step in action["runs"]["steps"]:
        if "uses" in step:
            with_ = {k: _substitute(str(v), inputs, outputs) for k, v in step["with"].items()}
            if step["uses"].startswith("actions/upload-artifact"):
                assert Path(with_["path"], "report.html").is_file()
                assert with_["name"] == inputs["artifact-name"]
            else:
                assert step["uses"].startswith("actions/setup-python")
                assert with_["python-version"] == inputs["python-version"]
            continue
        step_env = {k: _substitute(str(v), inputs, outputs) for k, v in step.get("env", {}).items()}
        script = _substitute(step["run"], inputs, outputs)
        if step.get("id") == "install":
            assert "pip install" in script
            assert "$GITHUB_ACTION_PATH" in script
            continue
        out_file = tmp_path / f"output-{step.get('id', 'step')}"
        out_file.touch()
        done = subprocess.run(
            ["bash", "-e", "-c", script],
            env={**env, **step_env, "GITHUB_OUTPUT": str(out_file)},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if "id" in step:
            outputs[step["id"]] = _read_outputs(out_file)
            assert done.returncode == 0, done.stderr
        else:
            final_code = done.returncode
    evaluated = outputs["evaluate"]
    assert evaluated["verdict"] in {"pass", "fail", "inconclusive"}, evaluated
    assert final_code == int(evaluated["exit-code"])
    assert Path(evaluated["report"]).is_file()
    text = summary.read_text(encoding="utf-8")
    assert "invoices" in text
    assert evaluated["verdict"].upper() in text.upper()
