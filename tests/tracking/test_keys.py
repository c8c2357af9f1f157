"""Metric keys: field names MLflow accepts stay as they are; any other becomes a valid key
that depends on the name alone and differs from every other name's."""

from __future__ import annotations

import re

import fieldwise.tracking
from fieldwise.tracking import field_key, role_names

_VALID = re.compile(r"[A-Za-z0-9_.\-]{1,160}")


def test_plain_names_are_kept() -> None:
    for name in ("total", "invoice_number", "vendor.address.city", "due-date"):
        assert field_key(name) == name


def test_other_names_become_valid_distinct_keys() -> None:
    names = ["line_items[].amount", "line_items__.amount", "a/b", "a b", "Straße", "x" * 400]
    keys = [field_key(n) for n in names]
    assert all(_VALID.fullmatch(k) for k in keys), keys
    assert len(set(keys)) == len(keys)
    assert keys[0].startswith("line_items__.amount-")
    # the plain name that looks like the replaced one keeps its own key
    assert keys[1] == "line_items__.amount"
    assert [field_key(n) for n in names] == keys


def test_roles_follow_the_order_asked() -> None:
    assert role_names("v0", ["v2", "v1", "v3"]) == {
        "v0": "baseline",
        "v2": "candidate",
        "v1": "candidate_2",
        "v3": "candidate_3",
    }


def test_every_public_name_resolves() -> None:
    # (ruff's RUF022 keeps __all__ sorted)
    missing = [n for n in fieldwise.tracking.__all__ if not hasattr(fieldwise.tracking, n)]
    assert missing == []
