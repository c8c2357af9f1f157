"""The database's JSON reader: a stored lone UTF-16 surrogate can never break a read.

A lone surrogate (``"\\ud800"`` in JSON) decodes to a Python string no UTF-8 encoder accepts;
the edge refuses them (:mod:`fieldwise.service.http.unicode`), and whatever was stored before
(or by a path that does not check) is read back with U+FFFD in its place.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = [
    "LONE_SURROGATE",
    "REPLACEMENT",
    "SURROGATE_ESCAPE",
    "safe_json_loads",
    "scrub_surrogates",
]

#: One half of a surrogate pair (a valid pair decodes to one code point above U+FFFF).
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"
#: A JSON escape of one (the cheap test before decoding a body again to find it).
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def scrub_surrogates(value: Any) -> Any:
    """``value`` with every lone surrogate (in strings and keys) replaced by U+FFFD."""
    if isinstance(value, str):
        return LONE_SURROGATE.sub(REPLACEMENT, value)
    if isinstance(value, dict):
        return {scrub_surrogates(k): scrub_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_surrogates(v) for v in value]
    return value


def safe_json_loads(data: str | bytes | bytearray | memoryview) -> Any:
    """``json.loads`` that never hands back a lone surrogate (the database's JSON reader)."""
    raw = bytes(data) if isinstance(data, memoryview | bytearray) else data
    value = json.loads(raw)
    probe = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    return scrub_surrogates(value) if SURROGATE_ESCAPE.search(probe) else value
