"""Public names of an engine package, imported from their module on first use.

The engines import PDF, image, OCR and machine-learning libraries that take seconds to load;
a service that only answers requests (the embedded one a ``fieldwise sync`` starts) uses none
of them. A package lists where each such name lives and sets ``__getattr__ = lazy_names(...)``
(PEP 562); ``from package import name`` still works, and loads the module then.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``homes`` maps a name to its submodule."""

    def load(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{home}"), name)

    return load
