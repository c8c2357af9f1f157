"""Plain text (kept as laid out) and CSV (a table)."""

from __future__ import annotations

import csv
import io

from fieldwise.service.engines.parsing.errors import CorruptDocument, LimitExceeded
from fieldwise.service.engines.parsing.limits import ParseLimits
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


def parse_text(data: bytes, limits: ParseLimits | None = None) -> tuple[tuple[Page, ...], str]:
    """Every line stays a line; runs of spaces keep columns apart (Markdown finds tables).
    Past ``limits``' pages or words it is refused before it is laid out."""
    text = decode_text(data)
    pages, _ = layout_blocks([Block("raw", line) for line in text.splitlines()], limits)
    return pages, "\n\n".join(m for m in (page_markdown(p) for p in pages) if m)


def parse_csv(data: bytes, limits: ParseLimits | None = None) -> tuple[tuple[Page, ...], str]:
    """A CSV file as one table (the dialect is sniffed; the first row is the header).

    Refused with :class:`LimitExceeded` as soon as a row has more than ``max_csv_columns``
    columns or the table as laid out (rows x widest row) more than ``max_csv_cells`` cells,
    before the rest is read.
    """
    limits = limits or ParseLimits()
    text = decode_text(data)
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], ",;\t|")
    except csv.Error:
        dialect = csv.excel
    rows: list[tuple[str, ...]] = []
    width = 0
    try:
        for row in csv.reader(io.StringIO(text), dialect):
            if not row:
                continue
            if len(row) > limits.max_csv_columns:
                raise LimitExceeded(
                    "CSV columns in a row",
                    len(row),
                    limits.max_csv_columns,
                    "FIELDWISE_MAX_CSV_COLUMNS",
                )
            rows.append(tuple(row))
            width = max(width, len(row))
            if width * len(rows) > limits.max_csv_cells:
                raise LimitExceeded(
                    "CSV cells (rows x widest row)",
                    width * len(rows),
                    limits.max_csv_cells,
                    "FIELDWISE_MAX_CSV_CELLS",
                )
    except csv.Error as exc:
        raise CorruptDocument(f"the CSV file is malformed ({exc})") from exc
    if not rows:
        return layout_blocks([])
    return layout_blocks([Block("table", rows=tuple(rows))], limits)
