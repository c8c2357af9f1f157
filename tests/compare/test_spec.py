"""Field specs from dataset.toml tables: defaults, overrides and every kind of bad input."""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise._errors import ConfigError
from fieldwise.compare import FieldSpec, parse_field_specs


def test_defaults_and_overrides() -> None:
    specs = parse_field_specs(
        {
            "total": {"type": "currency", "critical": True, "weight": 2},
            "name": {"type": "text", "threshold": 0.8, "case_sensitive": True},
            "issued": {"type": "date"},
            "status": {"type": "enum", "values": ["paid", "open"]},
        },
        date_order="DMY",
    )
    assert list(specs) == ["issued", "name", "status", "total"]
    assert specs["total"] == FieldSpec(
        name="total", type="currency", critical=True, weight=2.0, atol=0.005, date_order="DMY"
    )
    assert specs["name"].threshold == 0.8
    assert specs["name"].case_sensitive is True
    assert specs["issued"].date_order == "DMY"
    assert specs["status"].values == ("paid", "open")


def test_array_columns_inherit_date_order_and_fall_back_to_string() -> None:
    specs = parse_field_specs(
        {
            "line_items": {
                "type": "array",
                "date_order": "MDY",
                "columns": {"amount": {"type": "currency"}, "shipped": {"type": "date"}},
            }
        }
    )
    items = specs["line_items"]
    assert [c.name for c in items.columns] == ["amount", "shipped"]
    assert items.column("shipped").date_order == "MDY"
    assert items.column("description").type == "string"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"type": "number", "tolerance": 1}, "fields.f] unknown key 'tolerance'"),
        ({"type": "bogus"}, "key 'type': unknown type 'bogus'"),
        ({"critical": True}, "missing key 'type'"),
        ({"type": "text", "threshold": 1.5}, "key 'threshold' must be in [0, 1]"),
        ({"type": "number", "atol": "0.1"}, "key 'atol' must be a number"),
        ({"type": "number", "atol": True}, "key 'atol' must be a number"),
        ({"type": "number", "rtol": -0.1}, "key 'rtol' must not be negative"),
        ({"type": "string", "critical": "yes"}, "key 'critical' must be true or false"),
        ({"type": "enum", "values": "a,b"}, "key 'values' must be a list of strings"),
        ({"type": "date", "date_order": "DYM"}, "key 'date_order' must be one of"),
        ({"type": "string", "columns": {}}, "key 'columns' is only for type 'array'"),
        ({"type": "array", "columns": {"x": {"type": "nope"}}}, "fields.f.columns.x] key 'type'"),
        ("number", "[fields.f] must be a table"),
    ],
)
def test_bad_input_names_field_and_key(table: Any, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_field_specs({"f": table}, source="data/dataset.toml")
    assert message in str(info.value)
    assert str(info.value).startswith("data/dataset.toml: ")


def test_bad_dataset_date_order() -> None:
    with pytest.raises(ConfigError, match="date_order"):
        parse_field_specs({}, date_order="XYZ")


def test_field_types_are_listed_only_in_compare_spec() -> None:
    """One home for the field types (issue 37): outside ``service/`` (whose extraction engine
    has a vocabulary of its own), no module but ``compare/_spec.py`` spells the list; a
    dataset.toml check reads it from there, so a new type needs no second edit."""
    import ast
    from pathlib import Path

    import fieldwise
    from fieldwise.compare import FIELD_TYPES

    root = Path(fieldwise.__file__).parent
    listed = []
    for path in sorted(root.rglob("*.py")):
        if "service" in path.relative_to(root).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Tuple | ast.List | ast.Set):
                names = {e.value for e in node.elts if isinstance(e, ast.Constant)}
                if len(names & set(FIELD_TYPES)) >= 6:  # (__all__ names five comparators)
                    listed.append(str(path.relative_to(root)))
    assert listed == ["compare/_spec.py"]
