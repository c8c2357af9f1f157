"""Read and check ``dataset.toml``: the dataset, field, processor and gate tables."""

from __future__ import annotations

import json
import math
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

from fieldwise._nesting import TooDeep, loads_json, loads_toml
from fieldwise.compare import (
    BOOL_OPTIONS,
    DATE_ORDERS,
    FIELD_KEYS,
    FIELD_TYPES,
    NUMBER_OPTIONS,
)
from fieldwise.datasets._imports import parse_imports
from fieldwise.datasets._model import ProcessorSection, ProcessorVersionConfig
from fieldwise.datasets._paths import leaves, outside
from fieldwise.datasets._sources import TruthSource, parse_source
from fieldwise.datasets._splits import SplitSpec, parse_splits

__all__ = ["DATE_ORDERS", "FIELD_TYPES", "DatasetSpec", "parse_spec"]

SPEC_FILE = "dataset.toml"
PROCESSOR_VERSION_KEYS = ("baseline", "candidate")
_TOP_KEYS = ("dataset", "fields", "processor", "gate", "ground_truth", "splits", "import")
_DATASET_KEYS = (
    "name", "description", "date_order", "locale", "follow_symlinks", "allow_duplicates"
)  # fmt: skip
_PROCESSOR_KEYS = ("name", "type", "description", *PROCESSOR_VERSION_KEYS)
_TOML_LINE = re.compile(r"\(at line (\d+), column \d+\)")
_HEADER_PART = re.compile(r'"([^"]*)"|\'([^\']*)\'|([^.\s]+)')


@dataclass(frozen=True)
class DatasetSpec:
    """What ``dataset.toml`` declares (internal: the loader turns it into a Dataset)."""

    name: str
    description: str
    date_order: str
    locale: str | None
    fields: dict[str, dict[str, Any]]
    processor: ProcessorSection | None
    gate: dict[str, Any] | None
    ground_truth: TruthSource | None = None
    splits: SplitSpec | None = None
    follow_symlinks: bool = False
    allow_duplicates: bool = False
    #: The line of each declared field's table (``[fields.total]``) and column's
    #: (``line_items[].amount``), for problems about it.
    field_lines: dict[str, int] | None = None
    #: ``[import.<vendor>]``: vendor field name -> dataset field, per vendor.
    imports: dict[str, dict[str, str]] | None = None

    def line_of(self, field: str) -> int:
        """The line of ``field``'s table in dataset.toml (1 when unknown)."""
        return (self.field_lines or {}).get(field, 1)


class _Lines:
    """Finds the line of a table or key in TOML text; tomllib itself reports no positions."""

    def __init__(self, text: str) -> None:
        self._index: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if line.startswith("["):
                header = line.strip("[]").split("#", 1)[0].strip().rstrip("]")
                table = tuple(a or b or c for a, b, c in _HEADER_PART.findall(header))
                self._index.setdefault(table, number)
            elif "=" in line and not line.startswith("#"):
                key = line.split("=", 1)[0].strip().strip("\"'")
                self._index.setdefault((*table, key), number)

    def has(self, *path: str) -> bool:
        """Whether ``path`` is a table or key of the text, as written."""
        return path in self._index

    def of(self, *path: str) -> int:
        for end in range(len(path), 0, -1):
            if path[:end] in self._index:
                return self._index[path[:end]]
        return 1


