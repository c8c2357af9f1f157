"""fieldwise: decide, field by field, whether a drafted processor version beats the published."""

from __future__ import annotations

from fieldwise.errors import (
    APIStatusError,
    ClientError,
    CompareError,
    ConfigError,
    DatasetError,
    FieldwiseError,
)

__version__ = "0.1.0"

__all__ = [
    "APIStatusError",
    "ClientError",
    "CompareError",
    "ConfigError",
    "DatasetError",
    "FieldwiseError",
    "__version__",
]
