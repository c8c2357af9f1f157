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
    "Sdn Bhd", "Sdn. Bhd.", "Bhd", "Bhd.", "Berhad", "Pte", "Pvt",
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
