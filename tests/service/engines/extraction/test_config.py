"""Config validation: valid configs become dataclasses; errors name the bad key."""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction import ExtractionConfig, validate_config

GOOD: dict[str, Any] = {
    "label_threshold": 80,
    "date_order": "MDY",
    "fields": [
        {
            "name": "invoice_number",
            "type": "string",
            "labels": ["Invoice No"],
            "pattern": "INV-\\d+",
        },
        {"name": "total", "type": "currency", "labels": ["Total"], "position": "right"},
        {"name": "currency", "type": "enum", "values": ["EUR", "USD"], "labels": "Currency"},
        {
            "name": "line_items",
            "type": "array",
            "columns": {"description": ["Description"], "amount": ["Amount"]},
            "column_types": {"amount": "currency"},
        },
        {"name": "seller.name", "type": "string", "labels": ["Seller"]},
    ],
}


def test_valid_config() -> None:
    config = validate_config(GOOD)
    assert isinstance(config, ExtractionConfig)
    assert config.label_threshold == 80.0
    assert config.date_order == "MDY"
    assert config.fields[2].labels == ("Currency",)
    items = config.fields[3]
    assert [(c.name, c.type) for c in items.columns] == [
        ("description", "string"),
        ("amount", "currency"),
    ]


def _with_field(index: int, **changes: Any) -> dict[str, Any]:
    fields = [dict(f) for f in GOOD["fields"]]
    fields[index].update(changes)
    return {**GOOD, "fields": fields}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (_with_field(2, type="foo"), "fields[2].type: unknown type 'foo'"),
        (_with_field(0, pattern="(["), "fields[0].pattern: invalid regular expression"),
        (_with_field(1, position="left"), "fields[1].position"),
        (_with_field(1, lables=["x"]), "fields[1].lables: unknown key"),
        (_with_field(2, values=[]), "fields[2].values: an enum needs at least one value"),
        (_with_field(3, columns={}), "fields[3].columns"),
        (_with_field(3, column_types={"qty": "number"}), "fields[3].column_types.qty"),
        (_with_field(4, name="total"), "fields[4].name: 'total' duplicates"),
        (_with_field(1, labels=["ok", 3]), "fields[1].labels[1]"),
        ({**GOOD, "label_threshold": 120}, "label_threshold: 120 is outside 0..100"),
        ({**GOOD, "date_order": "DDD"}, "date_order"),
        ({**GOOD, "fields": []}, "fields: a rules engine needs at least one field"),
        ({**GOOD, "colour": "red"}, "colour: unknown key"),
        ({"engine": "python", "entrypoint": "x.y:f"}, "engine: python engines are disabled"),
    ],
)
def test_errors_name_the_key(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        validate_config(raw)
    assert message in str(info.value)


def test_python_engine_needs_permission_and_an_entrypoint() -> None:
    config = validate_config({"engine": "python", "entrypoint": "pkg.mod:fn"}, allow_python=True)
    assert (config.engine, config.entrypoint) == ("python", "pkg.mod:fn")
    with pytest.raises(ConfigError, match=r"entrypoint: expected 'package\.module:function'"):
        validate_config({"engine": "python", "entrypoint": "pkg.mod"}, allow_python=True)
