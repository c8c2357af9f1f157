"""Read ground truth from JSON lines, CSV and per-document sidecars (Parquet and Label Studio
exports have their own modules), and the cell conversion they share."""

from __future__ import annotations

import csv
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldwise._nesting import TooDeep, loads_json
from fieldwise.datasets._paths import leaves, outside
from fieldwise.datasets._values import reads_as_amount

__all__ = [
    "CSV_FILE",
    "DOCUMENTS_DIR",
    "JSONL_FILE",
    "MAX_COLUMNS",
    "RawEntry",
    "convert_cell",
    "is_sidecar",
    "nest",
    "read_csv",
    "read_jsonl",
    "read_sidecars",
]

JSONL_FILE = "ground_truth.jsonl"
#: Columns a ground-truth table (CSV header, Parquet leaf columns) may have: forms have tens of
#: fields, rarely hundreds (the bundled invoices declare 11), so ten thousand leaves room for any
#: real one while a header of tens of thousands of columns is refused before any row is read.
MAX_COLUMNS = 10_000
CSV_FILE = "ground_truth.csv"
DOCUMENTS_DIR = "documents"
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True)
class RawEntry:
    """One ground-truth record as written, before paths and values are checked."""

    file: str
    ground_truth: dict[str, Any]
    source: str


