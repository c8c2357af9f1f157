"""Processor version configs: validation into frozen dataclasses, errors naming the bad key.

The schema is the "Processor version config" of the shared contracts; unknown keys are refused
(a typo such as ``"lables"`` would otherwise silently change nothing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import regex

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction.credit import CREDIT_SIGNS
from fieldwise.service.engines.extraction.currencies import current_codes
from fieldwise.service.engines.extraction.patterns import MAX_PATTERN_LENGTH, compile_pattern
from fieldwise.service.engines.extraction.vocabulary import CONCEPTS

__all__ = [
    "COLUMN_TYPES",
    "DEFAULT_ABSTAIN_BELOW",
    "DEFAULT_ABSTAIN_DOUBTED",
    "DEFAULT_ABSTAIN_UNLIKELY",
    "FIELD_TYPES",
    "ColumnSpec",
    "ExtractionConfig",
    "FieldSpec",
    "validate_config",
]

FIELD_TYPES = ("array", "boolean", "currency", "date", "enum", "number", "string")
COLUMN_TYPES = ("boolean", "currency", "date", "number", "string")
POSITIONS = ("any", "below", "right")
DATE_ORDERS = ("DMY", "MDY", "YMD")
# "auto" reads each document's ambiguous dates in the order its unambiguous ones show
DATE_ORDER_CHOICES = (*DATE_ORDERS, "auto")
# "labels": labels, or a scan for self-validating types without labels (the original rules);
# "letterhead": labels first, else the most prominent text at the top of page 1
# "seller" / "buyer": labels first, else the party named with a legal form (see parties.py)
# "address": labels first, else the lines under the seller's name (see addresses.py)
STRATEGIES = ("labels", "letterhead", "seller", "buyer", "address")
OCCURRENCES = ("best", "first")
SUB_LINES = ("merge", "skip")
CELLS = ("words", "gaps")
DEFAULT_LABEL_THRESHOLD = 85.0
# A value the engine is less sure of than this is left out (missed) rather than given (maybe
# wrong): a user deciding whether to publish pays more for a wrong cell than for an empty one.
# Chosen on the tune sets (benchmarks/engine_accuracy.py --sweep; benchmarks/README.md).
DEFAULT_ABSTAIN_BELOW = 0.0
DEFAULT_ABSTAIN_DOUBTED = False
# abstain_unlikely: leave a field out when its calibrated P(right) is below this (see
# calibration.py); None: off, and the output carries no p_right. Off by default: chosen on the
# tune sets (benchmarks/calibrate.py, engine_accuracy.py --sweep; benchmarks/README.md)
DEFAULT_ABSTAIN_UNLIKELY: float | None = None

_TOP_KEYS = {
    "engine",
    "entrypoint",
    "label_threshold",
    "date_order",
    "lenient_dates",
    "e_invoice",
    "abstain_below",
    "abstain_doubted",
    "abstain_unlikely",
    "credit_note_sign",
    "fields",
    "description",
}
_FIELD_KEYS = {
    "name",
    "type",
    "labels",
    "pattern",
    "position",
    "required",
    "values",
    "columns",
    "column_types",
    "description",
    "strategy",
    "exclude",
    "infer_from_symbols",
    "sub_lines",
    "cells",
    "occurrence",
    "section",
    "vocabulary",
    "percent",
}
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_ENTRYPOINT = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*:[A-Za-z_]\w*$")


@dataclass(frozen=True)
class ColumnSpec:
    """One column of an array field: the row key, its header labels and its type."""

    name: str
    labels: tuple[str, ...]
    type: str = "string"


@dataclass(frozen=True)
class FieldSpec:
    """One field to extract; ``name`` may be dotted (``seller.name``) to nest the value."""

    name: str
    type: str
    labels: tuple[str, ...] = ()
    pattern: str | None = None
    position: str = "any"
    required: bool = False
    values: tuple[str, ...] = ()
    columns: tuple[ColumnSpec, ...] = ()
    strategy: str = "labels"
    exclude: tuple[str, ...] = ()
    infer_from_symbols: bool = False
    sub_lines: str = "merge"
    cells: str = "words"
    occurrence: str = "best"
    section: tuple[str, ...] = ()
    vocabulary: str | None = None
    percent: bool = False


@dataclass(frozen=True)
class ExtractionConfig:
    """A validated processor version config."""

    fields: tuple[FieldSpec, ...]
    engine: str = "rules"
    entrypoint: str | None = None
    label_threshold: float = DEFAULT_LABEL_THRESHOLD
    date_order: str = "DMY"
    lenient_dates: bool = False
    # read fields from the invoice XML a PDF embeds when it has one (see einvoice.py)
    e_invoice: bool = False
    # leave a field out when its confidence is below this (0: never)
    abstain_below: float = DEFAULT_ABSTAIN_BELOW
    # leave a field out when the engine's candidates for it disagreed
    abstain_doubted: bool = DEFAULT_ABSTAIN_DOUBTED
    # the sign of a credit note's amounts: as printed, or the printed size made positive or
    # negative (see credit.py)
    credit_note_sign: str = "as_printed"
    # leave a field out when its calibrated P(right) is below this; None: no calibration
    abstain_unlikely: float | None = DEFAULT_ABSTAIN_UNLIKELY


def _fail(where: str, message: str) -> ConfigError:
    return ConfigError(f"{where}: {message}")


def _strings(value: Any, where: str, *, allow_single: bool = True) -> tuple[str, ...]:
    if isinstance(value, str) and allow_single:
        value = [value]
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise _fail(where, f"expected a list of strings, got {type(value).__name__}")
    out: list[str] = []
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise _fail(f"{where}[{i}]", "expected a non-empty string")
        out.append(item.strip())
    return tuple(out)


def _unknown(raw: Mapping[str, Any], allowed: set[str], where: str) -> None:
    for key in raw:
        if key not in allowed:
            prefix = f"{where}." if where else ""
            raise ConfigError(f"{prefix}{key}: unknown key (allowed: {', '.join(sorted(allowed))})")


def _columns(raw: Mapping[str, Any], where: str) -> tuple[ColumnSpec, ...]:
    columns = raw.get("columns")
    if not isinstance(columns, Mapping) or not columns:
        raise _fail(f"{where}.columns", "an array field needs a non-empty mapping of columns")
    types = raw.get("column_types", {})
    if not isinstance(types, Mapping):
        raise _fail(f"{where}.column_types", "expected a mapping of column name to type")
    for key in types:
        if key not in columns:
            raise _fail(f"{where}.column_types.{key}", "not one of the columns")
    specs = []
    for key, labels in columns.items():
        if not isinstance(key, str) or not _NAME.match(key) or "." in key:
            raise _fail(f"{where}.columns.{key}", "column names are identifiers")
        kind = types.get(key, "string")
        if kind not in COLUMN_TYPES:
            raise _fail(f"{where}.column_types.{key}", f"unknown type {kind!r}")
        specs.append(ColumnSpec(key, _strings(labels, f"{where}.columns.{key}"), kind))
    return tuple(specs)


def _field(raw: Any, where: str) -> FieldSpec:
    if not isinstance(raw, Mapping):
        raise _fail(where, "expected an object")
    _unknown(raw, _FIELD_KEYS, where)
    name = raw.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise _fail(f"{where}.name", f"expected a dotted identifier, got {name!r}")
    kind = raw.get("type", "string")
    if kind not in FIELD_TYPES:
        raise _fail(f"{where}.type", f"unknown type {kind!r} (one of {', '.join(FIELD_TYPES)})")
    pattern = raw.get("pattern")
    if pattern is not None:
        if not isinstance(pattern, str):
            raise _fail(f"{where}.pattern", "expected a regular expression string")
        if len(pattern) > MAX_PATTERN_LENGTH:
            raise _fail(f"{where}.pattern", f"longer than {MAX_PATTERN_LENGTH} characters")
        try:
            compile_pattern(pattern)
        except (regex.error, ValueError, OverflowError, RecursionError) as exc:
            raise _fail(f"{where}.pattern", f"invalid regular expression ({exc})") from exc
    position = raw.get("position", "any")
    if position not in POSITIONS:
        raise _fail(f"{where}.position", f"expected one of {', '.join(POSITIONS)}")
    required = raw.get("required", False)
    if not isinstance(required, bool):
        raise _fail(f"{where}.required", "expected true or false")
    values: tuple[str, ...] = ()
    if kind == "enum" and "values" not in raw and raw.get("vocabulary") == "currency":
        values = current_codes()  # no closed list: any currency in use today
    elif kind == "enum":
        values = _strings(raw.get("values"), f"{where}.values", allow_single=False)
        if not values:
            raise _fail(f"{where}.values", "an enum needs at least one value")
    elif "values" in raw:
        raise _fail(f"{where}.values", "only enum fields take values")
    columns = _columns(raw, where) if kind == "array" else ()
    if kind != "array" and ("columns" in raw or "column_types" in raw):
        raise _fail(f"{where}.columns", "only array fields take columns")
    labels = _strings(raw.get("labels", []), f"{where}.labels")
    options = _options(raw, where)
    if options["vocabulary"] is not None:
        # the built-in labels of the concept follow the config's own (which come first)
        extra = [x for x in CONCEPTS[options["vocabulary"]] if x not in labels]
        labels = (*labels, *extra)
    return FieldSpec(name, kind, labels, pattern, position, required, values, columns, **options)


def _choice(raw: Mapping[str, Any], key: str, choices: tuple[str, ...], where: str) -> str:
    value = raw.get(key, choices[0])
    if value not in choices:
        raise _fail(f"{where}.{key}", f"expected one of {', '.join(choices)}, got {value!r}")
    return str(value)


def _options(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The opt-in field options; each is refused on a type it does not apply to."""
    kind = raw.get("type", "string")
    strategy = _choice(raw, "strategy", STRATEGIES, where)
    if strategy != "labels" and kind != "string":
        raise _fail(f"{where}.strategy", f"the {strategy} strategy reads string fields only")
    exclude = _strings(raw.get("exclude", []), f"{where}.exclude")
    if exclude and strategy not in ("letterhead", "seller"):
        raise _fail(f"{where}.exclude", "only the letterhead and seller strategies take exclude")
    infer = raw.get("infer_from_symbols", False)
    if not isinstance(infer, bool):
        raise _fail(f"{where}.infer_from_symbols", "expected true or false")
    if infer and kind != "enum":
        raise _fail(f"{where}.infer_from_symbols", "only enum fields (currency codes) infer")
    occurrence = _choice(raw, "occurrence", OCCURRENCES, where)
    if occurrence != "best" and kind == "array":
        raise _fail(f"{where}.occurrence", "array fields read one table")
    sub_lines = _choice(raw, "sub_lines", SUB_LINES, where)
    cells = _choice(raw, "cells", CELLS, where)
    section = _strings(raw.get("section", []), f"{where}.section")
    if section and kind == "array":
        raise _fail(f"{where}.section", "array fields read one table, not a section")
    if kind != "array" and ("sub_lines" in raw or "cells" in raw):
        key = "sub_lines" if "sub_lines" in raw else "cells"
        raise _fail(f"{where}.{key}", "only array fields take this option")
    vocabulary = raw.get("vocabulary")
    if vocabulary is not None and vocabulary not in CONCEPTS:
        raise _fail(
            f"{where}.vocabulary", f"unknown concept {vocabulary!r} (one of {', '.join(CONCEPTS)})"
        )
    percent = raw.get("percent", vocabulary == "vat_rate")
    if not isinstance(percent, bool):
        raise _fail(f"{where}.percent", "expected true or false")
    if percent and kind != "number":
        raise _fail(f"{where}.percent", "only number fields read percentages")
    return {
        "vocabulary": vocabulary,
        "percent": percent,
        "strategy": strategy,
        "exclude": exclude,
        "infer_from_symbols": infer,
        "sub_lines": sub_lines,
        "cells": cells,
        "occurrence": occurrence,
        "section": section,
    }


