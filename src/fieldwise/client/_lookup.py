"""Finding a resource by name: names need not be unique in the service, ids are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from fieldwise._errors import ConfigError

__all__ = ["NAME_PAGE", "one_named"]

#: How many matches to ask for: two are enough to tell "one" from "several".
NAME_PAGE = 2


class _Named(Protocol):
    @property
    def id(self) -> str: ...


N = TypeVar("N", bound=_Named)


def one_named(found: Sequence[N], name: str, kind: str) -> N | None:
    """The one ``kind`` named ``name`` among ``found`` (a name-filtered listing), None when
    there is none; a :class:`ConfigError` when several share the name, since taking the
    first would pick one arbitrarily."""
    if len(found) > 1:
        ids = ", ".join(r.id for r in found)
        raise ConfigError(f"several {kind}s are named {name!r} ({ids}); pass an id")
    return found[0] if found else None
