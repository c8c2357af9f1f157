"""Built-in knowledge: legal forms and party cues, in English, German, French, Dutch, Spanish,
Italian and Portuguese (and the forms of a few more countries whose documents are common).

These are vocabularies of the languages, not of any document: they name no company.
Legal forms are stored normalized (:func:`.labels.norm`: lower-case letters and digits).
"""

from __future__ import annotations

from fieldwise.service.engines.extraction.labels import norm

__all__ = ["BUYER_CUES", "LEGAL_FORMS", "SELLER_CUES"]

_FORMS = (
    # German-speaking
    "GmbH", "mbH", "AG", "KG", "OHG", "UG", "e.K.", "e.V.", "KGaA", "GbR", "a.G.", "eG",
    # English-speaking
    "Ltd", "Ltd.", "Limited", "LLC", "L.L.C.", "Inc", "Inc.", "Incorporated", "Corp",
    "Corporation", "PLC", "LLP", "LP", "Pty", "Pty Ltd", "Pte Ltd", "Pvt Ltd",
    "Private Limited",
    # Dutch and Belgian
    "B.V.", "BV", "N.V.", "NV", "V.O.F.", "BVBA",
    # French
    "S.A.", "SA", "SAS", "S.A.S.", "SARL", "S.A.R.L.", "SASU", "EURL", "SNC",
    # Spanish and Portuguese
    "S.L.", "SL", "S.L.U.", "S.A.U.", "Lda", "Lda.", "Ltda", "Ltda.", "S/A",
    # Italian
    "S.r.l.", "Srl", "S.p.A.", "SpA", "S.a.s.", "S.n.c.",
    # Nordic, Baltic, Polish
    "AB", "A/S", "ApS", "AS", "Oy", "OÜ", "Sp. z o.o.", "S.A.",
    # Malaysian, Singaporean, Indian
    "Sdn Bhd", "Sdn. Bhd.", "SdnBhd", "S/B", "Bhd", "Bhd.", "Berhad", "Pte", "Pvt",
)  # fmt: skip
LEGAL_FORMS = frozenset(norm(form) for form in _FORMS)

BUYER_CUES = (
    "To", "Bill to", "Billed to", "Invoice to", "Invoiced to", "Sold to", "Ship to", "Shipped to",
    "Deliver to", "Customer", "Client", "Buyer", "Recipient", "Licensed to", "Billing contact",
    "Technical contact", "Cardholder", "Rechnungsempfänger", "Rechnungsadresse", "Kunde",
    "Käufer", "Leistungsempfänger", "Lieferadresse", "Empfänger", "Facturé à", "Adressé à",
    "Destinataire", "Acheteur", "Factuur aan", "Klant", "Afnemer", "Koper", "Facturar a",
    "Cliente", "Comprador", "Destinatario", "Fatturare a", "Committente", "Acquirente",
    "Faturar a", "Adquirente",
)  # fmt: skip

SELLER_CUES = (
    "From", "Seller", "Supplier", "Vendor", "Issued by", "Sold by", "Merchant", "Payee",
    "Verkäufer", "Lieferant", "Absender", "Rechnungssteller", "Leistungserbringer",
    "Fournisseur", "Vendeur", "Émetteur", "Leverancier", "Verkoper", "Afzender", "Proveedor",
    "Vendedor", "Emisor", "Fornitore", "Venditore", "Cedente", "Fornecedor", "Emitente",
)  # fmt: skip

