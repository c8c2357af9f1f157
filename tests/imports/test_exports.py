"""``fieldwise.imports`` re-exports its public names, each one defined, in the order the rest
of fieldwise keeps (ruff's RUF022: constants, then classes, then functions, each sorted)."""

from __future__ import annotations

import fieldwise.imports


def _kind(name: str) -> int:
    return 0 if name.isupper() else 1 if name[0].isupper() else 2


def test_public_names_are_sorted_and_resolve() -> None:
    names = fieldwise.imports.__all__
    assert names == sorted(names, key=lambda n: (_kind(n), n))
    for name in names:
        assert getattr(fieldwise.imports, name) is not None
