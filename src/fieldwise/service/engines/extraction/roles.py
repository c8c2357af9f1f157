"""Roles of amounts and dates by the words around them: an amount under a total's label is not
a total when the words beside it say it is cash handed over, change, a discount or a rounding;
a tax label's amount is not the tax when the words say basis or rate; no amount is a count or
an identifier's number. A date under a date label is not the issue date when the words say
delivery, service period, order or due day, and not the due date when they say issue,
delivery or a cash discount's last day.

The words looked at (:attr:`.locate.Snippet.context` and the snippet itself) are those of the
label's cell that the matched label does not cover ("Total" in "Total Qty", "Total" in "Total
excl. tax") and, for a value on the line below, the label that line has of its own ("Cash",
"Change"). The words the label matched never count against it: "Net total" is a net label, not
a net word beside a total. Words are compared normalized (:func:`.labels.norm`), in the seven
languages of :mod:`.vocabulary` and Malay (receipts).
"""

from __future__ import annotations

import functools
import re

from rapidfuzz import fuzz, process

from fieldwise.service.engines.extraction.labels import norm
from fieldwise.service.engines.extraction.vocabulary import CONCEPTS

__all__ = ["any_of", "foreign_role", "role_of", "words_of"]

# what any amount field is not: a count of things, or the number of an identifier
_COMMON = (
    "qty", "quantity", "pcs", "items", "item", "count", "menge", "anzahl", "stück", "stk",
    "quantité", "qté", "aantal", "cantidad", "quantità", "quantidade", "kuantiti",
    "nr", "no", "number", "nummer", "numéro", "número", "numero", "id", "iban", "bic",
    "account", "konto", "compte", "tel", "phone", "fax", "reg", "registration", "gst id",
)  # fmt: skip

# what a gross total or an amount due is not: money handed over or back, or a reduction
_PAYMENT = (
    "cash", "tendered", "tender", "change", "paid", "payment", "received", "card", "visa",
    "mastercard", "rückgeld", "wechselgeld", "gegeben", "bar", "erhalten", "rendu", "monnaie",
    "espèces", "wisselgeld", "contant", "cambio", "efectivo", "resto", "contanti", "troco",
    "dinheiro", "tunai", "baki", "kembali",
)  # fmt: skip
_REDUCTION = (
    "discount", "discounts", "rabatt", "nachlass", "skonto", "remise", "réduction", "korting",
    "descuento", "sconto", "desconto", "diskaun", "saving", "savings", "saved", "rounding",
    "round", "rundung", "arrondi", "afronding", "redondeo", "arrotondamento", "arredondamento",
    "adj", "adjustment",
)  # fmt: skip
# what a gross total is not: the amount before tax
_BEFORE_TAX = (
    "excl", "exkl", "excluding", "ohne", "zzgl", "before", "sub", "subtotal", "zwischensumme",
    "net", "netto", "ht", "hors", "taxable", "exclusief", "excl.", "sin", "senza", "sem",
)  # fmt: skip
# what a tax amount is not: its basis or its rate
_TAX_PARTS = (
    "basis", "base", "grundlage", "bemessungsgrundlage", "nettobetrag", "netto", "net",
    "taxable", "auf", "on", "sur", "op", "sobre", "su", "ht", "imponible", "imponibile",
    "rate", "satz", "steuersatz", "taux", "tarief", "tipo", "aliquota", "taxa",
)  # fmt: skip
# what a net amount is not: the amount with tax, or a tax
_AFTER_TAX = (
    "incl", "inkl", "including", "brutto", "gross", "ttc", "inclusief", "con", "iva", "mwst",
    "ust", "vat", "tax", "tva", "btw", "gst",
)  # fmt: skip

# a total beside a tax word is the tax ("Total VAT"), unless the words say the tax is included
_TAXES = ("tax", "vat", "gst", "sst", "mwst", "ust", "steuer", "tva", "btw", "iva", "cukai")
_INCLUDED = (
    "incl", "inkl", "including", "inclusive", "included", "with", "mit", "ttc", "brutto",
    "gross", "inclusief", "con", "com", "avec",
)  # fmt: skip