def parse_spec(root: Path, problems: list[str]) -> DatasetSpec:
    """Parse ``root/dataset.toml``; every problem found is appended to ``problems``."""
    empty = DatasetSpec(root.name, "", "YMD", None, {}, None, None)
    try:
        text = (root / SPEC_FILE).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        problems.append(f"{SPEC_FILE}:1: not UTF-8 text ({exc.reason})")
        return empty
    try:
        data = loads_toml(text)
    except TooDeep as exc:
        problems.append(f"{SPEC_FILE}:1: invalid TOML: {exc}")
        return empty
    except tomllib.TOMLDecodeError as exc:
        match = _TOML_LINE.search(str(exc))
        line = match.group(1) if match else "1"
        problems.append(f"{SPEC_FILE}:{line}: invalid TOML: {_TOML_LINE.sub('', str(exc)).strip()}")
        return empty
    lines = _Lines(text)

    def problem(message: str, *path: str) -> None:
        problems.append(f"{SPEC_FILE}:{lines.of(*path)}: {message}")

    for key in data:
        if key not in _TOP_KEYS:
            problem(f"unknown key {key!r} (expected one of: {', '.join(_TOP_KEYS)})", key)

    table = _table(data, "dataset", problem)
    _unknown_keys(table, _DATASET_KEYS, problem, "dataset")
    name = _string(table, "name", problem, "dataset") or root.name
    description = _string(table, "description", problem, "dataset") or ""
    locale = _string(table, "locale", problem, "dataset")
    date_order = table.get("date_order", "YMD")
    if date_order not in DATE_ORDERS:
        problem(
            f"[dataset] date_order must be one of {', '.join(DATE_ORDERS)}", "dataset", "date_order"
        )
        date_order = "YMD"
    follow = table.get("follow_symlinks", False)
    if not isinstance(follow, bool):
        problem("[dataset] follow_symlinks must be true or false", "dataset", "follow_symlinks")
        follow = False

    duplicates = table.get("allow_duplicates", False)
    if not isinstance(duplicates, bool):
        problem("[dataset] allow_duplicates must be true or false", "dataset", "allow_duplicates")
        duplicates = False

    fields: dict[str, dict[str, Any]] = {}
    _collect_fields(_table(data, "fields", problem), (), fields, problem)
    processor = _processor(root, data, problem, problems, follow) if "processor" in data else None
    gate = _table(data, "gate", problem) if "gate" in data else None
    source = (
        parse_source(root, _table(data, "ground_truth", problem), problem, follow)
        if "ground_truth" in data
        else None
    )
    splits = parse_splits(_table(data, "splits", problem), problem) if "splits" in data else None
    if splits is not None:
        splits = replace(splits, lines={n: lines.of("splits", n) for n in splits.names})
    imports = parse_imports(_table(data, "import", problem), fields, problem)
    return DatasetSpec(
        name,
        description,
        str(date_order),
        locale,
        fields,
        processor,
        gate,
        source,
        splits,
        follow,
        duplicates,
        _field_lines(fields, lines),
        imports,
    )


def _field_lines(fields: dict[str, dict[str, Any]], lines: _Lines) -> dict[str, int]:
    """The line of each field's table, and of each column's as ``line_items[].amount``."""
    out: dict[str, int] = {}
    for name, spec in fields.items():
        # `[fields.seller.name]` or `[fields."seller.name"]`
        path = ("fields", name) if lines.has("fields", name) else ("fields", *name.split("."))
        out[name] = lines.of(*path)
        columns = spec.get("columns")
        for column in columns if isinstance(columns, dict) else ():
            out[f"{name}[].{column}"] = lines.of(*path, "columns", str(column))
    return out


def _table(data: dict[str, Any], key: str, problem: Any) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        problem(f"{key!r} must be a table", key)
        return {}
    return value


def _unknown_keys(table: dict[str, Any], known: tuple[str, ...], problem: Any, *path: str) -> None:
    where = ".".join(path)
    for key in table:
        if key not in known:
            problem(
                f"unknown key {key!r} in [{where}] (expected one of: {', '.join(known)})",
                *path,
                key,
            )


def _string(table: dict[str, Any], key: str, problem: Any, *path: str) -> str | None:
    value = table.get(key)
    if value is not None and not isinstance(value, str):
        problem(f"[{'.'.join(path)}] {key} must be a string", *path, key)
        return None
    return value


def _collect_fields(
    table: dict[str, Any], prefix: tuple[str, ...], out: dict[str, dict[str, Any]], problem: Any
) -> None:
    for key, spec in table.items():
        path = (*prefix, key)
        name = ".".join(path)
        if not isinstance(spec, dict):
            problem(f"field {name!r} must be a table with at least a type", "fields", *path)
            continue
        # `[fields.seller.name]` parses as nested tables: a typeless table of tables is a group.
        if "type" not in spec and spec and all(isinstance(v, dict) for v in spec.values()):
            _collect_fields(spec, path, out, problem)
            continue
        _check_field(spec, ("fields", *path), name, problem, in_array=False)
        out[name] = spec


