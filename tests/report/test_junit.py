"""JUnit XML: each cause fails once, and every suite says when it ran and how long it took."""

from __future__ import annotations

import dataclasses
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import psutil

from fieldwise.evaluate import run_seconds
from fieldwise.report import render_junit
from fieldwise.runner import LoadedRunSet, RunRecord
from tests.report._sample import sample_report, tiny_p_rule


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


def test_time_is_the_commands_wall_time_and_service_seconds_a_property() -> None:
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
    # runs served from cache: the command took 5 s although the service once spent 42.75 s
    root = ET.fromstring(render_junit(timed, wall_seconds=5.0))
    assert root.get("time") == "5"
    assert {s.get("time") for s in root.findall("testsuite")} == {"5"}
    prop = root.find("properties/property[@name='service_seconds']")
    assert prop is not None
    assert prop.get("value") == "42.75"


def test_default_time_is_this_process_wall_time_so_far() -> None:
    # the CLI writes the report in the command's own process: its age is the command's time
    started = time.time() - psutil.Process().create_time()
    root = ET.fromstring(render_junit(sample_report()))
    ended = time.time() - psutil.Process().create_time()
    assert started - 0.001 <= float(root.get("time") or "nan") <= ended + 0.001


def test_failure_figures_print_p_values_as_promised() -> None:
    data = sample_report()
    assert data.verdict is not None
    verdict = dataclasses.replace(data.verdict, rules=(tiny_p_rule(),))
    xml = render_junit(dataclasses.replace(data, verdict=verdict, verdicts=(verdict,)), 1.0)
    failure = ET.fromstring(xml).find(".//failure")
    assert failure is not None
    assert failure.text == "observed <0.001, threshold 0.050"
    assert "e-0" not in xml


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
