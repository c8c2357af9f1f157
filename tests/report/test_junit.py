"""JUnit XML: each cause fails once, and every suite says when it ran and how long it took."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

from fieldwise.evaluate import run_seconds
from fieldwise.report import render_junit
from fieldwise.runner import LoadedRunSet, RunRecord
from tests.report._sample import sample_report


def test_each_cause_fails_once_and_suites_carry_time_and_timestamp() -> None:
    data = sample_report()
    assert data.verdict is not None
    root = ET.fromstring(render_junit(data))
    failures = root.findall(".//failure")
    failed_rules = [r for v in data.verdicts or (data.verdict,) for r in v.failed_rules]
    assert len(failed_rules) >= 2  # the sample fails several rules, some about fields
    assert sorted(f.get("message") or "" for f in failures) == sorted(
        r.message for r in failed_rules if r.status == "fail"
    )
    assert len({f.get("message") for f in failures}) == len(failures)
    assert root.get("failures") == str(len(failures))
    # a field whose rule failed names the rule in its figures instead of failing again
    fields = {c.get("name"): c for c in root.iterfind("testsuite[@name='fields']/testcase")}
    for rule in failed_rules:
        if rule.field is not None and rule.field in fields:
            text = fields[rule.field].findtext("system-out") or ""
            assert rule.name in text
    suites = root.findall("testsuite")
    assert suites
    for suite in suites:
        assert suite.get("timestamp") == data.generated_at.removesuffix("Z")
        assert float(suite.get("time") or "nan") >= 0
        assert all(c.get("time") is not None for c in suite.iter("testcase"))


def test_suite_time_is_the_service_time_of_the_runs_it_judges() -> None:
    data = sample_report()
    assert data.verdict is not None
    assert len(data.versions) == 2
    seconds = {data.baseline_id: 12.25, data.verdict.candidate: 30.5}
    timed = dataclasses.replace(
        data,
        versions=tuple(
            dataclasses.replace(v, run_seconds=seconds[v.version]) for v in data.versions
        ),
    )
    root = ET.fromstring(render_junit(timed))
    assert root.get("time") == "42.75"
    assert root.find("testsuite[@name='gate']").get("time") == "42.75"  # type: ignore[union-attr]
    # the figures come from the run set: a run set without latencies reports 0, never a guess
    assert ET.fromstring(render_junit(data)).get("time") == "0"


def test_run_seconds_sum_each_versions_recorded_latencies() -> None:
    records = [
        _record("a", "v1", 1500),
        _record("b", "v1", 250),
        _record("a", "v2", 4000),
        _record("b", "v2", None),
    ]
    loaded = LoadedRunSet(directory=Path("."), manifest=None, items=(), records=tuple(records))  # type: ignore[arg-type]
    assert run_seconds(loaded) == {"v1": 1.75, "v2": 4.0}


def _record(item: str, version: str, latency_ms: int | None) -> RunRecord:
    return RunRecord(
        item_id=item,
        file=f"{item}.pdf",
        file_sha256="0" * 64,
        version_id=version,
        version_alias=None,
        run_id=None,
        status="succeeded",
        output={},
        latency_ms=latency_ms,
        attempts=1,
        cached=False,
        error=None,
        finished_at="2026-03-01T12:00:00Z",
    )