def _engine(raw: Mapping[str, Any], allow_python: bool) -> tuple[str, str | None]:
    engine = raw.get("engine", "rules")
    if engine not in ("rules", "python"):
        raise _fail("engine", f"unknown engine {engine!r} (rules or python)")
    entrypoint = raw.get("entrypoint")
    if engine == "rules":
        if entrypoint is not None:
            raise _fail("entrypoint", "only the python engine takes an entrypoint")
        return engine, None
    if not allow_python:
        raise _fail("engine", "python engines are disabled (start with --allow-python-engines)")
    if not isinstance(entrypoint, str) or not _ENTRYPOINT.match(entrypoint):
        raise _fail("entrypoint", "expected 'package.module:function'")
    return engine, entrypoint


def validate_config(raw: Mapping[str, Any], *, allow_python: bool = False) -> ExtractionConfig:
    """Validate a raw version config; :class:`ConfigError` names the offending key.

    Example message: ``fields[2].type: unknown type 'foo' (one of ...)``.
    """
    if not isinstance(raw, Mapping):
        raise ConfigError(f"config: expected an object, got {type(raw).__name__}")
    _unknown(raw, _TOP_KEYS, "")
    engine, entrypoint = _engine(raw, allow_python)
    threshold = raw.get("label_threshold", DEFAULT_LABEL_THRESHOLD)
    if isinstance(threshold, bool) or not isinstance(threshold, int | float):
        raise _fail("label_threshold", "expected a number from 0 to 100")
    if not 0 <= threshold <= 100:
        raise _fail("label_threshold", f"{threshold} is outside 0..100")
    date_order = raw.get("date_order", "DMY")
    if date_order not in DATE_ORDER_CHOICES:
        raise _fail("date_order", f"expected one of {', '.join(DATE_ORDER_CHOICES)}")
    lenient_dates = raw.get("lenient_dates", False)
    if not isinstance(lenient_dates, bool):
        raise _fail("lenient_dates", "expected true or false")
    e_invoice = raw.get("e_invoice", False)
    if not isinstance(e_invoice, bool):
        raise _fail("e_invoice", "expected true or false")
    abstain = raw.get("abstain_below", DEFAULT_ABSTAIN_BELOW)
    if isinstance(abstain, bool) or not isinstance(abstain, int | float):
        raise _fail("abstain_below", "expected a number from 0 to 1")
    if not 0 <= abstain <= 1:
        raise _fail("abstain_below", f"{abstain} is outside 0..1")
    doubted = raw.get("abstain_doubted", DEFAULT_ABSTAIN_DOUBTED)
    if not isinstance(doubted, bool):
        raise _fail("abstain_doubted", "expected true or false")
    unlikely = raw.get("abstain_unlikely", DEFAULT_ABSTAIN_UNLIKELY)
    if unlikely is not None:
        if isinstance(unlikely, bool) or not isinstance(unlikely, int | float):
            raise _fail("abstain_unlikely", "expected a probability from 0 to 1, or null")
        if not 0 <= unlikely <= 1:
            raise _fail("abstain_unlikely", f"{unlikely} is outside 0..1")
        unlikely = float(unlikely)
    credit_sign = raw.get("credit_note_sign", "as_printed")
    if credit_sign not in CREDIT_SIGNS:
        raise _fail("credit_note_sign", f"expected one of {', '.join(CREDIT_SIGNS)}")
    raw_fields = raw.get("fields", [])
    if not isinstance(raw_fields, Sequence) or isinstance(raw_fields, str):
        raise _fail("fields", "expected a list of field objects")
    if engine == "rules" and not raw_fields:
        raise _fail("fields", "a rules engine needs at least one field")
    fields = tuple(_field(item, f"fields[{i}]") for i, item in enumerate(raw_fields))
    seen: set[str] = set()
    for i, spec in enumerate(fields):
        parts = spec.name.split(".")
        prefixes = {".".join(parts[:n]) for n in range(1, len(parts))}
        clash = (
            spec.name in seen or prefixes & seen or any(s.startswith(spec.name + ".") for s in seen)
        )
        if clash:
            raise _fail(
                f"fields[{i}].name", f"{spec.name!r} duplicates or nests into another field"
            )
        seen.add(spec.name)
    return ExtractionConfig(
        fields,
        engine,
        entrypoint,
        float(threshold),
        date_order,
        lenient_dates,
        e_invoice,
        float(abstain),
        doubted,
        credit_sign,
        unlikely,
    )
