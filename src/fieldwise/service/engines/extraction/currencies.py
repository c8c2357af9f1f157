"""Currency codes from Babel's CLDR data: every code some territory uses today.

A currency field that lists no ``values`` (an enum with ``"vocabulary": "currency"``)
accepts any code in :func:`current_codes` instead of a list typed into the config or here: an
invoice in INR, ISK or NGN is read as such. Historical codes (DEM, FRF ...) are not current
legal tender anywhere, so a config that needs them lists its values itself.
"""

from __future__ import annotations

import functools

__all__ = ["current_codes"]


@functools.cache
def current_codes() -> tuple[str, ...]:
    """ISO 4217 codes that some territory uses as legal tender today, sorted."""
    from babel.core import get_global
    from babel.numbers import get_territory_currencies

    territories = get_global("territory_currencies")
    return tuple(sorted({c for t in territories for c in get_territory_currencies(t)}))
