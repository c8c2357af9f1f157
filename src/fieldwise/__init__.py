"""fieldwise: decide, field by field, whether a drafted processor version beats the published.

The main entry points load on first use (PEP 562), so ``import fieldwise`` and
``fieldwise --help`` stay light: ``compare`` (DataFrames or mappings in, a
:class:`~fieldwise.compare.ComparisonResult` out), ``decide``, ``load_policy``,
``default_policy``, ``load_dataset``, ``build_report``, ``write_report``, ``evaluate`` (a
dataset folder end to end) and ``Client`` (the service's HTTP API).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from fieldwise._errors import (
    APIStatusError,
    ClientError,
    CompareError,
    ConfigError,
    DatasetError,
    FieldwiseError,
)

if TYPE_CHECKING:
    from fieldwise._api import compare, evaluate
    from fieldwise.client import Client
    from fieldwise.datasets import load_dataset
    from fieldwise.gate import decide, default_policy, load_policy
    from fieldwise.report import build_report, write_report

__version__ = "0.1.0"

# name -> module it comes from; ``compare`` and ``evaluate`` are the subpackages of the same
# name, made callable (see fieldwise._entry), so the name means one thing however it is reached
_LAZY = {
    "Client": "fieldwise.client",
    "build_report": "fieldwise.report",
    "compare": "",
    "decide": "fieldwise.gate",
    "default_policy": "fieldwise.gate",
    "evaluate": "",
    "load_dataset": "fieldwise.datasets",
    "load_policy": "fieldwise.gate",
    "write_report": "fieldwise.report",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'fieldwise' has no attribute {name!r}")
    if not module:
        return importlib.import_module(f"fieldwise.{name}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "APIStatusError",
    "Client",
    "ClientError",
    "CompareError",
    "ConfigError",
    "DatasetError",
    "FieldwiseError",
    "__version__",
    "build_report",
    "compare",
    "decide",
    "default_policy",
    "evaluate",
    "load_dataset",
    "load_policy",
    "write_report",
]
