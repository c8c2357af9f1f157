"""One row per document: the expected value, and each version's value and outcome, per field.

:func:`export_table` turns scored cells into that wide table (pure); :func:`write_export`
(or :func:`export_bytes`) writes it as Parquet (values keep their types), CSV or JSON lines.
An array field (line items) is one value per document; its outcome sums up its cells:
``correct`` when every cell is right, ``missed`` / ``spurious`` when all its wrong cells are,
else ``wrong``.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from fieldwise._errors import CompareError
from fieldwise.compare._io import value_text
from fieldwise.compare._spec import FieldSpec
from fieldwise.compare.score._frame import build_frame
from fieldwise.compare.score._outcomes import score_cells

__all__ = ["EXPORT_FORMATS", "export_bytes", "export_table", "write_export"]

EXPORT_FORMATS = ("parquet", "csv", "jsonl")


def export_table(
    truth: Mapping[str, Mapping[str, Any]],
    predictions: Mapping[str, Mapping[str, Mapping[str, Any]]],
    specs: Mapping[str, FieldSpec],
    *,
    labels: Mapping[str, str],
    files: Mapping[str, str],
    statuses: Mapping[tuple[str, str], str],
) -> pd.DataFrame:
    """The wide table of a run set.

    ``truth`` and ``predictions`` are what :func:`~fieldwise.compare.build_frame` takes (every
    version of ``labels`` should have an entry, even empty); ``labels`` maps version id to the
    name its columns carry, in column order; ``files`` item id to document path; ``statuses``
    (item, version id) to the run status (absent: ``not run``). Columns: ``item``, ``file``,
    ``<label>.status`` per version, then per field (sorted) ``<field>.expected`` and per version
    ``<field>.<label>`` and ``<field>.<label>.outcome``. Rows are sorted by file, then item.
    """
    frame = build_frame(truth, {v: predictions.get(v, {}) for v in labels})
    cells, _, _ = score_cells(frame, specs)
    arrays = {name for name, spec in specs.items() if spec.type == "array"}
    outcome_sets: dict[tuple[str, str, str], set[str]] = {}
    for version, item, field, outcome in zip(
        cells["version"].astype(str),
        cells["item"].astype(str),
        cells["field"].astype(str),
        cells["outcome"].astype(str),
        strict=True,
    ):
        head, sep, _ = field.partition("[].")
        key = (version, item, head if sep and head in arrays else field)
        outcome_sets.setdefault(key, set()).add(outcome)
    keys = zip(frame["version"], frame["item"], frame["field"], strict=True)
    pairs = zip(frame["expected"], frame["predicted"], strict=True)
    values = {(str(v), str(i), str(f)): pair for (v, i, f), pair in zip(keys, pairs, strict=True)}
    fields = sorted({f for _, _, f in values})
    rows = []
    for item in sorted(truth, key=lambda i: (files.get(i, ""), i)):
        row: dict[str, Any] = {"item": item, "file": files.get(item, "")}
        for version, label in labels.items():
            row[f"{label}.status"] = statuses.get((item, version), "not run")
        for field in fields:
            expected = next(
                (values[(v, item, field)][0] for v in labels if (v, item, field) in values), None
            )
            row[f"{field}.expected"] = expected
            for version, label in labels.items():
                _, predicted = values.get((version, item, field), (None, None))
                row[f"{field}.{label}"] = predicted
                row[f"{field}.{label}.outcome"] = _summary(
                    outcome_sets.get((version, item, field), {"both_empty"})
                )
        rows.append(row)
    columns = ["item", "file", *(f"{label}.status" for label in labels.values())]
    for field in fields:
        columns.append(f"{field}.expected")
        for label in labels.values():
            columns += [f"{field}.{label}", f"{field}.{label}.outcome"]
    return pd.DataFrame(rows, columns=columns, dtype=object)  # ints and None stay as they are


def _summary(outcomes: set[str]) -> str:
    """One outcome for an array field's cells (a scalar field has exactly one)."""
    if len(outcomes) == 1:
        return next(iter(outcomes))
    wrong = outcomes - {"correct", "both_empty"}
    if not wrong:
        return "correct"
    return next(iter(wrong)) if len(wrong) == 1 and wrong != {"wrong"} else "wrong"


def write_export(table: pd.DataFrame, fmt: str, out: Path) -> None:
    """Write ``table`` to the file ``out`` as ``fmt`` (see :func:`export_bytes`)."""
    data = export_bytes(table, fmt)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    except OSError as exc:
        raise CompareError(f"cannot write {out}: {exc.strerror or exc}") from exc


def export_bytes(table: pd.DataFrame, fmt: str) -> bytes:
    """``table`` as a Parquet, CSV or JSON-lines file.

    Parquet keeps each column's type when its values share one (bool, integer, float, text);
    a column mixing types, and arrays or objects, hold JSON text. CSV cells are text (arrays
    and objects as JSON, no value as an empty cell); JSON lines keep every value as it was.
    """
    if fmt not in EXPORT_FORMATS:
        raise CompareError(f"unknown export format {fmt!r} (one of {', '.join(EXPORT_FORMATS)})")
    records = [{str(k): v for k, v in row.items()} for row in table.to_dict(orient="records")]
    if fmt == "parquet":
        buffer = io.BytesIO()
        arrays = {c: _arrow_column([r[c] for r in records]) for c in table.columns}
        pq.write_table(pa.table(arrays) if arrays else pa.table({}), buffer)
        data = buffer.getvalue()
    elif fmt == "csv":
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(table.columns)
        writer.writerows([value_text(r[c]) or "" for c in table.columns] for r in records)
        data = text.getvalue().encode("utf-8")
    else:
        data = "".join(
            json.dumps({c: _plain(r[c]) for c in table.columns}, ensure_ascii=False) + "\n"
            for r in records
        ).encode("utf-8")
    return data


def _plain(value: Any) -> Any:
    """None for missing values (NaN included), the value otherwise."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


def _arrow_column(values: list[Any]) -> pa.Array:
    present = [v for v in map(_plain, values) if v is not None]
    kinds = {type(v) for v in present}
    plain = [_plain(v) for v in values]
    if kinds == {bool}:
        return pa.array(plain, type=pa.bool_())
    if kinds == {int}:
        return pa.array(plain, type=pa.int64())
    if kinds and kinds <= {int, float}:
        return pa.array([None if v is None else float(v) for v in plain], type=pa.float64())
    return pa.array([value_text(v) for v in plain], type=pa.string())
