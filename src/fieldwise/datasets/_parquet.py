"""Read ground truth from a Parquet file: a ``file`` column and the values beside it.

Either one ``ground_truth`` column (a struct, or JSON text) holds each document's object, or
every other column is a field: dotted names (``seller.name``) and struct columns build nested
objects, list-of-struct columns are arrays of rows (line items). Typed columns keep their
types; dates and timestamps become ISO text; an empty cell (null, NaN) means no value expected.
Rows are numbered from 1, so a problem reads ``ground_truth.parquet:row 3: ...``.

A few hundred kilobytes of Parquet can hold tens of millions of dictionary-encoded rows, so the
file's size says nothing about what it costs to load. Its metadata does: rows, leaf columns,
values and uncompressed bytes are checked against bounds (:data:`MAX_ROWS`, :data:`MAX_COLUMNS`,
:data:`MAX_VALUES`, :data:`MAX_BYTES`) before any page is read. Text columns are then read as
dictionaries (their size in memory stays near the file's), and the bytes their values take once
decoded are checked before any row becomes Python objects: a long text repeated on every row
costs its length on every row.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fieldwise._nesting import loads_json
from fieldwise.datasets._truth import MAX_COLUMNS, RawEntry, convert_cell, nest

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.parquet as pq

__all__ = ["MAX_BYTES", "MAX_ROWS", "MAX_VALUES", "PARQUET_FILE", "read_parquet"]

PARQUET_FILE = "ground_truth.parquet"
#: Rows (documents) a Parquet ground-truth file may have: one per document of the folder, and a
#: million documents is a hundred times the largest dataset the project syncs and measures (the
#: 10,000-file re-sync); run sets of more are built by the runner, not loaded as one folder.
MAX_ROWS = 1_000_000
#: Values (cells, each cell of a line item counted) it may have: the ten million field cells one
#: process compares comfortably (docs/scale.md), e.g. a million documents of ten fields.
MAX_VALUES = 10_000_000
#: Bytes its values may take, uncompressed in the file and again once decoded (512 MiB).
MAX_BYTES = 512 * 2**20
_ROW_OBJECT = "ground_truth"


def read_parquet(
    path: Path, name: str, fields: dict[str, dict[str, Any]], problems: list[str]
) -> list[RawEntry]:
    """Entries of the Parquet file at ``path`` (``name``: how problems name it)."""
    import pyarrow as pa  # here: loading a dataset without Parquet truth never imports Arrow
    import pyarrow.parquet as pq

    try:
        with pq.ParquetFile(path) as parquet:
            refusal = _over_bounds(parquet.metadata)
            if refusal is not None:
                refusal += " (its metadata says so: no row was read)"
            schema = parquet.schema
            texts = [
                schema.column(i).path
                for i in range(len(schema))
                if schema.column(i).physical_type == "BYTE_ARRAY"
            ]
        if refusal is None:
            table = pq.read_table(path, read_dictionary=texts)
            refusal = _over_decoded(table)
    except (OSError, pa.ArrowException) as exc:
        problems.append(f"{name}:row 0: not a readable Parquet file ({exc})")
        return []
    if refusal is not None:
        problems.append(f"{name}:row 0: {refusal}")
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


def _over_bounds(metadata: pq.FileMetaData) -> str | None:
    """What in the file's metadata is over a bound, or None."""
    if metadata.num_rows > MAX_ROWS:
        return _refusal(metadata.num_rows, "rows", MAX_ROWS)
    if metadata.num_columns > MAX_COLUMNS:  # checked first: it bounds the sum of values below
        return _refusal(metadata.num_columns, "columns", MAX_COLUMNS)
    groups = [metadata.row_group(i) for i in range(metadata.num_row_groups)]
    size = sum(group.total_byte_size for group in groups)
    if size > MAX_BYTES:
        return _refusal(size, "bytes of values", MAX_BYTES)
    values = sum(g.column(j).num_values for g in groups for j in range(g.num_columns))
    return _refusal(values, "values", MAX_VALUES) if values > MAX_VALUES else None


def _over_decoded(table: pa.Table) -> str | None:
    """Whether the values, decoded from their dictionaries, would take more than MAX_BYTES."""
    size = sum(_decoded_bytes(chunk) for column in table.columns for chunk in column.chunks)
    return _refusal(size, "bytes of values once decoded", MAX_BYTES) if size > MAX_BYTES else None


def _refusal(found: int, what: str, bound: int) -> str:
    return f"{found:,} {what}, more than the {bound:,} a ground-truth file may have"


def _decoded_bytes(array: pa.Array) -> int:
    """Bytes of ``array``'s values once decoded, computed without decoding them."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(array, pa.DictionaryArray):
        entries = array.dictionary
        if any(
            test(entries.type)
            for test in (pa.types.is_binary, pa.types.is_string, pa.types.is_large_binary,
                         pa.types.is_large_string)
        ):  # fmt: skip
            sizes = pc.binary_length(entries)
        else:  # a dictionary of fixed-width values: each costs its width
            sizes = pa.array([entries.nbytes // max(len(entries), 1)] * len(entries))
        total = pc.sum(pc.take(sizes, array.indices)).as_py()
        return int(total or 0)
    if isinstance(array, pa.StructArray):
        return sum(_decoded_bytes(child) for child in array.flatten())
    if isinstance(array, pa.ListArray | pa.LargeListArray | pa.FixedSizeListArray):
        return _decoded_bytes(array.flatten())
    return int(array.nbytes)


def _whole(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        try:
            value = loads_json(value)  # TooDeep, a ValueError, is the row's problem
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
