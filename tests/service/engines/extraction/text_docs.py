"""Generated text documents for the extraction tests: lines in, the engine's values out."""

from __future__ import annotations

from typing import Any

from fieldwise.service.engines.extraction import ExtractionConfig, extract, validate_config
from fieldwise.service.engines.parsing import parse_document

# a receipt's header: the shop's name and its address under it
HEADER_CONFIG = validate_config(
    {
        "date_order": "DMY",
        "fields": [
            {"name": "company", "type": "string", "strategy": "seller"},
            {"name": "address", "type": "string", "strategy": "address"},
        ],
    }
)


def read_lines(config: ExtractionConfig, *lines: str) -> dict[str, Any]:
    """The values ``config`` extracts from a text document of ``lines``."""
    text = "\n".join(lines) + "\n"
    values: dict[str, Any] = extract(parse_document(text.encode(), filename="doc.txt"), config)[
        "value"
    ]
    return values
