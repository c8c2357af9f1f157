"""Which candidates are right: a field's stored truth, normalized like the candidates' values."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz

from fieldwise.service.engines.extraction import ExtractionConfig, FieldSpec, parse_amount
from fieldwise.service.engines.extraction.normalize import parse_bool, parse_date

__all__ = ["fold", "labels", "lookup", "similarity", "truth_value"]

_MISSING = object()


def lookup(truth: Mapping[str, Any], name: str) -> Any:
    """The truth of a (possibly dotted) field name: a flat key first, else nested mappings;
    None when absent."""
    if name in truth:
        return truth[name]
    node: Any = truth
    for part in name.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def fold(text: str) -> str:
    """Case- and whitespace-insensitive form of a text."""
    return " ".join(str(text).split()).casefold()


def _compact(text: str) -> str:
    return re.sub(r"[\s.,;:/\-]", "", str(text)).casefold()


def similarity(a: str, b: str) -> float:
    """rapidfuzz ratio (0..1) of the folded texts."""
    return float(fuzz.ratio(fold(a), fold(b))) / 100.0


def truth_value(raw: Any, spec: FieldSpec, config: ExtractionConfig) -> Any:
    """The stored truth as the engine normalizes values (ISO dates, float amounts), or None."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if spec.type in ("currency", "number"):
        if isinstance(raw, bool):
            return None
        if isinstance(raw, int | float):
            return float(raw)
        parsed = parse_amount(str(raw))
        return None if parsed is None else float(parsed.value)
    if spec.type == "date":
        text = str(raw)
        parsed = parse_date(text, "YMD") or parse_date(
            text, config.date_order if config.date_order != "auto" else "DMY", lenient=True
        )
        return None if parsed is None else parsed.value
    if spec.type == "boolean":
        if isinstance(raw, bool):
            return raw
        parsed = parse_bool(str(raw))
        return None if parsed is None else parsed.value
    return str(raw)


def _matches(value: Any, truth: Any, spec: FieldSpec) -> float:
    """How well a candidate value matches the truth, 0..1 (1 = the same value)."""
    if spec.type in ("currency", "number"):
        return 1.0 if isinstance(value, float) and abs(value - truth) < 0.005 else 0.0
    if spec.type == "enum":
        return 1.0 if str(value).casefold() == str(truth).casefold() else 0.0
    if spec.type in ("date", "boolean"):
        return 1.0 if value == truth else 0.0
    if spec.pattern is not None:
        return 1.0 if _compact(value) == _compact(truth) else 0.0
    return similarity(str(value), str(truth))


def labels(values: Sequence[Any], truth: Any, spec: FieldSpec, text_match: float) -> list[int]:
    """1 for the candidates (given by value) that are right, else 0.

    Free text is right when it is at least ``text_match`` similar to the truth and close to
    the best candidate's similarity (a block with one stray line is not as right as the block).
    """
    if truth is None:
        return [0] * len(values)
    scores = [_matches(v, truth, spec) for v in values]
    if spec.type != "string" or spec.pattern is not None:
        return [1 if s >= 1.0 else 0 for s in scores]
    best = max(scores, default=0.0)
    floor = max(text_match, best - 0.05)
    return [1 if s >= floor else 0 for s in scores]
