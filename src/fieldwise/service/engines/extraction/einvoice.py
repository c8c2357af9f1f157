"""The ``e_invoice`` option: fields from the invoice XML a PDF embeds, not from its pages.

A Factur-X / ZUGFeRD / XRechnung PDF carries its invoice as CII (UN/CEFACT
``CrossIndustryInvoice``) or UBL (``Invoice`` / ``CreditNote``) XML. The XML is the legal
invoice, so when it is there it beats anything read off the rendering. :func:`read_invoice`
maps it to EN 16931 terms under plain names (:data:`TERMS`); :func:`term_of` says which term
a version's field is: its ``vocabulary`` concept, else its party strategy plus ``_name``, else
its own name when that is a term. Fields with no term, or whose term the XML lacks, are read
from the pages as before.

Elements are matched by local name (namespace prefixes vary between producers and versions);
dates become ISO, amounts floats as written (a correction's negative amounts stay negative).
The parser resolves no entities and loads no DTD or network resource.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeAlias

from lxml import etree

from fieldwise.service.engines.extraction.config import FieldSpec

__all__ = ["TERMS", "XmlValue", "read_invoice", "term_of"]


@dataclass(frozen=True)
class XmlValue:
    """One value read from the XML, and the element path it came from (the provenance)."""

    value: str | float
    path: str


# lxml ships no type stubs here: an element is Any to mypy
_Element: TypeAlias = Any

#: vocabulary concepts whose term has another name
_CONCEPT_TERMS = {
    "due_date": "payment_due_date",
    "order_number": "buyer_order_number",
    "net_total": "tax_basis_total",
    "amount_due": "due_payable",
    "vat_id": "seller_vat_id",
    "tax_number": "seller_tax_number",
}

TERMS = (
    "invoice_number",
    "document_type_code",
    "issue_date",
    "payment_due_date",
    "currency",
    "seller_name",
    "seller_street",
    "seller_postcode",
    "seller_city",
    "seller_country",
    "seller_vat_id",
    "seller_tax_number",
    "buyer_name",
    "buyer_street",
    "buyer_postcode",
    "buyer_city",
    "buyer_country",
    "buyer_vat_id",
    "buyer_order_number",
    "iban",
    "vat_rate",
    "line_total",
    "charge_total",
    "allowance_total",
    "tax_basis_total",
    "tax_total",
    "grand_total",
    "prepaid_total",
    "due_payable",
)


def term_of(spec: FieldSpec) -> str | None:
    """The term a field stands for, or None (the field is read from the pages only)."""
    if spec.vocabulary is not None:
        term = _CONCEPT_TERMS.get(spec.vocabulary, spec.vocabulary)
        if term in TERMS:
            return term
    if spec.strategy in ("seller", "buyer"):
        return f"{spec.strategy}_name"
    leaf = spec.name.rsplit(".", 1)[-1]
    return leaf if leaf in TERMS else None


def _local(element: _Element) -> str:
    return str(etree.QName(element).localname)


def _children(element: _Element, name: str) -> Iterator[_Element]:
    return (child for child in element if isinstance(child.tag, str) and _local(child) == name)


def _walk(element: _Element, *names: str) -> list[_Element]:
    """Elements under ``element`` along the local names ``names`` (every branch)."""
    found = [element]
    for name in names:
        found = [child for node in found for child in _children(node, name)]
    return found


def _text(element: _Element | None) -> str | None:
    if element is None or element.text is None:
        return None
    text = " ".join(element.text.split())
    return text or None


def _iso(text: str | None) -> str | None:
    """CII format 102 (``20180605``) or an ISO date as UBL writes it, as ISO."""
    if text is None:
        return None
    digits = text.replace("-", "")
    if len(digits) != 8 or not digits.isdigit():
        return None
    return f"{digits[:4]}-{digits[4:6]}-{digits[6:]}"


def _amount(text: str | None) -> float | None:
    try:
        return None if text is None else float(text)
    except ValueError:
        return None


class _Reader:
    """Collects terms from one XML tree; the first value found for a term wins."""

    def __init__(self, root: _Element) -> None:
        self.root = root
        self.out: dict[str, XmlValue] = {}

    def put(self, term: str, value: str | float | None, path: str) -> None:
        if value is not None and term not in self.out:
            self.out[term] = XmlValue(value, path)

    def first(self, base: _Element, *names: str) -> str | None:
        return next((t for e in _walk(base, *names) if (t := _text(e)) is not None), None)

    def text(self, term: str, base: _Element, prefix: str, *names: str) -> None:
        self.put(term, self.first(base, *names), "/".join((prefix, *names)))

    def date(self, term: str, base: _Element, prefix: str, *names: str) -> None:
        self.put(term, _iso(self.first(base, *names)), "/".join((prefix, *names)))

    def amount(self, term: str, base: _Element, prefix: str, *names: str, currency: str) -> None:
        """An amount; where one is given in several currencies, the invoice currency's."""
        for element in _walk(base, *names):
            unit = element.get("currencyID")
            if unit is None or not currency or unit == currency:
                self.put(term, _amount(_text(element)), "/".join((prefix, *names)))
                return


