"""Credit notes: recognised by their title or their document type code, and their amounts
signed the way the config declares.

A credit note is the same form as an invoice with the money going back, and documents and
datasets disagree on its sign: some print "-1,190.00", some "1,190.00" under the title
"Credit note", and a system's truth may hold either. ``"credit_note_sign"`` says what the
config wants: ``"as_printed"`` (the default: the engine does not touch the sign),
``"positive"`` or ``"negative"`` (the size as printed, with that sign). Only the amounts of
the document's money (totals, net, tax, due, lines) are signed; deducted amounts (prepaid,
allowances) keep the sign their own equation gives (see consistency.py).

A document is a credit note when a title line (a short line, or the head of a line) is one of
:data:`CREDIT_TITLES`, or a document-type label is followed by the UNTDID 1001 code of a
credit note (381 commercial, 261 self-billed).
"""

from __future__ import annotations

import re

from fieldwise.service.engines.extraction.labels import norm
from fieldwise.service.engines.parsing import ParsedDocument

__all__ = ["CREDIT_SIGNS", "SIGNED_ROLES", "is_credit_note", "signed"]

CREDIT_SIGNS = ("as_printed", "positive", "negative")
# the concepts whose amounts carry the document's direction
SIGNED_ROLES = frozenset({"grand_total", "amount_due", "net_total", "tax_total", "line_total"})

CREDIT_TITLES = frozenset(
    norm(t)
    for t in (
        "Credit note", "Credit memo", "Credit invoice", "Gutschrift", "Rechnungskorrektur",
        "Stornorechnung", "Avoir", "Facture d'avoir", "Note de crédit", "Creditnota",
        "Creditfactuur", "Nota de crédito", "Factura rectificativa", "Nota di credito",
        "Nota de crédito", "Kreditnota", "Kreditfaktura", "Hyvityslasku", "Faktura korygująca",
    )
)  # fmt: skip
# a document-type label, then the code as a token of its own ("Document type: 381", not an
# invoice number "INV-381-2")
_TYPE_LABEL = re.compile(
    r"(?i)\b(?:document\s*type|type\s*code|invoice\s*type|document\s*code|rechnungsart|"
    r"belegart|dokumentart|dokumententyp|rechnungstyp|type\s+de\s+(?:document|facture)|"
    r"documenttype|factuurtype|tipo\s+(?:de\s+)?documento)\b[\s:.#-]{0,5}(381|261)(?![\w-])"
)
_TITLE_WORDS = 4  # a title line is short: "Credit note", "Gutschrift Nr. 2024-17"
_LINES = 40  # a title or a type code sits in a document's head


def is_credit_note(doc: ParsedDocument) -> bool:
    """True when the first page's head names the document a credit note (title or code)."""
    if not doc.pages:
        return False
    for line in doc.pages[0].lines[:_LINES]:
        words = [norm(w.text) for w in line.words]
        # a title heads a short line ("Credit note", "Gutschrift Nr. 2024-17"); in a longer
        # one the words are prose ("the credit note will follow")
        if len(words) <= _TITLE_WORDS and any(
            "".join(words[:n]) in CREDIT_TITLES for n in (1, 2, 3)
        ):
            return True
        if _TYPE_LABEL.search(line.text):
            return True
    return False


def signed(value: float, sign: str) -> float:
    """``value`` with the declared sign (``"as_printed"``: unchanged)."""
    if sign == "positive":
        return abs(value)
    if sign == "negative":
        return -abs(value)
    return value
