"""Plain text (kept as laid out) and CSV (a table)."""

from __future__ import annotations

import csv
import io

from fieldwise.service.engines.parsing.errors import CorruptDocument
from fieldwise.service.engines.parsing.markdown import page_markdown
from fieldwise.service.engines.parsing.model import Page
from fieldwise.service.engines.parsing.textgrid import Block, layout_blocks

__all__ = ["decode_text", "parse_csv", "parse_text"]


def decode_text(data: bytes) -> str:
    """Decode UTF-8 (with or without BOM), UTF-16 with BOM, else Latin-1 as a last resort."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            # a pair cut in half is one bad character, not a bad file: safety.py replaces it
            return data.decode("utf-16", errors="surrogatepass")
        except UnicodeDecodeError as exc:
            raise CorruptDocument("the text is not valid UTF-16") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def parse_text(data: bytes) -> tuple[tuple[Page, ...], str]:
    """Every line stays a line; runs of spaces keep columns apart (Markdown finds tables)."""
    text = decode_text(data)
    pages, _ = layout_blocks([Block("raw", line) for line in text.splitlines()])
    return pages, "\n\n".join(m for m in (page_markdown(p) for p in pages) if m)


def parse_csv(data: bytes) -> tuple[tuple[Page, ...], str]:
    """A CSV file as one table (the dialect is sniffed; the first row is the header)."""
    text = decode_text(data)
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], ",;\t|")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = tuple(tuple(row) for row in csv.reader(io.StringIO(text), dialect) if row)
    except csv.Error as exc:
        raise CorruptDocument(f"the CSV file is malformed ({exc})") from exc
    if not rows:
        return layout_blocks([])
    return layout_blocks([Block("table", rows=rows)])
