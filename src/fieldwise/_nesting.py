"""Parse TOML and JSON that someone else wrote, bounded in how deep it nests.

``tomllib`` and ``json`` recurse once per level: a ``dataset.toml`` of a hundred thousand
nested brackets ended in a ``RecursionError`` traceback. A text that nests deeper than the
interpreter's stack is a :class:`TooDeep` here, and so is one that parses but nests deeper than
:data:`MAX_DEPTH`, since what reads the value next (checks, hashing, the wire) recurses too.
No dataset, policy or processor config comes near the bound: ground truth nests
record → field → object → line items → row → cell.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from typing import Any

__all__ = ["MAX_DEPTH", "TooDeep", "loads_json", "loads_toml", "too_deep"]

#: Levels of tables, objects and arrays a parsed text may nest.
MAX_DEPTH = 64


class TooDeep(ValueError):
    """The text nests deeper than :data:`MAX_DEPTH` levels."""

    def __init__(self) -> None:
        super().__init__(f"nested more than {MAX_DEPTH} levels deep")


def loads_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads``, raising :class:`TooDeep` for a text nested too deeply."""
    data: dict[str, Any] = _bounded(tomllib.loads, text)
    return data


def loads_json(text: str | bytes) -> Any:
    """``json.loads``, raising :class:`TooDeep` for a text nested too deeply."""
    return _bounded(json.loads, text)


def _bounded(parse: Callable[[Any], Any], text: str | bytes) -> Any:
    try:
        value = parse(text)
    except RecursionError:
        raise TooDeep from None
    if too_deep(value):
        raise TooDeep
    return value


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests dicts and lists more than ``limit`` levels (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
