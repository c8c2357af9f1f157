"""JUnit XML: each cause fails once, and every suite says when it ran and how long it took."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from fieldwise.report import render_junit
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
