"""HTML through BeautifulSoup/lxml: headings, paragraphs, list items and tables."""

from __future__ import annotations

import io

from fieldwise.service.engines.parsing.errors import LimitExceeded
from fieldwise.service.engines.parsing.limits import Deadline, ParseLimits
from fieldwise.service.engines.parsing.markup import check_markup
from fieldwise.service.engines.parsing.model import Page
from fieldwise.service.engines.parsing.textgrid import Block, layout_blocks

__all__ = ["parse_html"]

_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_BLOCKS = {"p", "li", "div", "dt", "dd", "pre", "blockquote", "caption", "address", "td", "th"}


def parse_html(
    data: bytes, limits: ParseLimits, deadline: Deadline
) -> tuple[tuple[Page, ...], str]:
    """Pages on the text grid and structural Markdown of an HTML document within ``limits``'
    markup bounds (its bytes, then its elements and depth counted in a streaming pass: the
    soup takes about a kilobyte an element)."""
    from bs4 import BeautifulSoup, Tag
    from bs4.element import PreformattedString

    if len(data) > limits.max_markup_bytes:
        raise LimitExceeded(
            "bytes of HTML", len(data), limits.max_markup_bytes, "FIELDWISE_MAX_MARKUP_BYTES"
        )
    check_markup(io.BytesIO(data), limits, deadline, html=True)
    soup = BeautifulSoup(data, "lxml")
    for junk in soup(["script", "style", "noscript", "template", "head"]):
        junk.decompose()
    blocks: list[Block] = []

    def walk(node: Tag) -> None:
        for child in node.children:
            if isinstance(child, PreformattedString):  # comments, doctype, CDATA
                continue
            if not isinstance(child, Tag):
                text = str(child).strip()
                if text:
                    blocks.append(Block("paragraph", text))
                continue
            name = child.name.lower()
            if name in _HEADINGS:
                blocks.append(
                    Block("heading", child.get_text(" ", strip=True), level=_HEADINGS[name])
                )
            elif name == "table":
                rows = tuple(
                    tuple(cell.get_text(" ", strip=True) for cell in tr.find_all(["td", "th"]))
                    for tr in child.find_all("tr")
                )
                rows = tuple(r for r in rows if any(r))
                if rows:
                    blocks.append(Block("table", rows=rows))
            elif name in _BLOCKS and not child.find(["table", *_HEADINGS, "p", "div", "li"]):
                blocks.append(Block("paragraph", child.get_text(" ", strip=True)))
            elif name == "br":
                continue
            else:
                walk(child)

    walk(soup)
    return layout_blocks(blocks, limits)