def _cii(reader: _Reader) -> None:
    root, r = reader.root, "CrossIndustryInvoice"
    reader.text("invoice_number", root, r, "ExchangedDocument", "ID")
    reader.text("document_type_code", root, r, "ExchangedDocument", "TypeCode")
    reader.date("issue_date", root, r, "ExchangedDocument", "IssueDateTime", "DateTimeString")
    tx = f"{r}/SupplyChainTradeTransaction"
    for deal in _walk(root, "SupplyChainTradeTransaction", "ApplicableHeaderTradeAgreement"):
        at = f"{tx}/ApplicableHeaderTradeAgreement"
        for role, party_name in (("seller", "SellerTradeParty"), ("buyer", "BuyerTradeParty")):
            for party in _children(deal, party_name):
                here = f"{at}/{party_name}"
                reader.text(f"{role}_name", party, here, "Name")
                address = ("PostalTradeAddress",)
                reader.text(f"{role}_street", party, here, *address, "LineOne")
                reader.text(f"{role}_postcode", party, here, *address, "PostcodeCode")
                reader.text(f"{role}_city", party, here, *address, "CityName")
                reader.text(f"{role}_country", party, here, *address, "CountryID")
                for registration in _children(party, "SpecifiedTaxRegistration"):
                    for element in _children(registration, "ID"):
                        scheme = {"VA": "vat_id", "FC": "tax_number"}.get(element.get("schemeID"))
                        path = f"{here}/SpecifiedTaxRegistration/ID[@schemeID]"
                        if scheme is not None:
                            reader.put(f"{role}_{scheme}", _text(element), path)
        reader.text(
            "buyer_order_number", deal, at, "BuyerOrderReferencedDocument", "IssuerAssignedID"
        )
    for settle in _walk(root, "SupplyChainTradeTransaction", "ApplicableHeaderTradeSettlement"):
        at = f"{tx}/ApplicableHeaderTradeSettlement"
        currency = reader.first(settle, "InvoiceCurrencyCode") or ""
        reader.put("currency", currency or None, f"{at}/InvoiceCurrencyCode")
        reader.date(
            "payment_due_date", settle, at, "SpecifiedTradePaymentTerms", "DueDateDateTime",
            "DateTimeString",
        )  # fmt: skip
        account = ("SpecifiedTradeSettlementPaymentMeans", "PayeePartyCreditorFinancialAccount")
        reader.text("iban", settle, at, *account, "IBANID")
        rate = reader.first(settle, "ApplicableTradeTax", "RateApplicablePercent")
        reader.put("vat_rate", _amount(rate), f"{at}/ApplicableTradeTax/RateApplicablePercent")
        sums = ("SpecifiedTradeSettlementHeaderMonetarySummation",)
        for term, name in (
            ("line_total", "LineTotalAmount"),
            ("charge_total", "ChargeTotalAmount"),
            ("allowance_total", "AllowanceTotalAmount"),
            ("tax_basis_total", "TaxBasisTotalAmount"),
            ("tax_total", "TaxTotalAmount"),
            ("grand_total", "GrandTotalAmount"),
            ("prepaid_total", "TotalPrepaidAmount"),
            ("due_payable", "DuePayableAmount"),
        ):
            reader.amount(term, settle, at, *sums, name, currency=currency)