# Labels of common invoice and receipt fields (``"vocabulary": "<concept>"`` adds them to a
# field's own labels). Every language is tried on every document: a label that is not on the
# page costs nothing, and mixed-language documents ("Invoice / Rechnung") are common.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "invoice_number": (
        "Invoice number", "Invoice No", "Invoice #", "Invoice", "Receipt number", "Receipt No",
        "Bill No", "Document No", "Rechnungsnummer", "Rechnungs-Nr", "Rechnung Nr",
        "Rechnungsnr", "Beleg-Nr", "Belegnummer", "Rechnung", "Numéro de facture",
        "N° de facture", "Facture N°", "Facture", "Factuurnummer", "Factuurnr", "Factuur",
        "Número de factura", "Nº de factura", "Factura", "Numero fattura", "Fattura n",
        "Fattura", "Número da fatura", "Fatura", "Nota fiscal",
    ),
    "issue_date": (
        "Invoice date", "Date of issue", "Date issued", "Issue date", "Issued on", "Date",
        "Receipt date", "Date paid", "Rechnungsdatum", "Belegdatum", "Datum", "vom",
        "Date de facture", "Date de facturation", "Date d'émission", "Factuurdatum",
        "Fecha de factura", "Fecha de emisión", "Fecha", "Data fattura", "Data di emissione",
        "Data", "Data da fatura", "Data de emissão",
    ),
    "due_date": (
        "Due date", "Payment due", "Due on", "Pay by", "Fälligkeitsdatum", "Fällig am",
        "Fälligkeit", "Zahlbar bis", "Date d'échéance", "Échéance", "Vervaldatum",
        "Vervaldag", "Fecha de vencimiento", "Vencimiento", "Data di scadenza", "Scadenza",
        "Data de vencimento", "Vencimento",
    ),
    "order_number": (
        "Order number", "Order No", "PO number", "PO No", "Purchase order", "Your order",
        "Bestellnummer", "Bestellung", "Ihre Bestellung", "Auftragsnummer", "Numéro de commande",
        "Bon de commande", "Bestelnummer", "Ordernummer", "Número de pedido", "Pedido",
        "Numero ordine", "Ordine", "Número da encomenda", "Encomenda",
    ),
    "net_total": (
        "Subtotal", "Sub total", "Net total", "Net amount", "Total excl. tax", "Total excl. VAT",
        "Total ex. tax", "Amount before tax", "Nettobetrag", "Gesamtnetto", "Summe netto",
        "Netto", "Zwischensumme", "Rechnungssumme ohne USt.", "Total HT", "Montant HT",
        "Sous-total", "Subtotaal", "Totaal excl. btw", "Netto bedrag", "Base imponible",
        "Subtotal sin IVA", "Imponibile", "Totale imponibile", "Total sem IVA", "Valor líquido",
    ),
    "tax_total": (
        "Tax", "Tax amount", "VAT", "VAT amount", "GST", "Sales tax", "SST", "Steuerbetrag",
        "MwSt.", "USt.", "Umsatzsteuer", "Mehrwertsteuer", "TVA", "Montant TVA", "BTW",
        "BTW bedrag", "IVA", "Cuota IVA", "Importo IVA", "Valor do IVA",
    ),
    "grand_total": (
        "Total", "Grand total", "Total amount", "Invoice total", "Total due", "Amount due",
        "Total (incl. tax)", "Total incl. VAT", "Gesamtbetrag", "Rechnungsbetrag", "Bruttosumme",
        "Summe brutto", "Gesamtsumme", "Endbetrag", "Total TTC", "Montant TTC", "Net à payer",
        "Totaal", "Totaalbedrag", "Totaal incl. btw", "Te betalen", "Importe total",
        "Total a pagar", "Totale", "Totale fattura", "Totale documento", "Valor total",
    ),
    "amount_due": (
        "Amount due", "Balance due", "Amount payable", "To pay", "Zahlbetrag", "Zu zahlen",
        "Offener Betrag", "Net à payer", "Reste à payer", "Te betalen", "Openstaand bedrag",
        "Importe a pagar", "Saldo", "Da pagare", "Netto a pagare", "Valor a pagar",
    ),
    "prepaid_total": (
        "Prepaid", "Prepaid amount", "Paid", "Amount paid", "Payments", "Deposit",
        "Erhaltene Anzahlungen", "Anzahlung", "Bereits bezahlt", "Acompte", "Déjà payé",
        "Vooruitbetaald", "Aanbetaling", "Anticipo", "Pagado", "Acconto", "Già pagato",
        "Adiantamento", "Pago",
    ),
    "line_total": (
        "Line total", "Lines total", "Items total", "Total of lines", "Positionssumme",
        "Summe Positionen", "Warenwert", "Total des lignes", "Totaal regels", "Suma de líneas",
        "Totale righe", "Total das linhas",
    ),
    "allowance_total": (
        "Allowances", "Discounts", "Total discount", "Gesamtbetrag der Abschläge", "Abschläge",
        "Rabatt", "Nachlass", "Remises", "Kortingen", "Korting", "Descuentos", "Sconti",
        "Descontos",
    ),
    "charge_total": (
        "Charges", "Surcharges", "Gesamtbetrag der Zuschläge", "Zuschläge", "Frais",
        "Majorations", "Toeslagen", "Recargos", "Maggiorazioni", "Encargos",
    ),
    "vat_rate": (
        "VAT", "VAT rate", "Tax rate", "GST", "Tax", "MwSt.", "USt.", "Ust", "Steuersatz",
        "TVA", "Taux de TVA", "BTW", "BTW-tarief", "IVA", "Tipo de IVA", "Aliquota IVA",
        "Taxa de IVA",
    ),
    "vat_id": (
        "VAT ID", "VAT No", "VAT number", "VAT reg no", "Tax ID", "GST No", "GST ID",
        "USt-IdNr", "USt-ID", "UID", "N° TVA", "Numéro de TVA", "TVA intracommunautaire",
        "BTW-nummer", "BTW nr", "NIF", "CIF", "Partita IVA", "P. IVA", "NIF/NIPC",
    ),
    "tax_number": ("Tax number", "Steuernummer", "St.-Nr.", "Steuer-Nr.", "SIRET", "KvK"),
    "iban": ("IBAN",),
    "currency": ("Currency", "Währung", "Devise", "Monnaie", "Valuta", "Moneda", "Moeda"),
}  # fmt: skip

