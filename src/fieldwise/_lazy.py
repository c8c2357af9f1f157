"""Names of a package that load their module on first use (PEP 562).

A package whose names pull heavy modules (pandas, FastAPI) sets
``__getattr__ = lazy_names(__name__, {"name": "package.module", ...})`` and imports the same
names under ``TYPE_CHECKING`` for the type checker; importing one light submodule then no
longer imports everything its package exports.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` loading each name of ``homes`` from the module it names."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[package], name, value)  # later lookups skip this function
        return value

    return __getattr__
