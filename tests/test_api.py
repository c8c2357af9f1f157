"""The Python API: ``import fieldwise`` is light and offers the main entry points; the whole
job runs from Python with DataFrames in and a verdict out, with no CLI and no service."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

import fieldwise
from fieldwise._errors import CompareError
from fieldwise.compare.score._inputs import outputs_from_frame, truth_from_frame

ENTRY_POINTS = (
    "Client", "build_report", "compare", "decide", "evaluate", "load_dataset", "load_policy",
    "write_report",
)  # fmt: skip


def test_all_is_sorted_and_offers_the_entry_points() -> None:
    assert fieldwise.__all__ == sorted(fieldwise.__all__)
    assert set(ENTRY_POINTS) <= set(fieldwise.__all__)
    for name in fieldwise.__all__:
        assert getattr(fieldwise, name) is not None, name
    for name in ENTRY_POINTS:
        assert callable(getattr(fieldwise, name)), name
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = fieldwise.nope  # type: ignore[attr-defined]


def _run(code: str, cwd: Path) -> list[str]:
    """Run ``code`` in a fresh interpreter; the modules it left loaded, then what it printed."""
    script = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()


def test_import_fieldwise_is_light(tmp_path: Path) -> None:
    (modules,) = _run("import fieldwise", tmp_path)
    loaded = json.loads(modules)
    heavy = [m for m in loaded if m.split(".")[0] in ("pandas", "fastapi", "numpy", "httpx")]
    assert heavy == []


WHOLE_JOB = """
import pandas as pd
import fieldwise

truth = pd.DataFrame(
    {
        "document": [f"d{i}" for i in range(40)],
        "currency": ["EUR"] * 40,
        "total": [100.0 + i for i in range(40)],
    }
)
# the baseline misses the total on 10 documents; the candidate gets every total right
base = [
    {"document": f"d{i}", "field": "total", "value": None if i < 10 else 100.0 + i}
    for i in range(40)
] + [{"document": f"d{i}", "field": "currency", "value": "EUR"} for i in range(40)]
cand = truth.copy()
result = fieldwise.compare(
    truth,
    {"v1": pd.DataFrame(base), "v2": cand},
    {"total": {"type": "number"}, "currency": {"type": "enum"}},
)
open("gate.toml", "w").write("min_accuracy = 0.9\\nmax_regression = 0.02\\n")
policy = fieldwise.load_policy("gate.toml")
verdict = fieldwise.decide(result, policy)
from fieldwise.report import ReportContext
data = fieldwise.build_report(
    result, ReportContext(dataset="frames", generated_at="2026-01-01T00:00:00Z"), verdict
)
paths = fieldwise.write_report(data, "out", ["md", "json"])
print(verdict.status, result.baseline, ",".join(result.candidates))
print(sorted(p.name for p in paths.values()))
"""


def test_whole_job_from_python_with_dataframes(tmp_path: Path) -> None:
    status, names, modules = _run(textwrap.dedent(WHOLE_JOB), tmp_path)
    assert status.split() == ["pass", "v1", "v2"]
    assert names == "['report.json', 'summary.md']"
    loaded = json.loads(modules)
    assert not [m for m in loaded if m.startswith(("fieldwise.service", "fieldwise.cli"))]
    assert not [m for m in loaded if m.split(".")[0] in ("fastapi", "uvicorn", "sqlalchemy")]
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["verdict"]["status"] == "pass"


def test_long_and_wide_frames_give_the_same_comparison() -> None:
    wide = pd.DataFrame({"document": ["a", "b"], "seller.name": ["X", "Y"], "n": [1, 2]})
    long = pd.DataFrame(
        {
            "item_id": ["a", "a", "b", "b"],
            "field": ["seller.name", "n", "seller.name", "n"],
            "value": ["X", 1, "Y", None],
            "confidence": [0.9, 0.8, 0.7, None],
        }
    )
    assert truth_from_frame(wide) == {
        "a": {"seller": {"name": "X"}, "n": 1},
        "b": {"seller": {"name": "Y"}, "n": 2},
    }
    assert outputs_from_frame(long)["b"] == {
        "value": {"seller": {"name": "Y"}},
        "metadata": {"seller.name": {"confidence": 0.7}},
    }
    nested = {"a": {"seller": {"name": "X"}, "n": 1}, "b": {"seller": {"name": "Y"}, "n": 2}}
    from_frames = fieldwise.compare(wide, {"v1": long, "v2": wide})
    from_dicts = fieldwise.compare(
        nested, {"v1": {"a": {"seller": {"name": "X"}, "n": 1}, "b": {"seller": {"name": "Y"}}},
                 "v2": {d: {"value": v} for d, v in nested.items()}},
    )  # fmt: skip
    columns = ["version", "field", "correct", "missed"]
    assert from_frames.fields[columns].equals(from_dicts.fields[columns])


def test_bad_frames_are_clear_errors() -> None:
    with pytest.raises(CompareError, match="needs a 'document'"):
        truth_from_frame(pd.DataFrame({"x": [1]}))
    dup = pd.DataFrame({"document": ["a", "a"], "field": ["n", "n"], "value": [1, 2]})
    with pytest.raises(CompareError, match="field 'n' twice"):
        truth_from_frame(dup)
    with pytest.raises(CompareError, match="baseline 'v9'"):
        fieldwise.compare({"a": {"n": 1}}, {"v1": {"a": {"n": 1}}}, baseline="v9")
