"""Subpackages that double as the top-level function of the same name.

``fieldwise.compare`` and ``fieldwise.evaluate`` are packages, and ``import fieldwise`` also
offers ``compare(...)`` and ``evaluate(...)``. Python sets a package attribute to its
subpackage whenever the subpackage is imported, so a plain function of that name would be
replaced; instead the subpackage itself is made callable and calls the function.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

__all__ = ["make_callable"]


class _CallableModule(types.ModuleType):
    """A module whose call is its ``__entry__`` function (``"module:attribute"``)."""

    __entry__: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        module, attribute = self.__entry__.split(":")
        return getattr(importlib.import_module(module), attribute)(*args, **kwargs)


def make_callable(name: str, entry: str) -> None:
    """Make the already imported module ``name`` callable as ``entry`` (``"module:attr"``)."""
    module = sys.modules[name]
    module.__class__ = _CallableModule
    module.__entry__ = entry  # type: ignore[attr-defined]
