"""The versioned extraction engine: what a processor version's ``config`` means.

- :func:`validate_config` turns a raw config into an :class:`ExtractionConfig` (or raises
  :class:`fieldwise._errors.ConfigError` naming the bad key).
- :func:`extract` runs it over a
  :class:`~fieldwise.service.engines.parsing.ParsedDocument` and returns
  the "Processor run output" ``{"value": ..., "metadata": ...}``; a field pattern that
  runs past its time budget raises :class:`PatternTimeout`.
- :func:`extract_key_values` is the generic "Label: value" extraction used without a processor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fieldwise._lazy import lazy_names

if TYPE_CHECKING:
    from fieldwise.service.engines.extraction.config import (
        COLUMN_TYPES,
        FIELD_TYPES,
        ColumnSpec,
        ExtractionConfig,
        FieldSpec,
        validate_config,
    )
    from fieldwise.service.engines.extraction.engine import extract
    from fieldwise.service.engines.extraction.generic import extract_key_values
    from fieldwise.service.engines.extraction.normalize import parse_amount, parse_date
    from fieldwise.service.engines.extraction.patterns import PatternTimeout
    from fieldwise.service.engines.extraction.python_engine import ExtractionError

__all__ = [
    "COLUMN_TYPES",
    "FIELD_TYPES",
    "ColumnSpec",
    "ExtractionConfig",
    "ExtractionError",
    "FieldSpec",
    "PatternTimeout",
    "extract",
    "extract_key_values",
    "parse_amount",
    "parse_date",
    "validate_config",
]

#: Where each public name lives. They load on first use, not with the package: the engine,
#: its vocabularies and patterns take a few hundred milliseconds to import, which a service
#: that runs no extraction (an embedded ``fieldwise sync``) must not pay at start-up.
_HOMES = {
    "COLUMN_TYPES": f"{__name__}.config",
    "FIELD_TYPES": f"{__name__}.config",
    "ColumnSpec": f"{__name__}.config",
    "ExtractionConfig": f"{__name__}.config",
    "ExtractionError": f"{__name__}.python_engine",
    "FieldSpec": f"{__name__}.config",
    "PatternTimeout": f"{__name__}.patterns",
    "extract": f"{__name__}.engine",
    "extract_key_values": f"{__name__}.generic",
    "parse_amount": f"{__name__}.normalize",
    "parse_date": f"{__name__}.normalize",
    "validate_config": f"{__name__}.config",
}


__getattr__ = lazy_names(__name__, _HOMES)
