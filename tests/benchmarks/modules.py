"""Benchmark scripts (``benchmarks/*.py``) loaded as modules for their tests: the folder is
not a package, and the scripts import each other by bare name (``from _measure import ...``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str) -> ModuleType:
    """``benchmarks/{name}.py``, registered as ``name`` (dataclasses resolve a module's
    annotations through ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