def _check_field(
    spec: dict[str, Any], path: tuple[str, ...], name: str, problem: Any, *, in_array: bool
) -> None:
    what = f"column {name!r}" if in_array else f"field {name!r}"
    _unknown_keys(spec, FIELD_KEYS, problem, *path)
    kind = spec.get("type")
    if kind is None:
        problem(f"{what} has no type (one of: {', '.join(FIELD_TYPES)})", *path)
    elif kind not in FIELD_TYPES or (in_array and kind == "array"):
        allowed = [t for t in FIELD_TYPES if not (in_array and t == "array")]
        problem(f"{what} has unknown type {kind!r} (one of: {', '.join(allowed)})", *path, "type")
    for key in BOOL_OPTIONS:
        if key in spec and not isinstance(spec[key], bool):
            problem(f"{what}: {key} must be true or false", *path, key)
    for key in NUMBER_OPTIONS:
        if key not in spec:
            continue
        value = spec[key]
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        if not ok or value < 0 or (key == "threshold" and value > 1):
            bound = "a number in [0, 1]" if key == "threshold" else "a number >= 0"
            problem(f"{what}: {key} must be {bound}", *path, key)
    values = spec.get("values")
    if values is not None and (
        not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values)
    ):
        problem(f"{what}: values must be a non-empty list of strings", *path, "values")
    if "date_order" in spec and spec["date_order"] not in DATE_ORDERS:
        problem(f"{what}: date_order must be one of {', '.join(DATE_ORDERS)}", *path, "date_order")
    if "columns" in spec:
        columns = spec["columns"]
        if kind != "array" or in_array:
            problem(f"{what}: columns is only allowed on a field of type 'array'", *path, "columns")
        elif not isinstance(columns, dict):
            problem(f"{what}: columns must be a table of column specs", *path, "columns")
        else:
            for column, column_spec in columns.items():
                column_path = (*path, "columns", column)
                if not isinstance(column_spec, dict):
                    problem(f"column {name}[].{column} must be a table", *column_path)
                    continue
                _check_field(column_spec, column_path, f"{name}[].{column}", problem, in_array=True)


def _processor(
    root: Path, data: dict[str, Any], problem: Any, problems: list[str], follow_symlinks: bool
) -> ProcessorSection | None:
    table = _table(data, "processor", problem)
    _unknown_keys(table, _PROCESSOR_KEYS, problem, "processor")
    name = _string(table, "name", problem, "processor")
    if not name:
        problem("[processor] name is required", "processor")
    kind = table.get("type", "extraction")
    if kind != "extraction":
        problem("[processor] type must be 'extraction'", "processor", "type")
    description = _string(table, "description", problem, "processor") or ""
    versions: list[ProcessorVersionConfig] = []
    for key in PROCESSOR_VERSION_KEYS:
        file = _string(table, key, problem, "processor")
        if file is None:
            continue
        relative = PurePosixPath(file)
        path = root / relative
        if relative.is_absolute() or ".." in relative.parts:
            problem(f"[processor] {key} must be a path inside the dataset folder", "processor", key)
        elif not path.is_file():
            problem(f"[processor] {key}: file not found: {file}", "processor", key)
        elif not follow_symlinks and (real := outside(root, path)) is not None:
            problem(f"[processor] {key}: {file} {leaves(real)}", "processor", key)
        else:
            config = _load_config(path, file, problems)
            if config is not None:
                versions.append(ProcessorVersionConfig(key, file, path, config))
    if not name:
        return None
    return ProcessorSection(name, str(kind), description, tuple(versions))


def _load_config(path: Path, file: str, problems: list[str]) -> dict[str, Any] | None:
    try:
        config = loads_json(path.read_text(encoding="utf-8"))
    except TooDeep as exc:
        problems.append(f"{file}:1: invalid JSON: {exc}")
        return None
    except UnicodeDecodeError:
        problems.append(f"{file}:1: not UTF-8 text")
        return None
    except json.JSONDecodeError as exc:
        problems.append(f"{file}:{exc.lineno}: invalid JSON: {exc.msg} (column {exc.colno})")
        return None
    if not isinstance(config, dict) or not isinstance(config.get("fields"), list):
        problems.append(f"{file}:1: a processor config must be an object with a 'fields' list")
        return None
    return config
