"""Bound markup before a tree is built: a DOCX archive's inflated size and ratio, and the
elements and nesting of XML or HTML counted in a streaming pass.

python-docx and BeautifulSoup hold a whole document's tree in memory (and python-docx
inflates every part whole), so the bounds are checked first, on what costs little: the
archive's declared sizes (zipfile reads no member past its declared size), then one
``iterparse`` pass per part that keeps no more than the open elements.
"""

from __future__ import annotations

import io
import zipfile
from typing import IO

from fieldwise.service.engines.parsing.errors import CorruptDocument, LimitExceeded
from fieldwise.service.engines.parsing.limits import Deadline, ParseLimits

__all__ = ["check_archive", "check_docx_parts", "check_markup"]

_CHECK_EVERY = 1024  # elements between two looks at the deadline


def check_archive(data: bytes, limits: ParseLimits) -> list[zipfile.ZipInfo]:
    """The members of the ZIP archive ``data`` once its declared inflated size is within
    ``max_markup_bytes`` and ``max_inflation_ratio`` times ``len(data)``; either alone
    refuses it."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise CorruptDocument(f"the DOCX file is corrupt ({exc})") from exc
    inflated = sum(info.file_size for info in members)
    if inflated > limits.max_markup_bytes:
        raise LimitExceeded(
            "bytes this DOCX file inflates to (a likely zip bomb)",
            inflated,
            limits.max_markup_bytes,
            "FIELDWISE_MAX_MARKUP_BYTES",
        )
    if inflated > limits.max_inflation_ratio * len(data):
        raise LimitExceeded(
            f"times this DOCX file inflates ({inflated} bytes from {len(data)}; a likely zip bomb)",
            inflated // len(data),
            limits.max_inflation_ratio,
            "FIELDWISE_MAX_INFLATION_RATIO",
        )
    return members


def check_docx_parts(data: bytes, limits: ParseLimits, deadline: Deadline) -> None:
    """Every XML part of the DOCX ``data`` within the markup bounds (elements counted over all
    parts together); call :func:`check_archive` first."""
    counted = 0
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if not info.filename.endswith((".xml", ".rels")):
                continue
            with archive.open(info) as part:
                counted = check_markup(part, limits, deadline, counted=counted, html=False)


def check_markup(
    stream: IO[bytes],
    limits: ParseLimits,
    deadline: Deadline,
    *,
    counted: int = 0,
    html: bool,
) -> int:
    """Count the elements of the XML (or, ``html``, HTML) in ``stream`` and their depth
    without keeping them; raise :class:`LimitExceeded` past ``max_markup_elements`` (with the
    ``counted`` ones before) or ``max_markup_depth``. Returns the elements counted so far.

    Entities are not resolved and nothing is fetched; malformed XML is left to the reader
    proper (which says what is wrong in its own words)."""
    from lxml import etree

    depth = 0
    events = etree.iterparse(
        stream,
        events=("start", "end"),
        html=html,
        resolve_entities=False,
        no_network=True,
        huge_tree=False,
        recover=html,
    )
    try:
        for event, element in events:
            if event == "end":
                depth -= 1
                # keep nothing read: only the open elements (at most the depth bound) stay
                element.clear(keep_tail=False)
                while element.getprevious() is not None:
                    del element.getparent()[0]
                continue
            depth += 1
            counted += 1
            if depth > limits.max_markup_depth:
                raise LimitExceeded(
                    "levels of nested elements in this document's markup, at least",
                    depth,
                    limits.max_markup_depth,
                    "FIELDWISE_MAX_MARKUP_DEPTH",
                )
            if counted > limits.max_markup_elements:
                raise LimitExceeded(
                    "elements in this document's markup, at least",
                    counted,
                    limits.max_markup_elements,
                    "FIELDWISE_MAX_MARKUP_ELEMENTS",
                )
            if counted % _CHECK_EVERY == 0:
                deadline.check(f"{counted} elements of markup read")
    except etree.XMLSyntaxError as exc:
        if "depth" in str(exc).lower():  # libxml2's own nesting bound, met first
            raise LimitExceeded(
                "levels of nested elements in this document's markup, more than",
                limits.max_markup_depth,
                limits.max_markup_depth,
                "FIELDWISE_MAX_MARKUP_DEPTH",
            ) from exc
        raise CorruptDocument(f"the document's markup is malformed ({exc})") from exc
    return counted
