"""Roles of identifiers by the words around them: an invoice number is never the customer's
number, an order or delivery-note number, a tax or VAT id, a bank account, a phone number or a
page number, and never a date; a buyer's order number is never the invoice number.

Forms print many numbers under labels that share their words: "Nr." stands in "Kunden Nr.",
"Bestell Nr.", "Lieferschein Nr." and "Rechnung Nr." alike, "No" in "Customer No", "PO No" and
"Invoice No". The label alone cannot tell them apart; the other words of the label's cell and
those printed with the value can (the same words :mod:`.roles` reads for amounts and dates:
:attr:`.locate.Snippet.context` and the snippet). The words the matched label covers never
count against it ("Rechnung Nr" is an invoice label, not an invoice word beside an order
number). A value shaped like a date, an IBAN or a page count is no document number whatever
its label says.

The role of a string field is its ``vocabulary`` (``invoice_number``, ``order_number``), else
the concept whose built-in labels its own labels name most often, as for amounts.
"""

from __future__ import annotations

import functools
import re

from fieldwise.service.engines.extraction.labels import norm
from fieldwise.service.engines.extraction.roles import any_of, words_of
from fieldwise.service.engines.extraction.vocabulary import CONCEPTS

__all__ = ["INVOICE_WORDS", "foreign_identifier", "identifier_role"]

# whose number it is: the customer's (an account with the seller), not the document's
_CUSTOMER = (
    "kunde", "kunden", "kundennummer", "kundennr", "kd", "kdnr", "debitor", "debitorennummer",
    "customer", "client", "account", "acct", "numéro client", "klant", "klantnummer",
    "debiteur", "debiteurnummer", "cliente", "mitglied", "mitgliedsnummer", "member",
)  # fmt: skip
# the buyer's order, a contract or a project the invoice refers to
_ORDER = (
    "bestellung", "bestellnummer", "bestellnr", "bestell", "order", "po", "purchase",
    "auftrag", "auftragsnummer", "auftragsnr", "commande", "bestelling", "bestelnummer",
    "pedido", "ordine", "encomenda", "vertrag", "vertragsnummer", "contract", "contrat",
    "contrato", "contratto", "projekt", "project", "projet", "proyecto", "progetto", "ihr",
    "ihre", "ihrer", "your", "votre", "vos", "uw",
)  # fmt: skip
# the delivery the goods came with
_DELIVERY = (
    "lieferschein", "lieferscheinnummer", "lieferscheinnr", "lieferung", "delivery",
    "dispatch", "shipment", "livraison", "pakbon", "leverbon", "levering", "albarán",
    "albaran", "entrega", "consegna", "ddt", "guia", "remessa",
)  # fmt: skip
# the parties' registrations, bank and telephone lines, and the page counter
_REGISTRATION = (
    "ust", "ustid", "ustidnr", "steuernummer", "steuer", "stnr", "vat", "tax", "tva", "btw",
    "iva", "nif", "cif", "siret", "siren", "rcs", "uid", "gst", "ein", "kvk", "hrb", "hra",
    "handelsregister", "registergericht", "amtsgericht", "registration", "reg", "iban", "bic",
    "swift", "blz", "konto", "kontonummer", "bank", "compte", "rekening", "cuenta", "conto",
    "tel", "telefon", "telefax", "fax", "phone", "mobil", "mobile", "handy", "téléphone",
    "telefoon", "teléfono", "telefono", "seite", "page", "blatt", "pagina", "página",
    "artikel", "artikelnummer", "art", "article", "item", "sku", "ean", "gtin",
)  # fmt: skip
# a number that belongs to the invoice itself, not to the order it answers
_INVOICE = (
    "rechnung", "rechnungsnummer", "rechnungsnr", "invoice", "facture", "factuur", "factura",
    "fattura", "fatura", "gutschrift", "beleg", "belegnummer",
)  # fmt: skip

INVOICE_WORDS = frozenset(norm(w) for w in _INVOICE)

_NOT: dict[str, frozenset[str]] = {
    "invoice_number": frozenset(norm(w) for w in (*_CUSTOMER, *_ORDER, *_DELIVERY, *_REGISTRATION)),
    "order_number": frozenset(norm(w) for w in (*_CUSTOMER, *_DELIVERY, *_REGISTRATION, *_INVOICE)),
}
# "your order" is the buyer's order, its very words: they never count against an order number
_OWN: dict[str, frozenset[str]] = {
    "order_number": frozenset(norm(w) for w in ("ihr", "ihre", "ihrer", "your", "votre", "uw")),
}

# shapes no document number has: a date (12.03.2024, 2024-03-12, 12/03/24), an IBAN, a page
# count (a pattern that allows slashes reads "Seite 1/2" as "1/2")
_DATE = re.compile(r"\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})|\d{4}[./-]\d{1,2}[./-]\d{1,2}")
_IBAN = re.compile(r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,4})?")
_PAGE = re.compile(r"\d{1,2}\s*/\s*\d{1,2}")


def _shaped_otherwise(value: str) -> bool:
    """Whether ``value`` as a whole is a date, an IBAN or a page count, or a word (a document
    number has a digit: "Seite" under "Nr." is the next line's label, not a number)."""
    text = value.strip()
    if not any(ch.isdigit() for ch in text):
        return True
    return any(p.fullmatch(text) for p in (_DATE, _IBAN, _PAGE))


@functools.lru_cache(maxsize=1024)
def identifier_role(vocabulary: str | None, labels: tuple[str, ...]) -> str | None:
    """The identifier concept whose role words apply to a string field: its ``vocabulary``
    when that is one, else the concept whose built-in labels its own labels name most often
    (a field labelled "Rechnungsnummer", "Invoice No" plays the invoice number's role), else
    None."""
    if vocabulary is not None:
        return vocabulary if vocabulary in _NOT else None
    mine = {norm(label) for label in labels}
    shared = {c: len(mine & {norm(x) for x in CONCEPTS[c]}) for c in _NOT}
    best = max(shared.values(), default=0)
    winners = [c for c, n in shared.items() if n == best]
    return winners[0] if best and len(winners) == 1 else None


def foreign_identifier(
    concept: str | None, context: str, snippet: str, label: str, value: str
) -> bool:
    """True when an identifier read for ``concept`` is another one by its words or its shape.

    ``context`` is the label cell's other words (and the value line's own label), ``snippet``
    the text the value was read from, ``label`` the label that matched (its words never
    count), ``value`` the identifier read. Of the snippet only the words before the value
    count: those after it may begin the next item of a line ("Nr. 2024-17  Seite 1 von 2").
    """
    if concept not in _NOT:
        return False
    if _shaped_otherwise(value):
        return True
    at = snippet.find(value)
    before, after = (snippet[:at], snippet[at + len(value) :]) if at >= 0 else (snippet, "")
    # a value in its label's cell is also in the cell's other words: what follows it there
    # is not its context either
    words = (words_of(context) | words_of(before)) - words_of(after) - words_of(label)
    return any_of(words - _OWN.get(concept, frozenset()), _NOT[concept])
