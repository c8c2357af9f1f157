"""Hybrid e-invoices made on the fly: a printed page plus the invoice as embedded XML.

The page prints only part of the invoice (number, date and total), so a field the XML alone
holds shows whether a value came from the XML or the page.
"""

from __future__ import annotations

import io

CII = """<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment before the root, as producers write them -->
<rsm:CrossIndustryInvoice
  xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
  xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
  xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocument>
    <ram:ID>RE-2024-77</ram:ID>
    <ram:TypeCode>380</ram:TypeCode>
    <ram:IssueDateTime>
    <udt:DateTimeString format="102">20240315</udt:DateTimeString>
    </ram:IssueDateTime>
  </rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty>
        <ram:Name>Nordlicht Werkzeuge GmbH</ram:Name>
        <ram:PostalTradeAddress>
          <ram:PostcodeCode>24103</ram:PostcodeCode>
          <ram:LineOne>Hafenstraße 9</ram:LineOne>
          <ram:CityName>Kiel</ram:CityName>
          <ram:CountryID>DE</ram:CountryID>
        </ram:PostalTradeAddress>
        <ram:SpecifiedTaxRegistration>
        <ram:ID schemeID="FC">19/290/12345</ram:ID>
        </ram:SpecifiedTaxRegistration>
        <ram:SpecifiedTaxRegistration>
        <ram:ID schemeID="VA">DE298765432</ram:ID>
        </ram:SpecifiedTaxRegistration>
      </ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Werft Süd AG</ram:Name></ram:BuyerTradeParty>
      <ram:BuyerOrderReferencedDocument>
      <ram:IssuerAssignedID>PO-5521</ram:IssuerAssignedID>
      </ram:BuyerOrderReferencedDocument>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementPaymentMeans>
        <ram:PayeePartyCreditorFinancialAccount>
        <ram:IBANID>DE02120300000000202051</ram:IBANID>
        </ram:PayeePartyCreditorFinancialAccount>
      </ram:SpecifiedTradeSettlementPaymentMeans>
      <ram:ApplicableTradeTax>
      <ram:RateApplicablePercent>19.00</ram:RateApplicablePercent>
      </ram:ApplicableTradeTax>
      <ram:SpecifiedTradePaymentTerms>
        <ram:DueDateDateTime>
        <udt:DateTimeString format="102">20240414</udt:DateTimeString>
        </ram:DueDateDateTime>
      </ram:SpecifiedTradePaymentTerms>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>1000.00</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount>1000.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="USD">205.00</ram:TaxTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">190.00</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>1190.00</ram:GrandTotalAmount>
        <ram:DuePayableAmount>1190.00</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
"""

UBL = """<?xml version="1.0" encoding="UTF-8"?>
<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>GS-12</cbc:ID>
  <cbc:IssueDate>2024-05-02</cbc:IssueDate>
  <cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>
  <cbc:DocumentCurrencyCode>CHF</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party>
    <cac:PartyName><cbc:Name>Alpenblick</cbc:Name></cac:PartyName>
    <cac:PostalAddress>
    <cbc:CityName>Luzern</cbc:CityName>
    <cbc:PostalZone>6003</cbc:PostalZone>
    </cac:PostalAddress>
    <cac:PartyTaxScheme>
    <cbc:CompanyID>CHE123456789</cbc:CompanyID>
    <cac:TaxScheme>
    <cbc:ID>VAT</cbc:ID>
    </cac:TaxScheme>
    </cac:PartyTaxScheme>
    <cac:PartyLegalEntity>
    <cbc:RegistrationName>Alpenblick Reisen AG</cbc:RegistrationName>
    </cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty>
  <cac:Party>
  <cac:PartyName>
  <cbc:Name>Tal Hotel</cbc:Name>
  </cac:PartyName>
  </cac:Party>
  </cac:AccountingCustomerParty>
  <cac:TaxTotal><cbc:TaxAmount currencyID="CHF">8.10</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="CHF">100.00</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="CHF">100.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="CHF">108.10</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="CHF">108.10</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
</CreditNote>
"""


def hybrid_pdf(attachments: dict[str, str]) -> bytes:
    """A one-page invoice PDF (number, date, total printed) with ``attachments`` embedded."""
    import pypdfium2 as pdfium
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    page = canvas.Canvas(buf, pagesize=A4, invariant=1)
    page.setFont("Helvetica", 10)
    for y, (label, value) in zip(
        (760, 744, 728),
        (("Rechnungsnummer:", "RE-2024-77"), ("Rechnungsdatum:", "15.03.2024"),
         ("Gesamtbetrag:", "1.190,00 EUR")),
        strict=True,
    ):  # fmt: skip
        page.drawString(72, y, label)
        page.drawString(200, y, value)
    page.showPage()
    page.save()
    document = pdfium.PdfDocument(buf.getvalue())
    for name, text in attachments.items():
        document.new_attachment(name).set_data(text.encode("utf-8"))
    out = io.BytesIO()
    document.save(out)
    document.close()
    return out.getvalue()
