"""Check ground-truth values: allowed shapes, declared fields and declared types.

Every value is read by the normalizer the comparison reads it with (:mod:`fieldwise.compare.
_normalize`): a value it cannot read would only ever count as wrong, so it is a problem here."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from fieldwise.compare import (
    Unparsed,
    parse_bool,
    parse_currency,
    parse_date,
    parse_number,
)

__all__ = ["Undeclared", "check_truth", "reads_as_amount"]

_TEXT_TYPES = ("string", "text")


@dataclass
class Undeclared:
    """Fields found in ground truth but not in dataset.toml (first source and item count), and
    the declared fields and columns some item has a value for (``line_items[].amount``)."""

    first: dict[str, str] = field(default_factory=dict)
    count: dict[str, int] = field(default_factory=dict)
    present: set[str] = field(default_factory=set)

    def add(self, name: str, source: str) -> None:
        self.first.setdefault(name, source)
        self.count[name] = self.count.get(name, 0) + 1

    def problems(self) -> list[str]:
        """One problem per undeclared field: it would be compared as a plain string, never
        as the type its values have, and a typo in dataset.toml would go unseen."""
        return [
            f"{self.first[name]}: field {name!r} is not declared in dataset.toml "
            f"({self.count[name]} item{'s' if self.count[name] != 1 else ''}); declare it "
            "under [fields] or leave it out of the ground truth"
            for name in sorted(self.first)
        ]

    def missing(self, fields: dict[str, dict[str, Any]]) -> list[str]:
        """The declared fields and array columns no item has a value for, as
        ``line_items[].amount`` for a column (a field is measured on nothing: a typo, or ground
        truth that lost it)."""
        out: list[str] = []
        for name, spec in fields.items():
            if name not in self.present:
                out.append(name)
                continue
            columns = spec.get("columns") or {}
            out += [
                f"{name}[].{column}"
                for column in columns
                if f"{name}[].{column}" not in self.present
            ]
        return out


def check_truth(
    truth: dict[str, Any],
    fields: dict[str, dict[str, Any]],
    source: str,
    problems: list[str],
    undeclared: Undeclared,
    prefix: str = "",
    *,
    date_order: str = "YMD",
) -> None:
    """Append a problem for each value of the wrong shape or declared type; ``date_order`` is
    the dataset's (a field's own ``date_order`` wins), read as the comparison reads it."""
    for key, value in truth.items():
        name = f"{prefix}{key}"
        spec = fields.get(name)
        if not isinstance(key, str) or not key:
            problems.append(f"{source}: empty field name under {prefix or 'the top level'!r}")
        elif isinstance(value, dict):
            if spec is not None:
                problems.append(
                    f"{source}: {name!r} is declared as {spec.get('type')} but holds an object"
                )
            elif not value:
                problems.append(f"{source}: {name!r} is an empty object")
            else:
                check_truth(
                    value,
                    fields,
                    source,
                    problems,
                    undeclared,
                    prefix=f"{name}.",
                    date_order=date_order,
                )
        elif isinstance(value, list):
            _check_rows(name, value, spec, source, problems, undeclared, date_order)
        else:
            message = _scalar_problem(value, spec, date_order)
            if message:
                problems.append(f"{source}: {name!r} {message}")
            elif spec is None:
                undeclared.add(name, source)
            else:
                undeclared.present.add(name)


def _check_rows(
    name: str,
    rows: list[Any],
    spec: dict[str, Any] | None,
    source: str,
    problems: list[str],
    undeclared: Undeclared,
    date_order: str,
) -> None:
    if spec is None:
        undeclared.add(name, source)
    else:
        undeclared.present.add(name)  # an empty list says "no rows": a value too
    if spec is not None and spec.get("type") != "array":
        problems.append(f"{source}: {name!r} is declared as {spec.get('type')} but holds a list")
        return
    columns: dict[str, Any] = (spec or {}).get("columns") or {}
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            problems.append(
                f"{source}: {name}[{index}] must be an object (a row), not {_kind(row)}"
            )
            continue
        for column, cell in row.items():
            column_spec = columns.get(column)
            message = _scalar_problem(cell, column_spec, date_order)
            if message:
                problems.append(f"{source}: {name}[{index}].{column} {message}")
            elif spec is not None and columns and column_spec is None:
                undeclared.add(f"{name}[].{column}", source)
            elif column_spec is not None:
                undeclared.present.add(f"{name}[].{column}")


def _scalar_problem(value: Any, spec: dict[str, Any] | None, date_order: str = "YMD") -> str | None:
    if value is None:
        return "is null; leave the field out when no value is expected"
    if isinstance(value, dict | list):
        return f"must be a string, number or boolean, not {_kind(value)}"
    if isinstance(value, float) and not math.isfinite(value):
        return "is not a finite number"
    if spec is None:
        return None
    kind = spec.get("type")
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    if kind in ("number", "currency") and not (is_number or reads_as_amount(value, kind)):
        if isinstance(value, str):
            return f"is declared as {kind} but {value!r} cannot be read as an amount"
        return f"is declared as {kind} but holds {_kind(value)} {value!r}"
    if kind == "boolean" and not isinstance(value, bool) and not _reads_as_bool(value):
        return f"is declared as boolean but holds {_kind(value)} {value!r}"
    if kind in ("date", "enum") and not isinstance(value, str):
        return f"is declared as {kind} but holds {_kind(value)} {value!r}"
    if kind == "date":
        order = str(spec.get("date_order") or date_order)
        if isinstance(parse_date(value, date_order=order), Unparsed):
            return f"is declared as date but {value!r} is not a date (date_order {order})"
    if kind in _TEXT_TYPES and isinstance(value, bool):
        return f"is declared as {kind} but holds a boolean"
    values = spec.get("values")
    if kind == "enum" and isinstance(values, list) and not _in_values(value, values, spec):
        return f"{value!r} is not one of the declared values ({', '.join(map(str, values))})"
    if kind == "array":
        return f"is declared as array but holds {_kind(value)}"
    return None


def reads_as_amount(value: Any, kind: str) -> bool:
    """Whether a string is an amount as people write it (``"RM 29.70"``, ``"1.021,91 €"``),
    read by the same normalizer that reads predictions when they are compared."""
    if not isinstance(value, str):
        return False
    amount = parse_currency(value)[0] if kind == "currency" else parse_number(value)
    return type(amount) is float


def _reads_as_bool(value: Any) -> bool:
    """A word the boolean comparator reads ("yes", "nein", "oui"); numbers stay refused."""
    return isinstance(value, str) and isinstance(parse_bool(value), bool)


def _in_values(value: Any, values: list[Any], spec: dict[str, Any]) -> bool:
    if spec.get("case_sensitive", False):
        return value in values
    return str(value).casefold() in {str(v).casefold() for v in values}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"
