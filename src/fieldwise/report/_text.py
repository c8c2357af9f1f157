"""The text renderers: Markdown summary, JUnit XML and JSON (with its reader)."""

from __future__ import annotations

import dataclasses
import json
import time
import types
import typing
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

import jinja2
import psutil

from fieldwise._errors import ReportError
from fieldwise.report._env import mde, pct, pp, pvalue, rule_figures
from fieldwise.report._model import ReportData
from fieldwise.report._names import version_names

__all__ = ["render_json", "render_junit", "render_markdown", "report_from_json"]

T = TypeVar("T")


def render_markdown(data: ReportData, env: jinja2.Environment, *, top: int = 10) -> str:
    """A summary for a CI job summary or PR comment: verdict, top ``top`` regressions, fields."""
    template = env.get_template("summary.md")
    return template.render(data=data, top=top, names=version_names(data))


def command_seconds() -> float:
    """Wall seconds since this process started: for the CLI, the command's wall time so far
    (what a CI system expects as a JUnit ``time``, whether the runs came from cache or not)."""
    return max(0.0, time.time() - psutil.Process().create_time())


def render_junit(data: ReportData, wall_seconds: float | None = None) -> str:
    """JUnit XML: suite "gate" has a test case per gate rule, suite "fields" one per field.

    Each cause fails once: a failed gate rule is a ``<failure>`` in the gate suite (an
    inconclusive one an ``<error>``); the field's case in the fields suite carries its figures
    and names the failed rule in ``system-out`` without failing again. Every suite has a
    ``timestamp`` (when the report was generated) and a ``time``: ``wall_seconds``, the wall
    time of the command that made the report (default: :func:`command_seconds`), never the
    service's summed latencies (a run served from cache takes seconds, not the hours its runs
    once took); those go to the ``service_seconds`` property. The rules are checked on
    figures already computed, so each case's own time is "0".
    """
    seconds = {v.version: v.run_seconds for v in data.versions}
    wall = _secs((command_seconds() if wall_seconds is None else wall_seconds,))
    root = ET.Element("testsuites", {"name": f"fieldwise {data.dataset}", "time": wall})
    properties = ET.SubElement(root, "properties")
    ET.SubElement(
        properties, "property", {"name": "service_seconds", "value": _secs(seconds.values())}
    )
    timestamp = data.generated_at.removesuffix("Z")
    total = failures = errors = 0
    verdict = data.verdict
    verdicts = data.verdicts or ((verdict,) if verdict is not None else ())
    for one in verdicts:
        name = "gate" if len(verdicts) == 1 else f"gate {one.candidate}"
        suite = ET.SubElement(
            root, "testsuite", {"name": name, "timestamp": timestamp, "time": wall}
        )
        failed = unsure = 0
        for rule in one.rules:
            case = ET.SubElement(
                suite, "testcase", {"classname": "fieldwise.gate", "name": rule.name, "time": "0"}
            )
            if rule.status == "pass":
                continue
            # inconclusive is an <error>: neither a pass nor a proven failure
            tag = "failure" if rule.status == "fail" else "error"
            failed += rule.status == "fail"
            unsure += rule.status != "fail"
            kind = rule.rule if rule.status == "fail" else "inconclusive"
            fail = ET.SubElement(case, tag, {"message": rule.message, "type": kind})
            observed, threshold = rule_figures(rule)
            fail.text = f"observed {observed}, threshold {threshold}"
        suite.set("tests", str(len(one.rules)))
        suite.set("failures", str(failed))
        suite.set("errors", str(unsure))
        total, failures, errors = total + len(one.rules), failures + failed, errors + unsure
    by_field: dict[str, list[str]] = {}
    for one in verdicts:
        for rule in one.failed_rules:
            if rule.field is not None:
                by_field.setdefault(rule.field, []).append(rule.name)
    suite = ET.SubElement(
        root,
        "testsuite",
        {"name": "fields", "timestamp": timestamp, "time": wall},
    )
    for row in sorted(data.fields, key=lambda r: r.field):
        case = ET.SubElement(
            suite, "testcase", {"classname": "fieldwise.fields", "name": row.field, "time": "0"}
        )
        figures = f"support {row.support}; field accuracy {pct(row.baseline.field_accuracy, 2)}"
        if row.candidate is not None:
            figures += (
                f" -> {pct(row.candidate.field_accuracy, 2)}; cell accuracy "
                f"{pct(row.baseline.accuracy, 2)} -> {pct(row.candidate.accuracy, 2)} "
                f"({pp(row.delta, 2)}); regressed {row.regressed}, fixed {row.fixed}, "
                f"p(holm) {pvalue(row.p_holm)}"
            )
            if not row.significant and row.mde is not None:
                figures += f", minimum detectable effect {mde(row.mde, 2)}"
        rules = by_field.get(row.field)
        if rules:
            figures += f"; failed gate rule(s): {', '.join(sorted(set(rules)))}"
        ET.SubElement(case, "system-out").text = figures
    suite.set("tests", str(len(data.fields)))
    suite.set("failures", "0")
    suite.set("errors", "0")
    root.set("tests", str(total + len(data.fields)))
    root.set("failures", str(failures))
    root.set("errors", str(errors))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _plain(value: Any) -> Any:
    """Dataclasses to dicts; tuples of plain values are left for json to write as arrays
    (``dataclasses.asdict`` would deep-copy each of a million item-table entries)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
        return [_plain(v) for v in value]
    return value


def render_json(data: ReportData, document: Mapping[str, Any] | None = None) -> str:
    """The whole ReportData as JSON (sorted keys); :func:`report_from_json` reads it back.
    With ``document`` (the comparison document, docs/json.md), it is written under
    ``"document"`` beside the report's own keys, with the document's ``schema``."""
    plain = _plain(data)
    if document is not None:
        plain = {**plain, "schema": document["schema"], "document": dict(document)}
    return json.dumps(plain, sort_keys=True, ensure_ascii=False) + "\n"


def _decode(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _decode(options[0], value)
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        hints = typing.get_type_hints(hint)
        # a field with a default may be missing: reports written before it existed still read
        return hint(
            **{
                f.name: _decode(hints[f.name], value[f.name])
                for f in dataclasses.fields(hint)
                if f.name in value or not _has_default(f)
            }
        )
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        return tuple(_decode(a, v) for a, v in zip(args, value, strict=True))
    return value


def _has_default(f: dataclasses.Field[Any]) -> bool:
    return f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING


def _secs(values: Iterable[float]) -> str:
    return f"{sum(values):.3f}".rstrip("0").rstrip(".") or "0"


def report_from_json(text: str) -> ReportData:
    """Read what :func:`render_json` wrote; raises :class:`ReportError` on anything else."""
    try:
        decoded = _decode(ReportData, json.loads(text))
    except (ValueError, KeyError, TypeError) as exc:
        raise ReportError(f"not a fieldwise report JSON: {exc}") from exc
    assert isinstance(decoded, ReportData)
    return decoded
