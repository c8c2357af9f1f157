"""Country names of many languages from Babel's CLDR data: the last line of a postal address.

A country is the last thing an address prints ("..., 50450 Kuala Lumpur, Malaysia"); a line
after it is a branch's or a mall's name, a registration or the document's own data. The names
of every two-letter territory in the locales the month names use (:data:`.months.LOCALES`),
normalized as labels are (:func:`.labels.norm`). Built once per process on first use.
"""

from __future__ import annotations

import functools
import re

from fieldwise.service.engines.extraction.labels import norm
from fieldwise.service.engines.extraction.months import LOCALES

__all__ = ["ends_with_country"]

_LONGEST = 4  # words of the longest name looked for at a line's end ("Bosnia and Herzegovina")
_WORDS = re.compile(r"[^\s,;]+")


@functools.cache
def _names() -> frozenset[str]:
    from babel import Locale

    names: set[str] = set()
    for code in LOCALES:
        for territory, name in Locale.parse(code).territories.items():
            if len(territory) == 2 and territory.isalpha():  # countries, not "001" regions
                names.add(norm(name))
    return frozenset(n for n in names if n)


def ends_with_country(text: str) -> bool:
    """Whether ``text`` ends with a country's name ("Kuala Lumpur, Malaysia.", "DEUTSCHLAND")."""
    words = _WORDS.findall(text)
    names = _names()
    return any(
        norm(" ".join(words[-count:])) in names for count in range(1, min(_LONGEST, len(words)) + 1)
    )
