"""The field specs of benchmarks/compare.py, in a module that imports nothing: each
whole-process child reads them from here, so neither side pays for importing the benchmark's
data generator or the other side's code."""

from __future__ import annotations

from typing import Any

__all__ = ["FIELDS", "WIDE_FIELDS"]

#: B1b: the messy typed fields (what ``parse_field_specs`` and the row-by-row code both read).
FIELDS: dict[str, dict[str, Any]] = {
    "invoice_number": {"type": "string", "ignore_punctuation": True},
    "issue_date": {"type": "date"},
    "due_date": {"type": "date"},
    "total": {"type": "currency", "critical": True, "atol": 0.005},
    "tax": {"type": "currency", "atol": 0.005},
    "seller_name": {"type": "text", "threshold": 0.85},
    "buyer_name": {"type": "text", "threshold": 0.85},
    "currency": {"type": "enum", "values": ["EUR", "USD", "GBP"]},
    "paid": {"type": "boolean"},
    "quantity": {"type": "number", "atol": 0.001},
}

#: B1a: 10 exact strings and 10 numbers within 0.01 (datacompy's ``abs_tol=0.01``).
WIDE_FIELDS: dict[str, dict[str, Any]] = {
    **{f"s{k}": {"type": "string", "case_sensitive": True} for k in range(10)},
    **{f"n{k}": {"type": "number", "atol": 0.01} for k in range(10)},
}
