"""Line-item tables as columns of cells, and the generic features of each column.

The rows come from the rule engine's table detector (:func:`read_table`, skipping
sub-lines): first with the field's own column labels, else with :data:`HEADER_WORDS`, a
built-in vocabulary of line-item headers in the engine's languages. Each row's lines are
split into cells at wide gaps, and each cell joins the header cell above it (overlap, else
the nearest centre). A column's features say nothing about any one document: how its
header reads (against the vocabulary and the field's own column labels), what its cells
look like (amounts, integers, text), where it is, and whether its numbers agree across the
row (quantity x unit price = amount).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from rapidfuzz import fuzz

from fieldwise.service.engines.extraction import (
    ColumnSpec,
    ExtractionConfig,
    FieldSpec,
    parse_amount,
)
from fieldwise.service.engines.extraction.labels import norm
from fieldwise.service.engines.extraction.tables import Table, read_table
from fieldwise.service.engines.parsing import Box, Line, ParsedDocument, Word, split_cells

__all__ = ["GENERIC_FEATURES", "HEADER_WORDS", "Column", "LineTable", "column_features", "read"]

#: Line-item header words by concept, in English, German, French, Dutch, Spanish, Italian
#: and Portuguese: words of the languages, not of any document.
HEADER_WORDS: dict[str, tuple[str, ...]] = {
    "description": (
        "Description", "Item", "Article", "Product", "Service", "Details", "Designation",
        "Beschreibung", "Bezeichnung", "Artikel", "Leistung", "Produkt", "Artikelbezeichnung",
        "Désignation", "Libellé", "Produit", "Omschrijving", "Beschrijving", "Descripción",
        "Concepto", "Artículo", "Producto", "Descrizione", "Articolo", "Prodotto",
        "Descrição", "Artigo", "Produto",
    ),
    "quantity": (
        "Qty", "Quantity", "Hours", "Units", "Pcs", "Menge", "Anzahl", "Stück", "Stk",
        "Quantité", "Qté", "Aantal", "Hoeveelheid", "Cantidad", "Cant", "Quantità", "Qtà",
        "Quantidade", "Qtd",
    ),
    "unit_price": (
        "Unit price", "Price", "Rate", "Unit cost", "Einzelpreis", "Preis", "Stückpreis",
        "E-Preis", "Prix unitaire", "Prix", "PU", "Prijs", "Stukprijs", "Eenheidsprijs",
        "Precio unitario", "Precio", "Prezzo unitario", "Prezzo", "Preço unitário", "Preço",
    ),
    "amount": (
        "Amount", "Total", "Line total", "Net amount", "Net", "Betrag", "Gesamtpreis",
        "Gesamt", "Summe", "Nettobetrag", "Montant", "Montant HT", "Bedrag", "Totaal",
        "Importe", "Importo", "Totale", "Valor", "Valor total",
    ),
    "position": ("Pos", "Position", "No", "Nr", "#", "Line", "Ligne", "Regel", "Línea", "Riga"),
    "unit": ("Unit", "UoM", "Einheit", "Unité", "Eenheid", "Unidad", "Unità", "Unidade"),
    "tax": ("VAT", "Tax", "MwSt", "USt", "TVA", "BTW", "IVA", "VAT %", "Tax rate", "Steuer"),
}  # fmt: skip
_HEADER_TYPES = {"quantity": "number", "unit_price": "currency", "amount": "currency"}

GENERIC_FEATURES = (
    "position", "first", "last", "columns", "x_centre", "filled", "numeric", "integer",
    "decimals", "letters", "words", "log_size", "size_rank", "product", "factor",
    "integer_factor", "percent", "no_header",
    *(f"header_{c}" for c in HEADER_WORDS),
)  # fmt: skip
_DECIMALS = re.compile(r"[.,]\d{2}\b")


@dataclass(frozen=True)
class Column:
    """One column: its header text and box, and each row's cell text ("" when empty)."""

    header: str
    box: Box
    cells: tuple[str, ...]


@dataclass(frozen=True)
class LineTable:
    """A detected table: its page, header line, columns, and each row's source text."""

    page: int
    header_text: str
    columns: tuple[Column, ...]
    rows: tuple[str, ...]
    page_width: float


def _vocabulary_spec(name: str) -> FieldSpec:
    columns = tuple(
        ColumnSpec(c, words, _HEADER_TYPES.get(c, "string"))
        for c, words in HEADER_WORDS.items()
        if c in ("description", "quantity", "unit_price", "amount")
    )
    return FieldSpec(name, "array", columns=columns, sub_lines="skip", cells="gaps")


