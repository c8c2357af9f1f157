"""Public names are re-exported with a sorted ``__all__`` that resolves."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize(
    "module", ["fieldwise.service.engines.parsing", "fieldwise.service.engines.extraction"]
)
def test_all_is_sorted_and_resolves(module: str) -> None:
    mod = importlib.import_module(module)

    # isort-style order (what ruff's RUF022 keeps): CONSTANTS, Classes, functions
    def key(name: str) -> tuple[bool, bool, str]:
        return (not name.isupper(), not name[0].isupper(), name)

    assert mod.__all__ == sorted(mod.__all__, key=key)
    for name in mod.__all__:
        assert getattr(mod, name) is not None