def read_jsonl(root: Path, problems: list[str], name: str = JSONL_FILE) -> list[RawEntry]:
    """Entries of ``ground_truth.jsonl`` (or ``name``): one ``{"file", "ground_truth"}`` object
    per line."""
    entries: list[RawEntry] = []
    text = _read_text(root / name, name, problems)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{name}:{number}"
        try:
            record = loads_json(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{where}: invalid JSON: {exc.msg} (column {exc.colno})")
            continue
        except TooDeep as exc:
            problems.append(f"{where}: invalid JSON: {exc}")
            continue
        if not isinstance(record, dict):
            problems.append(f"{where}: expected an object with 'file' and 'ground_truth'")
            continue
        unknown = sorted(set(record) - {"file", "ground_truth"})
        if unknown:
            problems.append(f"{where}: unknown key(s) {', '.join(map(repr, unknown))}")
        file, truth = record.get("file"), record.get("ground_truth")
        if not isinstance(file, str) or not file:
            problems.append(f"{where}: 'file' must be a non-empty string")
        elif not isinstance(truth, dict):
            problems.append(f"{where}: 'ground_truth' must be an object")
        else:
            entries.append(RawEntry(file, truth, where))
    return entries


def read_csv(
    root: Path, fields: dict[str, dict[str, Any]], problems: list[str], name: str = CSV_FILE
) -> list[RawEntry]:
    """Entries of ``ground_truth.csv`` (or ``name``): a ``file`` column, dotted columns build
    nested values.

    Cells are converted by the declared field type; undeclared cells that parse as numbers
    become numbers. Empty cells are left out (no value expected).
    """
    text = _read_text(root / name, name, problems)
    reader = csv.reader(text.splitlines(keepends=True))
    entries: list[RawEntry] = []
    header: list[str] | None = None
    last_line = 0
    try:
        for row in reader:
            number, last_line = last_line + 1, reader.line_num
            where = f"{name}:{number}"
            if header is None:
                header = [cell.strip() for cell in row]
                if not _check_header(header, where, problems):
                    return []
                continue
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                problems.append(f"{where}: row has {len(row)} cells, the header has {len(header)}")
                continue
            entry = _csv_entry(header, row, fields, where, problems)
            if entry is not None:
                entries.append(entry)
    except csv.Error as exc:
        problems.append(f"{name}:{reader.line_num}: invalid CSV: {exc}")
    return entries


def read_sidecars(
    root: Path, problems: list[str], *, follow_symlinks: bool = False
) -> list[RawEntry]:
    """Entries from sidecars ``documents/a.pdf.json`` holding the ground-truth object itself;
    a sidecar that is a link out of the folder is a problem unless ``follow_symlinks``."""
    entries: list[RawEntry] = []
    if not follow_symlinks and outside(root, root / DOCUMENTS_DIR) is not None:
        return entries  # a linked documents/ leading out is the walk's problem: not searched
    for path in sorted((root / DOCUMENTS_DIR).rglob("*.json")):
        if not is_sidecar(path):
            continue
        name = path.relative_to(root).as_posix()
        real = None if follow_symlinks else outside(root, path)
        if real is not None:
            problems.append(f"{name} {leaves(real)}")
            continue
        text = _read_text(path, name, problems)
        if not text and problems and problems[-1].startswith(f"{name}:"):
            continue  # not UTF-8: already reported
        try:
            truth = loads_json(text)
        except json.JSONDecodeError as exc:
            problems.append(f"{name}:{exc.lineno}: invalid JSON: {exc.msg} (column {exc.colno})")
            continue
        except TooDeep as exc:
            problems.append(f"{name}:1: invalid JSON: {exc}")
            continue
        if not isinstance(truth, dict):
            problems.append(f"{name}:1: a sidecar must hold the ground-truth object")
            continue
        entries.append(RawEntry(name.removesuffix(".json"), truth, f"{name}:1"))
    return entries


def is_sidecar(path: Path) -> bool:
    """``a.pdf.json`` is a sidecar; a bare ``a.json`` would be a document."""
    return path.suffix == ".json" and "." in path.stem


def _read_text(path: Path, name: str, problems: list[str]) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.append(f"{name}:1: not UTF-8 text ({exc.reason})")
        return ""


def _check_header(header: list[str], where: str, problems: list[str]) -> bool:
    """Names well formed, unique, and none also the parent of a nested (dotted) column.

    Linear in the header's length: a nested column is found through a tree of name parts,
    not by comparing every pair of columns (20,000 columns took minutes that way).
    """
    if len(header) > MAX_COLUMNS:
        problems.append(
            f"{where}: the header has {len(header):,} columns, more than the {MAX_COLUMNS:,} "
            "a ground-truth table may have"
        )
        return False
    ok = True
    if "file" not in header:
        problems.append(f"{where}: the header has no 'file' column")
        ok = False
    seen: set[str] = set()
    tree = _Part()
    ends: list[tuple[str, _Part]] = []
    for column in header:
        parts = column.split(".")
        if not column or not all(parts):
            problems.append(f"{where}: empty or malformed column name {column!r}")
            ok = False
        elif column in seen:
            problems.append(f"{where}: duplicate column {column!r}")
            ok = False
        else:
            ends.append((column, tree.add(column, parts)))
        seen.add(column)
    for column, end in ends:
        if end.first_below is not None:
            problems.append(
                f"{where}: column {column!r} clashes with nested column {end.first_below!r}"
            )
            ok = False
    return ok


class _Part:
    """A node of the tree of dotted column names; ``first_below`` is the first column (in
    header order) that nests under it."""

    __slots__ = ("children", "first_below")

    def __init__(self) -> None:
        self.children: dict[str, _Part] = {}
        self.first_below: str | None = None

    def add(self, column: str, parts: list[str]) -> _Part:
        """Add ``column`` (split into ``parts``) under this node; its own node."""
        node = self
        for part in parts:
            if node.first_below is None:
                node.first_below = column
            node = node.children.setdefault(part, _Part())
        return node


def _csv_entry(
    header: list[str],
    row: list[str],
    fields: dict[str, dict[str, Any]],
    where: str,
    problems: list[str],
) -> RawEntry | None:
    file = ""
    truth: dict[str, Any] = {}
    ok = True
    for column, cell in zip(header, row, strict=True):
        if column == "file":
            file = cell.strip()
            continue
        if not cell.strip():
            continue
        try:
            value = convert_cell(cell.strip(), fields.get(column, {}).get("type"))
        except ValueError as exc:
            problems.append(f"{where}: column {column!r}: {exc}")
            ok = False
            continue
        nest(truth, column, value)
    if not file:
        problems.append(f"{where}: the 'file' cell is empty")
        return None
    return RawEntry(file, truth, where) if ok else None


def nest(truth: dict[str, Any], dotted: str, value: Any) -> None:
    """Set ``truth["a"]["b"] = value`` for the column ``a.b`` (dotted columns build objects)."""
    node = truth
    *parents, leaf = dotted.split(".")
    for part in parents:
        node = node.setdefault(part, {})
    node[leaf] = value


def convert_cell(cell: str, kind: Any) -> Any:
    """A text cell as the declared field type reads it (``kind`` None: numbers become numbers).

    Raises ValueError with the reason when the cell cannot be that type.
    """
    if kind in ("string", "text", "enum", "date"):
        return cell
    if kind == "boolean":
        # the comparators' package imports pandas: only boolean cells of CSV truth pay for it
        from fieldwise.compare import parse_bool

        truth = parse_bool(cell)  # the comparator's reading: yes/no, ja/nein, oui/non, x, 1/0
        if isinstance(truth, bool):
            return truth
        raise ValueError(f"{cell!r} is not a boolean (true/false)")
    if kind == "array":
        try:
            return loads_json(cell)  # TooDeep is the ValueError of a cell nested too deeply
        except json.JSONDecodeError as exc:
            raise ValueError(f"an array cell must hold JSON: {exc.msg}") from None
    if kind is None and cell.startswith("[{"):  # an undeclared array of rows, as JSON
        try:
            rows = loads_json(cell)
        except json.JSONDecodeError:
            rows = None
        if isinstance(rows, list):
            return rows
    number = _number(cell)
    if number is not None:
        return number
    if kind in ("number", "currency"):
        if reads_as_amount(cell, kind):
            return cell  # "RM 29.70" stays as written; compare reads it like a prediction
        raise ValueError(f"{cell!r} cannot be read as an amount")
    return cell


def _number(cell: str) -> int | float | None:
    # Leading zeros ("007") mean an identifier, not a number: keep the string.
    if not _NUMBER.fullmatch(cell) or re.match(r"[+-]?0\d", cell):
        return None
    if re.fullmatch(r"[+-]?\d+", cell):
        return int(cell)
    value = float(cell)
    return value if math.isfinite(value) else None