# Label words that narrow receipts and tills print abbreviated ("Amt Due", "Total Amt"): each
# label holding the word is also known by the abbreviation.
_ABBREVIATIONS = {"Amount": "Amt", "amount": "amt"}


def _abbreviated(labels: tuple[str, ...]) -> tuple[str, ...]:
    """``labels`` followed by their abbreviated forms that are not among them."""
    more = [" ".join(_ABBREVIATIONS.get(word, word) for word in label.split()) for label in labels]
    return (*labels, *dict.fromkeys(m for m in more if m not in labels))


CONCEPTS = {concept: _abbreviated(labels) for concept, labels in CONCEPTS.items()}

# Currency marks printed beside amounts and the ISO code each one means. "$" is read as USD
# and "¥" as JPY (their most common use); "kr" names four currencies, so it marks an amount
# but names no code.
CURRENCY_SYMBOLS: dict[str, str | None] = {
    "€": "EUR", "R$": "BRL", "US$": "USD", "$": "USD", "£": "GBP", "₹": "INR", "Rs.": "INR",
    "Rs": "INR", "RM": "MYR", "zł": "PLN", "CHF": "CHF", "Fr.": "CHF", "¥": "JPY", "₩": "KRW",
    "₽": "RUB", "₺": "TRY", "₪": "ILS", "฿": "THB", "₫": "VND", "₱": "PHP", "kr": None,
    "kr.": None, "Kč": "CZK", "Ft": "HUF", "lei": "RON", "S$": "SGD", "A$": "AUD",
    "C$": "CAD", "HK$": "HKD",
}  # fmt: skip
CURRENCY_CODES = (
    "EUR", "USD", "GBP", "CHF", "INR", "MYR", "BRL", "PLN", "SEK", "NOK", "DKK", "JPY", "CNY",
    "AUD", "CAD", "SGD", "HKD", "NZD", "CZK", "HUF", "RON", "TRY", "ZAR", "MXN", "ILS", "THB",
    "IDR", "PHP", "KRW", "RUB", "AED", "SAR", "VND",
)  # fmt: skip
