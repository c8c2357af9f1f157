"""Read ground truth from a Parquet file: a ``file`` column and the values beside it.

Either one ``ground_truth`` column (a struct, or JSON text) holds each document's object, or
every other column is a field: dotted names (``seller.name``) and struct columns build nested
objects, list-of-struct columns are arrays of rows (line items). Typed columns keep their
types; dates and timestamps become ISO text; an empty cell (null, NaN) means no value expected.
Rows are numbered from 1, so a problem reads ``ground_truth.parquet:row 3: ...``.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
from pathlib import Path
from typing import Any

from fieldwise.datasets._truth import RawEntry, convert_cell, nest

__all__ = ["PARQUET_FILE", "read_parquet"]

PARQUET_FILE = "ground_truth.parquet"
_ROW_OBJECT = "ground_truth"


def read_parquet(
    path: Path, name: str, fields: dict[str, dict[str, Any]], problems: list[str]
) -> list[RawEntry]:
    """Entries of the Parquet file at ``path`` (``name``: how problems name it)."""
    import pyarrow as pa  # here: loading a dataset without Parquet truth never imports Arrow
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        problems.append(f"{name}:row 0: not a readable Parquet file ({exc})")
        return []
    columns = table.column_names
    if "file" not in columns:
        problems.append(f"{name}:row 0: no 'file' column (columns: {', '.join(columns)})")
        return []
    whole = _ROW_OBJECT in columns
    if whole and len(columns) > 2:
        others = sorted(set(columns) - {"file", _ROW_OBJECT})
        problems.append(
            f"{name}:row 0: a '{_ROW_OBJECT}' column holds the whole object; "
            f"other columns are not allowed beside it ({', '.join(others)})"
        )
        return []
    entries: list[RawEntry] = []
    for number, row in enumerate(table.to_pylist(), start=1):
        where = f"{name}:row {number}"
        file = row.pop("file")
        if not isinstance(file, str) or not file.strip():
            problems.append(f"{where}: the 'file' cell must be a non-empty string")
            continue
        try:
            truth = _whole(row[_ROW_OBJECT]) if whole else _by_columns(row, fields)
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        entries.append(RawEntry(file.strip(), truth, where))
    return entries


def _whole(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValueError(f"'{_ROW_OBJECT}' is not JSON: {exc.msg}") from None
    plain = _plain(value)
    if not isinstance(plain, dict):
        raise ValueError(f"'{_ROW_OBJECT}' must hold an object")
    return plain


def _by_columns(row: dict[str, Any], fields: dict[str, dict[str, Any]]) -> dict[str, Any]:
    truth: dict[str, Any] = {}
    for column, cell in row.items():
        value = _plain(cell)
        if value is None:
            continue
        kind = fields.get(column, {}).get("type")
        if isinstance(value, str) and kind in ("boolean", "number", "currency", "array"):
            try:
                value = convert_cell(value.strip(), kind)
            except ValueError as exc:
                raise ValueError(f"column {column!r}: {exc}") from None
        nest(truth, column, value)
    return truth


def _plain(value: Any) -> Any:
    """A Parquet cell as JSON-ready Python: nulls and NaN dropped, dates as ISO text."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, bytes):
        raise ValueError("binary cells cannot be ground truth")
    if isinstance(value, dict):
        kept = {str(k): _plain(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v is not None} or None
    if isinstance(value, list):
        return [item for item in map(_plain, value) if item is not None]
    return value
