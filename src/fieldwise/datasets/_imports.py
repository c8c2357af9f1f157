"""``[import.<vendor>]`` of ``dataset.toml``: how a cloud service's field names map onto the
dataset's, overriding the defaults of :mod:`fieldwise.imports` key by key.

``[import.azure] InvoiceTotal = "total"`` maps Azure's ``InvoiceTotal`` onto the field
``total``; a line-item column is named ``"<array>.<column>"`` on both sides
(``"Items.Amount" = "line_items.amount"``); ``""`` ignores a vendor field on purpose, so it is
not listed as unmapped. A target must be a declared field or a declared column of an array.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["IMPORT_VENDORS", "parse_imports"]

#: The services whose outputs ``fieldwise runsets import`` maps by name.
IMPORT_VENDORS = ("azure", "google", "textract")

Problem = Callable[..., None]


def _targets(fields: Mapping[str, Mapping[str, Any]]) -> set[str]:
    names = set(fields)
    for name, spec in fields.items():
        columns = spec.get("columns")
        if isinstance(columns, Mapping):
            names |= {f"{name}.{column}" for column in columns}
    return names


def parse_imports(
    table: Mapping[str, Any], fields: Mapping[str, Mapping[str, Any]], problem: Problem
) -> dict[str, dict[str, str]]:
    """The mapping overrides per vendor; every problem goes to ``problem(message, *toml_path)``."""
    targets = _targets(fields)
    out: dict[str, dict[str, str]] = {}
    for vendor, mapping in table.items():
        if vendor not in IMPORT_VENDORS:
            problem(
                f"unknown vendor [import.{vendor}] (expected one of: {', '.join(IMPORT_VENDORS)})",
                "import",
                vendor,
            )
            continue
        if not isinstance(mapping, dict):
            problem(f"[import.{vendor}] must be a table of vendor field = dataset field", "import")
            continue
        chosen: dict[str, str] = {}
        for source, target in mapping.items():
            if not isinstance(target, str):
                problem(
                    f'[import.{vendor}] {source} must be a field name (or "" to ignore it)',
                    "import",
                    vendor,
                    source,
                )
            elif target and target not in targets:
                problem(
                    f"[import.{vendor}] {source} = {target!r}: no such field or array column "
                    "is declared in [fields]",
                    "import",
                    vendor,
                    source,
                )
            else:
                chosen[str(source)] = target
        out[vendor] = chosen
    return out
