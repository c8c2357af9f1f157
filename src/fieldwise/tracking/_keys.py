"""MLflow metric keys for fieldwise's figures, and the one rule that makes field names fit.

MLflow accepts keys of letters, digits, ``_ - . /`` (and spaces and colons, which fieldwise
does not use) of at most 250 characters; the ``/`` groups keys in MLflow's UI, so fieldwise
uses it as the separator (``baseline/fields/total/field_accuracy``) and a field name must not
contain one. A field name made only of letters, digits, ``_ - .`` is used as it is. Any other
name (``line_items[].amount``, a name with ``/`` or non-ASCII letters) has each other character
replaced by ``_`` and gets ``-`` and the first 8 hex digits of the SHA-256 of the name appended
(``line_items__.amount-<8 hex>``), so two names that differ only in the replaced characters
still get two keys; the mapping depends on the name alone, never on the other fields.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["MAX_KEY", "field_key", "role_names"]

#: MLflow's longest metric key
MAX_KEY = 250
_PLAIN = re.compile(r"[A-Za-z0-9_.\-]+")
_OTHER = re.compile(r"[^A-Za-z0-9_.\-]")
# room left in a key for "<role>/fields/" before and "/<figure>" after the field's part
_FIELD_ROOM = 160


def field_key(name: str) -> str:
    """The part of a metric key that names field ``name`` (see the module docstring)."""
    if _PLAIN.fullmatch(name) and len(name) <= _FIELD_ROOM:
        return name
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
    return f"{_OTHER.sub('_', name)[: _FIELD_ROOM - 9]}-{digest}"


def role_names(baseline: str, candidates: list[str]) -> dict[str, str]:
    """Version id -> the role that prefixes its metrics: ``baseline``, ``candidate`` and, with
    several candidates, ``candidate_2``, ``candidate_3``… in the order asked. Keys name roles,
    not version ids, so MLflow can chart the same key across runs of new versions."""
    roles = {baseline: "baseline"}
    for n, version in enumerate(candidates, start=1):
        roles[version] = "candidate" if n == 1 else f"candidate_{n}"
    return roles
