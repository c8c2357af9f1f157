from __future__ import annotations

import json

import pytest

import fieldwise.datasets
import fieldwise.datasets.generate
from fieldwise.datasets.generate._files import processor_configs
from fieldwise.service.engines.extraction import validate_config


@pytest.mark.parametrize("module", [fieldwise.datasets, fieldwise.datasets.generate])
def test_public_names_are_sorted_and_exist(module: object) -> None:
    names = module.__all__  # type: ignore[attr-defined]
    # ruff's RUF022 order: CONSTANTS, then Classes, then functions, each alphabetical.
    assert names == sorted(
        names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n)
    )
    for name in names:
        assert hasattr(module, name)


@pytest.mark.parametrize("kind", ["invoices", "receipts"])
def test_generated_processor_configs_are_valid_engine_configs(kind: str) -> None:
    baseline, candidate = processor_configs(kind)
    for text in (baseline, candidate):
        config = validate_config(json.loads(text))
        assert config.fields