def _table(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> Table | None:
    # sub-lines ("Pos. 01 · article 34825" under a row) are no part of any cell
    for wanted in (replace(spec, sub_lines="skip"), _vocabulary_spec(spec.name)):
        table = read_table(doc, wanted, config)
        if table is not None and table.rows:
            return table
    return None


def _row_lines(lines: Sequence[Line], table: Table) -> tuple[int, list[list[Line]]] | None:
    """The header line's index and each row's lines, found back by their text."""
    header = next((i for i, line in enumerate(lines) if line.text == table.header_text), None)
    if header is None:
        return None
    out: list[list[Line]] = []
    at = header + 1
    for row in table.rows:
        wanted = row.text.split("\n")
        while at < len(lines) and lines[at].text != wanted[0]:
            at += 1  # a sub-line the detector skipped
        taken = [line for line in lines[at : at + len(wanted)] if line.text in wanted]
        if not taken:
            return None
        out.append(taken)
        at += len(wanted)
    return header, out


def _nearest(box: Box, boxes: Sequence[Box]) -> int:
    def rank(i: int) -> tuple[float, float]:
        other = boxes[i]
        overlap = min(other.x1, box.x1) - max(other.x0, box.x0)
        return (-max(overlap, 0.0), abs((other.x0 + other.x1) / 2 - (box.x0 + box.x1) / 2))

    return min(range(len(boxes)), key=rank)


def _union(words: Sequence[Word]) -> Box:
    box = words[0].box
    for word in words[1:]:
        box = box.union(word.box)
    return box


def read(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> LineTable | None:
    """The array field's table as columns of cells, or None when no table is found."""
    table = _table(doc, spec, config)
    if table is None:
        return None
    page = doc.pages[table.page]
    found = _row_lines(page.lines, table)
    if found is None:
        return None
    header_index, rows = found
    header_cells = split_cells(page.lines[header_index])
    boxes = [_union(cell) for cell in header_cells]
    texts: list[list[list[str]]] = [[[] for _ in rows] for _ in boxes]
    for r, row_lines in enumerate(rows):
        for line in row_lines:
            for cell in split_cells(line):
                j = _nearest(_union(cell), boxes)
                texts[j][r].append(" ".join(w.text for w in cell))
    columns = tuple(
        Column(
            " ".join(w.text for w in header_cells[j]),
            boxes[j],
            tuple(" ".join(parts) for parts in texts[j]),
        )
        for j in range(len(boxes))
    )
    row_texts = tuple("\n".join(line.text for line in lines) for lines in rows)
    width = max((w.box.x1 for line in page.lines for w in line.words), default=1.0)
    return LineTable(table.page, table.header_text, columns, row_texts, max(width, 1.0))


def header_score(header: str, labels: Sequence[str]) -> float:
    """How well a header cell reads as one of ``labels`` (0..1, fuzzy, normalized)."""
    text = norm(header)
    if not text:
        return 0.0
    return max((fuzz.ratio(text, norm(label)) / 100.0 for label in labels), default=0.0)


def number(text: str) -> float | None:
    """The cell's amount or count (percentages are not), or None."""
    parsed = parse_amount(text) if text else None
    return None if parsed is None else float(parsed.value)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= max(0.011, 0.002 * abs(b))


def _agreement(nums: list[list[float | None]], j: int) -> tuple[float, float, float]:
    """Share of rows where column ``j`` is a product of two others, a factor of one, and an
    integer factor."""
    rows = len(nums[0]) if nums else 0
    product = factor = integer = 0
    others = [k for k in range(len(nums)) if k != j]
    for r in range(rows):
        v = nums[j][r]
        if v is None:
            continue
        vals = [x for x in (nums[k][r] for k in others) if x is not None]
        pairs = [(a, b) for i, a in enumerate(vals) for b in vals[i + 1 :]]
        if any(_close(a * b, v) for a, b in pairs):
            product += 1
        if any(_close(v * a, b) or _close(v * b, a) for a, b in pairs):
            factor += 1
            integer += int(float(v).is_integer())
    return product / max(rows, 1), factor / max(rows, 1), integer / max(rows, 1)


def column_features(table: LineTable, own: Sequence[Sequence[str]]) -> np.ndarray:
    """One row of features per column: :data:`GENERIC_FEATURES`, then the header's score
    against each of the field's own columns' labels (``own``, in spec order)."""
    n = len(table.columns)
    nums = [[number(text) for text in c.cells] for c in table.columns]
    means = [
        float(np.mean([abs(v) for v in col if v is not None]))
        if any(v is not None for v in col)
        else -1.0
        for col in nums
    ]
    numeric_means = sorted(m for m in means if m >= 0)
    out = []
    for j, column in enumerate(table.columns):
        filled = [t for t in column.cells if t]
        count = max(len(filled), 1)
        values = [v for v in nums[j] if v is not None]
        product, factor, integer_factor = _agreement(nums, j)
        rank = (
            numeric_means.index(means[j]) / max(len(numeric_means) - 1, 1) if means[j] >= 0 else -1
        )
        row = [
            j / max(n - 1, 1),
            float(j == 0),
            float(j == n - 1),
            float(n),
            (column.box.x0 + column.box.x1) / 2 / table.page_width,
            len(filled) / max(len(column.cells), 1),
            len(values) / count,
            sum(float(v).is_integer() for v in values) / count,
            sum(bool(_DECIMALS.search(t)) for t in filled) / count,
            sum(sum(ch.isalpha() for ch in t) >= 3 for t in filled) / count,
            sum(len(t.split()) for t in filled) / count,
            math.log10(means[j] + 1) if means[j] >= 0 else -1.0,
            rank,
            product,
            factor,
            integer_factor,
            sum("%" in t for t in filled) / count,
            float(not norm(column.header)),
            *(header_score(column.header, HEADER_WORDS[c]) for c in HEADER_WORDS),
            *(header_score(column.header, labels) for labels in own),
        ]
        out.append(row)
    return np.asarray(out, dtype=np.float64).reshape(n, len(GENERIC_FEATURES) + len(own))
