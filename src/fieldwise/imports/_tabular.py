"""CSV and Parquet predictions: a ``file`` column and one column per field.

Dotted column names nest (``seller.name``); a numeric part indexes a list, so
``line_items.0.amount`` is the first line item's amount. Empty cells are no prediction.
Parquet columns may also hold the nested values themselves (a list of structs).
"""

from __future__ import annotations

import csv
import datetime
import decimal
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fieldwise.imports._model import Output, PredictionsError

__all__ = ["nest", "read_csv_outputs", "read_parquet_outputs"]


def _empty(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, float) and math.isnan(value))


def _insert(target: dict[str, Any], parts: Sequence[str], value: Any, column: str) -> None:
    node: Any = target
    for part, following in zip(parts, [*parts[1:], None], strict=True):
        if isinstance(node, list):
            index = int(part)
            while len(node) <= index:
                node.append({})
            if following is None:
                node[index] = value
            else:
                node = node[index]
            continue
        if following is None:
            if part in node:
                raise PredictionsError(f"column {column!r} clashes with another column")
            node[part] = value
            return
        child = node.setdefault(part, [] if following.isdigit() else {})
        if isinstance(child, list) != following.isdigit():
            raise PredictionsError(f"column {column!r} clashes with another column")
        node = child


def _order(column: str) -> list[tuple[int, str]]:
    # numeric parts in numeric order, so item 10 comes after item 9
    return [(int(p), "") if p.isdigit() else (-1, p) for p in column.split(".")]


def _plain(value: Any) -> Any:
    """Arrow's Python values as JSON values: dates and times as ISO text, decimals as text
    (exact), nested lists and structs converted all the way down."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    return value


def nest(flat: Mapping[str, Any]) -> dict[str, Any]:
    """Dotted names to nested objects (numeric parts to lists); empty cells left out (a CSV
    row pads every document's line items to the widest document's)."""
    out: dict[str, Any] = {}
    for column in sorted(flat, key=_order):
        value = flat[column]
        if not _empty(value):
            _insert(out, column.split("."), value, column)
    return out


def _outputs(path: Path, header: Sequence[str], rows: list[tuple[int, list[Any]]]) -> list[Output]:
    if "file" not in header:
        raise PredictionsError(f"{path}:1: no 'file' column (it names each row's document)")
    duplicated = sorted({c for c in header if header.count(c) > 1})
    if duplicated:
        raise PredictionsError(f"{path}:1: column {duplicated[0]!r} appears twice")
    outputs = []
    for line, values in rows:
        where = f"{path}:{line}"
        row = dict(zip(header, values, strict=True))
        file = row.pop("file")
        if _empty(file):
            raise PredictionsError(f"{where}: the 'file' cell is empty")
        try:
            value = nest(row)
        except PredictionsError as exc:
            raise PredictionsError(f"{where}: {exc}") from None
        outputs.append(Output(str(file), where, value))
    return outputs


def read_csv_outputs(path: Path) -> list[Output]:
    """Every row's output; a row with more or fewer cells than the header names its line."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle)
            header = next(reader, None)
            if header is None:
                raise PredictionsError(f"{path}:1: empty CSV (expected a header with 'file')")
            rows = []
            for values in reader:
                if not any(v.strip() for v in values):
                    continue
                if len(values) != len(header):
                    raise PredictionsError(
                        f"{path}:{reader.line_num}: {len(values)} cells, the header has "
                        f"{len(header)}"
                    )
                rows.append((reader.line_num, list(values)))
    except UnicodeDecodeError as exc:
        raise PredictionsError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except csv.Error as exc:
        raise PredictionsError(f"{path}: not CSV: {exc}") from None
    return _outputs(path, [h.strip() for h in header], rows)


def read_parquet_outputs(path: Path) -> list[Output]:
    """Every row's output (row numbers count from 1 after a notional header, as in CSV)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise PredictionsError(f"{path}: not a readable Parquet file: {exc}") from None
    header = list(table.column_names)
    columns = [[_plain(v) for v in table.column(i).to_pylist()] for i in range(table.num_columns)]
    rows = [(n + 2, [col[n] for col in columns]) for n in range(table.num_rows)]
    return _outputs(path, header, rows)