def _ubl(reader: _Reader) -> None:
    root = reader.root
    r = _local(root)
    reader.text("invoice_number", root, r, "ID")
    reader.text("document_type_code", root, r, f"{r}TypeCode")
    reader.date("issue_date", root, r, "IssueDate")
    reader.date("payment_due_date", root, r, "DueDate")
    reader.date("payment_due_date", root, r, "PaymentMeans", "PaymentDueDate")
    currency = reader.first(root, "DocumentCurrencyCode") or ""
    reader.put("currency", currency or None, f"{r}/DocumentCurrencyCode")
    for role, name in (("seller", "AccountingSupplierParty"), ("buyer", "AccountingCustomerParty")):
        here = f"{r}/{name}/Party"
        for party in _walk(root, name, "Party"):
            reader.text(f"{role}_name", party, here, "PartyLegalEntity", "RegistrationName")
            reader.text(f"{role}_name", party, here, "PartyName", "Name")
            reader.text(f"{role}_street", party, here, "PostalAddress", "StreetName")
            reader.text(f"{role}_postcode", party, here, "PostalAddress", "PostalZone")
            reader.text(f"{role}_city", party, here, "PostalAddress", "CityName")
            country = ("PostalAddress", "Country", "IdentificationCode")
            reader.text(f"{role}_country", party, here, *country)
            for scheme in _walk(party, "PartyTaxScheme"):
                kind = reader.first(scheme, "TaxScheme", "ID")
                term = f"{role}_vat_id" if kind == "VAT" else f"{role}_tax_number"
                reader.text(term, scheme, f"{here}/PartyTaxScheme", "CompanyID")
    reader.text("buyer_order_number", root, r, "OrderReference", "ID")
    reader.text("iban", root, r, "PaymentMeans", "PayeeFinancialAccount", "ID")
    reader.put(
        "vat_rate",
        _amount(reader.first(root, "TaxTotal", "TaxSubtotal", "TaxCategory", "Percent")),
        f"{r}/TaxTotal/TaxSubtotal/TaxCategory/Percent",
    )
    reader.amount("tax_total", root, r, "TaxTotal", "TaxAmount", currency=currency)
    for term, name in (
        ("line_total", "LineExtensionAmount"),
        ("charge_total", "ChargeTotalAmount"),
        ("allowance_total", "AllowanceTotalAmount"),
        ("tax_basis_total", "TaxExclusiveAmount"),
        ("grand_total", "TaxInclusiveAmount"),
        ("prepaid_total", "PrepaidAmount"),
        ("due_payable", "PayableAmount"),
    ):
        reader.amount(term, root, r, "LegalMonetaryTotal", name, currency=currency)


_READERS: dict[str, Callable[[_Reader], None]] = {
    "CrossIndustryInvoice": _cii,
    "Invoice": _ubl,
    "CreditNote": _ubl,
}


def read_invoice(xml: str) -> dict[str, XmlValue]:
    """The EN 16931 terms of a CII or UBL invoice; {} when ``xml`` is neither or is broken."""
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    try:
        root = etree.fromstring(xml.encode("utf-8"), parser)
    except etree.XMLSyntaxError:
        return {}
    read = _READERS.get(_local(root))
    if read is None:
        return {}
    reader = _Reader(root)
    read(reader)
    return reader.out
