"""DOCX through python-docx: headings, paragraphs and tables in body order."""

from __future__ import annotations

import io
import zipfile

from fieldwise.service.engines.parsing.errors import CorruptDocument
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


# python-docx inflates every part in memory: refuse archives that would inflate past this
# (zipfile stops reading a member at its declared size, so the declared sizes bound the work).
MAX_INFLATED_BYTES = 64 * 1024 * 1024
MAX_INFLATION_RATIO = 100


def _check_inflated_size(data: bytes) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            inflated = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise CorruptDocument(f"the DOCX file is corrupt ({exc})") from exc
    if inflated > MAX_INFLATED_BYTES and inflated > MAX_INFLATION_RATIO * len(data):
        raise CorruptDocument(
            f"the DOCX file would inflate to {inflated} bytes "
            f"(limit {MAX_INFLATED_BYTES}): refused as a likely zip bomb"
        )


def parse_docx(data: bytes) -> tuple[tuple[Page, ...], str]:
    """Pages on the text grid and structural Markdown of a DOCX document."""
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    _check_inflated_size(data)
    try:
        document = docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise CorruptDocument(f"the DOCX file is corrupt ({exc})") from exc
    except Exception as exc:  # lxml and python-docx raise many kinds on damaged parts
        raise CorruptDocument(f"the DOCX file is corrupt ({type(exc).__name__})") from exc
    blocks: list[Block] = []
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            level = _heading_level(item.style.name if item.style is not None else "")
            if level is not None:
                blocks.append(Block("heading", item.text, level=level))
            else:
                blocks.append(Block("paragraph", item.text))
        elif isinstance(item, Table):
            rows = tuple(tuple(cell.text for cell in row.cells) for row in item.rows)
            blocks.append(Block("table", rows=rows))
    return layout_blocks(blocks)
