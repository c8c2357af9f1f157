"""DOCX through python-docx: headings, paragraphs and tables in body order."""

from __future__ import annotations

import io
import zipfile

from fieldwise.service.engines.parsing.errors import CorruptDocument
from fieldwise.service.engines.parsing.limits import Deadline, ParseLimits
from fieldwise.service.engines.parsing.markup import check_archive, check_docx_parts
from fieldwise.service.engines.parsing.model import Page
from fieldwise.service.engines.parsing.textgrid import Block, layout_blocks

__all__ = ["parse_docx"]


def _heading_level(style_name: str) -> int | None:
    if style_name == "Title":
        return 1
    if style_name.startswith("Heading"):
        suffix = style_name.removeprefix("Heading").strip()
        return min(int(suffix), 6) if suffix.isdigit() else 1
    return None


def parse_docx(
    data: bytes, limits: ParseLimits, deadline: Deadline
) -> tuple[tuple[Page, ...], str]:
    """Pages on the text grid and structural Markdown of a DOCX document, once its parts are
    within ``limits``' markup bounds (see :mod:`.markup`)."""
    import docx
    from docx.enum.style import WD_STYLE_TYPE
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    check_archive(data, limits)
    check_docx_parts(data, limits, deadline)
    try:
        document = docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise CorruptDocument(f"the DOCX file is corrupt ({exc})") from exc
    except Exception as exc:  # lxml and python-docx raise many kinds on damaged parts
        raise CorruptDocument(f"the DOCX file is corrupt ({type(exc).__name__})") from exc
    # Paragraph.style looks the default style up among all styles on every call (5 ms a
    # paragraph with the default template): name each style once.
    paragraph = WD_STYLE_TYPE.PARAGRAPH
    names = {s.style_id: s.name or "" for s in document.styles if s.type == paragraph}
    default = document.styles.default(paragraph)
    default_name = (default.name or "") if default is not None else ""
    blocks: list[Block] = []
    for number, item in enumerate(document.iter_inner_content()):
        if number % 1024 == 0:
            deadline.check(f"{number} paragraphs and tables read")
        if isinstance(item, Paragraph):
            style_id = item._p.style
            name = default_name if style_id is None else names.get(style_id, default_name)
            level = _heading_level(name)
            if level is not None:
                blocks.append(Block("heading", item.text, level=level))
            else:
                blocks.append(Block("paragraph", item.text))
        elif isinstance(item, Table):
            rows = tuple(tuple(cell.text for cell in row.cells) for row in item.rows)
            blocks.append(Block("table", rows=rows))
    return layout_blocks(blocks, limits)
