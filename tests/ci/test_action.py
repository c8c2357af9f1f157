"""The composite GitHub Action (action.yml) is valid and its steps work.

Its shell steps run here for real, in order, with the inputs substituted as GitHub would and
GITHUB_OUTPUT / GITHUB_STEP_SUMMARY pointing at files: the evaluate step against the embedded
service on a small copy of the bundled dataset. Two kinds of step do not run: GitHub's own
actions (`uses:` — setup-python, cache, upload-artifact), whose inputs are checked instead, and
the install step, which would reinstall fieldwise over the test environment (its command is
checked to install the action's own checkout). What actions/cache does between two jobs is done
by hand: the folders it saves are carried into the next job's emptied workspace.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
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


@dataclass
class Job:
    """What one run of the action's steps left: each step's outputs, the evaluate step's
    stdout, the last step's exit code, and the ``with:`` of every ``uses:`` step by action."""

    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    stdout: dict[str, str] = field(default_factory=dict)
    final_code: int | None = None
    uses: dict[str, list[dict[str, str]]] = field(default_factory=dict)


def _run_job(
    action: dict[str, Any], inputs: dict[str, str], cwd: Path, *, only: set[str] | None = None
) -> Job:
    """Run the action's shell steps in ``cwd`` (the workspace), as GitHub would; with ``only``,
    just the steps with those ids."""
    job = Job()
    summary = cwd / "summary.md"
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("FIELDWISE_", "GITHUB_"))},
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_STEP_SUMMARY": str(summary),
    }
    env.pop("RUNNER_OS", None)
    for step in action["runs"]["steps"]:
        if only is not None and step.get("id") not in only:
            continue
        if "uses" in step:
            with_ = {k: _substitute(str(v), inputs, job.outputs) for k, v in step["with"].items()}
            job.uses.setdefault(step["uses"].split("@")[0], []).append(with_)
            continue
        step_env = {
            k: _substitute(str(v), inputs, job.outputs) for k, v in step.get("env", {}).items()
        }
        script = _substitute(step["run"], inputs, job.outputs)
        if step.get("id") == "install":
            assert "pip install" in script
            assert "$GITHUB_ACTION_PATH" in script
            continue
        out_file = cwd / f"output-{step.get('id', 'step')}"
        out_file.write_text("", encoding="utf-8")
        done = subprocess.run(
            ["bash", "-e", "-c", script],
            env={**env, **step_env, "GITHUB_OUTPUT": str(out_file)},
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if "id" in step:
            job.outputs[step["id"]] = _read_outputs(out_file)
            job.stdout[step["id"]] = done.stdout
            assert done.returncode == 0, done.stderr
        else:
            job.final_code = done.returncode
    return job


def _inputs(action: dict[str, Any], dataset: Path, tmp_path: Path) -> dict[str, str]:
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    inputs.update(dataset=str(dataset), **{"report-dir": str(tmp_path / "report")})
    return inputs


@pytest.mark.slow
def test_action_steps_gate_a_dataset_and_set_the_outcome(tmp_path: Path) -> None:
    action = _load()
    dataset = _small_dataset(tmp_path / "dataset")
    inputs = _inputs(action, dataset, tmp_path)
    workspace = tmp_path / "job-1"
    workspace.mkdir()
    job = _run_job(action, inputs, workspace)

    (setup,) = job.uses["actions/setup-python"]
    assert setup["python-version"] == inputs["python-version"]
    (upload,) = job.uses["actions/upload-artifact"]
    assert Path(upload["path"], "report.html").is_file()
    assert upload["name"] == inputs["artifact-name"]
    evaluated = job.outputs["evaluate"]
    assert evaluated["verdict"] in {"pass", "fail", "inconclusive"}, evaluated
    assert job.final_code == int(evaluated["exit-code"])
    assert Path(evaluated["report"]).is_file()
    text = (workspace / "summary.md").read_text(encoding="utf-8")
    assert "invoices" in text
    assert evaluated["verdict"].upper() in text.upper()


def _cached(stdout: str) -> tuple[int, int]:
    found = re.search(r"run set \S+: (\d+) pairs \((\d+) cached", stdout)
    assert found, stdout
    return int(found.group(1)), int(found.group(2))


@pytest.mark.slow
def test_a_second_job_with_unchanged_inputs_is_served_from_cache(tmp_path: Path) -> None:
    """Job 1 runs cold. Job 2 runs on a fresh runner: the same workspace path (as GitHub gives
    every job of a repository), emptied, with only the folders the run cache step saves put back,
    as actions/cache restores them; it computes the same key and runs nothing."""
    action = _load()
    dataset = _small_dataset(tmp_path / "dataset")
    inputs = _inputs(action, dataset, tmp_path)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    job1 = _run_job(action, inputs, workspace)

    pip_cache, run_cache = job1.uses["actions/cache"]
    keys = job1.outputs["keys"]
    assert pip_cache["key"] == keys["pip"]
    assert pip_cache["path"] == keys["pip-dir"]
    assert Path(pip_cache["path"]).is_absolute()
    assert inputs["python-version"] in pip_cache["key"]
    assert run_cache["key"] == keys["runs"]
    assert run_cache["key"].startswith(run_cache["restore-keys"])
    assert run_cache["key"] != run_cache["restore-keys"]
    saved = [Path(line) for line in run_cache["path"].splitlines() if line.strip()]
    assert {str(p) for p in saved} >= {".fieldwise/cache", ".fieldwise/results"}
    pairs, cached = _cached(job1.stdout["evaluate"])
    assert pairs > 0
    assert cached == 0

    first = workspace.rename(tmp_path / "job-1")
    workspace.mkdir()
    for folder in saved:
        if (first / folder).exists():
            shutil.copytree(first / folder, workspace / folder)
    job2 = _run_job(action, inputs, workspace)
    assert job2.outputs["keys"] == keys
    assert _cached(job2.stdout["evaluate"]) == (pairs, pairs)
    assert job2.outputs["evaluate"]["verdict"] == job1.outputs["evaluate"]["verdict"]

    # Any input a run depends on changes the key: a processor config, a document, fieldwise.
    config = next((dataset / "processor").iterdir())
    config.write_text(config.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    changed = _run_job(action, inputs, workspace, only={"keys"}).outputs["keys"]
    assert changed["runs"] != keys["runs"]
    assert changed["runs-prefix"] == keys["runs-prefix"]
    assert changed["pip"] == keys["pip"]
    pinned = _run_job(
        action, {**inputs, "fieldwise-spec": "fieldwise==9.9"}, workspace, only={"keys"}
    )
    assert pinned.outputs["keys"]["pip"] != keys["pip"]
    assert not pinned.outputs["keys"]["runs"].startswith(keys["runs-prefix"])