# what an issue date is not: the date of a delivery, a service period, an order or a due day
_OTHER_EVENTS = (
    "delivery", "delivered", "shipping", "shipped", "ship", "dispatch", "period", "service",
    "order", "ordered", "due", "payable", "expiry", "expires", "valid", "until", "start", "end",
    "from", "to", "contract", "lieferung", "lieferdatum", "liefertermin", "geliefert",
    "leistung", "leistungsdatum", "leistungszeitraum", "zeitraum", "abrechnungszeitraum",
    "bestellung", "bestelldatum", "auftrag", "auftragsdatum", "versand", "versanddatum",
    "fällig", "fälligkeit", "zahlbar", "bis", "gültig", "beginn", "ende", "vertrag", "skonto",
    "livraison", "période", "commande", "échéance", "expédition", "levering", "leverdatum",
    "periode", "bestelling", "vervaldatum", "entrega", "periodo", "pedido", "vencimiento",
    "consegna", "ordine", "scadenza", "encomenda", "vencimento",
    # the documents an invoice refers to, each with its own date (identifiers.py knows them too)
    "lieferschein", "angebot", "offer", "quote", "quotation", "devis",
    "offerte", "anfrage", "inquiry", "schreiben", "letter", "supply", "leverbon", "pakbon",
    "bon", "albarán", "albaran", "preventivo", "ddt",
)  # fmt: skip
# what a payment due date is not: a delivery or service date, the day of issue or an order,
# or the last day of a cash discount
_NOT_DUE = (
    "delivery", "delivered", "shipping", "ship", "period", "service", "order", "issue",
    "issued", "invoice", "start", "from", "lieferung", "lieferdatum", "leistung",
    "leistungsdatum", "leistungszeitraum", "zeitraum", "abrechnungszeitraum", "bestellung",
    "rechnung", "rechnungsdatum", "ausgestellt", "vom", "skonto", "discount", "rabatt",
    "escompte", "livraison", "période", "commande", "facture", "levering", "periode",
    "factuur", "entrega", "periodo", "pedido", "factura", "consegna", "ordine", "fattura",
)  # fmt: skip

_NOT: dict[str, frozenset[str]] = {
    "grand_total": frozenset(norm(w) for w in (*_COMMON, *_PAYMENT, *_REDUCTION, *_BEFORE_TAX)),
    "amount_due": frozenset(norm(w) for w in (*_COMMON, *_PAYMENT, *_REDUCTION)),
    "tax_total": frozenset(norm(w) for w in (*_COMMON, *_PAYMENT, *_TAX_PARTS)),
    "net_total": frozenset(norm(w) for w in (*_COMMON, *_PAYMENT, *_AFTER_TAX)),
    "line_total": frozenset(norm(w) for w in _COMMON),
    "issue_date": frozenset(norm(w) for w in _OTHER_EVENTS),
    "due_date": frozenset(norm(w) for w in _NOT_DUE),
}

_TAX_WORDS = frozenset(norm(w) for w in _TAXES)
_INCLUDED_WORDS = frozenset(norm(w) for w in _INCLUDED)
# words, a dotted abbreviation's parts apart ("Incl.ofGST" is "incl" and "ofgst")
_WORD = re.compile(r"[^\W\d_]+")
_FUZZY_LENGTH = 7
_FUZZY_SCORE = 85.0


def _words(text: str) -> set[str]:
    return {norm(m.group(0)) for m in _WORD.finditer(text)} - {""}


def foreign_role(concept: str | None, context: str, snippet: str, label: str) -> bool:
    """True when the words around an amount give it another role than ``concept``'s.

    ``context`` is the label cell's other words (and the value line's own label), ``snippet``
    the text the value was read from, ``label`` the label that matched (its words never count).
    """
    if concept not in _NOT:
        return False
    words = (_words(context) | _words(snippet)) - _words(label)
    if _any_of(words, _NOT[concept]):
        return True
    taxed = _any_of(words, _TAX_WORDS)
    return concept == "grand_total" and taxed and not _any_of(words, _INCLUDED_WORDS)


def _any_of(words: set[str], vocabulary: frozenset[str]) -> bool:
    """Whether a word is in ``vocabulary``; a long word also when one letter or two are off
    (OCR's "Inciusive" is "inclusive"; short words must match exactly: "change" and "charge"
    differ by one letter and mean different things)."""
    if not words.isdisjoint(vocabulary):
        return True
    long = [w for w in vocabulary if len(w) >= _FUZZY_LENGTH]
    return any(
        process.extractOne(w, long, scorer=fuzz.ratio, score_cutoff=_FUZZY_SCORE) is not None
        for w in words
        if len(w) >= _FUZZY_LENGTH
    )


@functools.lru_cache(maxsize=1024)
def role_of(vocabulary: str | None, labels: tuple[str, ...]) -> str | None:
    """The concept whose role words apply to a field: its ``vocabulary``, else the concept
    whose built-in labels its own labels name most often (a field labelled "Total", "Grand
    total", "Amount due" plays the grand total's role without saying so), else None."""
    if vocabulary is not None:
        return vocabulary
    mine = {norm(label) for label in labels}
    shared = {c: len(mine & {norm(x) for x in CONCEPTS[c]}) for c in _NOT}
    best = max(shared.values(), default=0)
    winners = [c for c, n in shared.items() if n == best]
    return winners[0] if best and len(winners) == 1 else None


# --- shared with identifiers.py (roles of identifiers): the same words, the same matching ---


def words_of(text: str) -> set[str]:
    """The normalized words of ``text``, a dotted abbreviation's parts apart."""
    return _words(text)


def any_of(words: set[str], vocabulary: frozenset[str]) -> bool:
    """Whether one of ``words`` is in ``vocabulary`` (long words also one or two letters off)."""
    return _any_of(words, vocabulary)
