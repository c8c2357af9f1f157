"""``fieldwise.imports`` re-exports its public names, sorted, each one defined."""

from __future__ import annotations

import fieldwise.imports


def test_public_names_are_sorted_and_resolve() -> None:
    names = fieldwise.imports.__all__
    assert names == sorted(names)
    for name in names:
        assert getattr(fieldwise.imports, name) is not None
