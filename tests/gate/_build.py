"""Tiny comparisons for the gate tests, built through ``fieldwise.compare.compare``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fieldwise.compare import ComparisonResult, build_frame, compare, parse_field_specs


def make(
    truth: Mapping[str, Mapping[str, Any]],
    v1: Mapping[str, Mapping[str, Any]],
    v2: Mapping[str, Mapping[str, Any]],
    specs: Mapping[str, Mapping[str, Any]] | None = None,
) -> ComparisonResult:
    """Compare baseline ``v1`` with candidate ``v2``; values are per item, no confidences."""
    predictions = {
        version: {item: {"value": dict(values)} for item, values in outputs.items()}
        for version, outputs in (("v1", v1), ("v2", v2))
    }
    frame = build_frame(truth, predictions)
    parsed = parse_field_specs(specs or {})
    return compare(frame, parsed, baseline="v1", candidate="v2", n_bootstrap=50)


def docs(n: int) -> list[str]:
    return [f"doc{i:05d}" for i in range(n)]


def scores(
    right_v1: int, right_v2: int, n: int, *, field: str = "a", critical: bool = False
) -> ComparisonResult:
    """``n`` documents with one string field; v1 gets the first ``right_v1`` right, v2 the
    first ``right_v2``; every other value is wrong ("x")."""
    names = docs(n)
    truth = {d: {field: "ok"} for d in names}
    v1 = {d: {field: "ok" if i < right_v1 else "x"} for i, d in enumerate(names)}
    v2 = {d: {field: "ok" if i < right_v2 else "x"} for i, d in enumerate(names)}
    spec = {field: {"type": "string", "critical": critical}}
    return make(truth, v1, v2, spec)
