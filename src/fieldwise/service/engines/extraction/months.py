"""Month names of many languages from Babel's CLDR data, not from hand-typed tables.

Wide and abbreviated names, in format and stand-alone forms, of English, German (and
Austrian German: "Jänner"), French, Dutch, Spanish, Italian, Portuguese and Malay, lower-case
and without their dots; an abbreviation that means different months in two languages is
left out rather than guessed. Built once per process on first use.
"""

from __future__ import annotations

import functools
import unicodedata

__all__ = ["LOCALES", "month_number"]

LOCALES = ("en", "de", "de_AT", "fr", "nl", "es", "it", "pt", "ms")
# CLDR gives "Sep" for September in English only as "Sep"; documents also print "Sept"
_EXTRA_FORMS = ("sept",)


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).lower().strip(".").strip()


@functools.cache
def _table() -> dict[str, int]:
    from babel import Locale

    seen: dict[str, set[int]] = {}
    for code in LOCALES:
        locale = Locale.parse(code)
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for number, name in locale.months[context][width].items():
                    seen.setdefault(_key(name), set()).add(int(number))
    table = {name: next(iter(months)) for name, months in seen.items() if len(months) == 1}
    for form in _EXTRA_FORMS:
        table.setdefault(form, 9)
    # ASCII spellings of umlauts, as typed on keyboards without them ("Maerz")
    for name, number in list(table.items()):
        folded = name.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
        table.setdefault(folded, number)
    return table


def month_number(name: str) -> int | None:
    """1..12 for a month name or abbreviation in any of :data:`LOCALES`, else None."""
    return _table().get(_key(name))
