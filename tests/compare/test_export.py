"""The wide export table, built by hand: two documents, two versions.

a: total "RM 29.70"; v1 says 29.7 (correct), v2 failed (no output: missed, status failed).
   items [{amount 1}, {amount 2}]; v1 gets both (correct), v2 none (missed).
b: total 5; v1 says 6 (wrong); v2 says 5 (correct).
   items [{amount 3}]; v1 says [{amount 3}, {amount 4}] (a spurious row: the field is spurious
   only in its extra cells, so mixed with correct it sums up to spurious); v2 says [{amount 9}].
"""

from __future__ import annotations

import io

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from fieldwise.compare import parse_field_specs
from fieldwise.compare._export import export_bytes, export_table

SPECS = parse_field_specs(
    {
        "total": {"type": "currency"},
        "items": {"type": "array", "columns": {"amount": {"type": "number"}}},
    }
)


def _table() -> pd.DataFrame:
    return export_table(
        {
            "a": {"total": "RM 29.70", "items": [{"amount": 1}, {"amount": 2}]},
            "b": {"total": 5, "items": [{"amount": 3}]},
        },
        {
            "v1": {
                "a": {"value": {"total": 29.7, "items": [{"amount": 2}, {"amount": 1}]}},
                "b": {"value": {"total": 6, "items": [{"amount": 3}, {"amount": 4}]}},
            },
            "v2": {"b": {"value": {"total": 5, "items": [{"amount": 9}]}}},
        },
        SPECS,
        labels={"v1": "published", "v2": "draft"},
        files={"a": "docs/a.pdf", "b": "docs/b.pdf"},
        statuses={("a", "v1"): "succeeded", ("a", "v2"): "failed", ("b", "v1"): "succeeded"},
    )


def test_one_row_per_document_with_values_and_outcomes() -> None:
    table = _table()
    rows = table.to_dict(orient="records")
    a, b = rows
    assert (a["item"], a["file"], a["published.status"], a["draft.status"]) == (
        "a", "docs/a.pdf", "succeeded", "failed",
    )  # fmt: skip
    assert b["draft.status"] == "not run"
    assert (a["total.expected"], a["total.published"], a["total.published.outcome"]) == (
        "RM 29.70", 29.7, "correct",
    )  # fmt: skip
    assert (a["total.draft"], a["total.draft.outcome"]) == (None, "missed")
    assert (b["total.published.outcome"], b["total.draft.outcome"]) == ("wrong", "correct")
    assert a["items.published.outcome"] == "correct"
    assert a["items.draft.outcome"] == "missed"
    assert b["items.published.outcome"] == "spurious"
    assert b["items.draft.outcome"] == "wrong"


def test_parquet_types() -> None:
    data = export_bytes(_table(), "parquet")
    table = pq.read_table(io.BytesIO(data))
    assert table.schema.field("total.published").type == pa.float64()
    assert table.schema.field("total.expected").type == pa.string()  # "RM 29.70" and 5
    assert table.column("total.expected").to_pylist() == ["RM 29.70", "5"]
    assert table.schema.field("total.draft").type == pa.int64()
