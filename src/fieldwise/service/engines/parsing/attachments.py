"""The invoice XML a PDF carries as an embedded file (Factur-X, ZUGFeRD, XRechnung).

A hybrid e-invoice is a PDF/A-3 whose embedded files include the invoice itself as CII or UBL
XML; the standards name it ``factur-x.xml``, ``zugferd-invoice.xml``, ``ZUGFeRD-invoice.xml``
or ``xrechnung.xml``. A PDF may embed other files beside it (delivery notes as PDF, images):
only an XML file whose root element is a CII ``CrossIndustryInvoice`` or a UBL ``Invoice`` /
``CreditNote`` is taken, so nothing else is ever read as an invoice. The caller holds
:data:`~fieldwise.service.engines.parsing.pdf.PDFIUM_LOCK` (pdfium is not thread-safe).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MAX_XML_BYTES", "invoice_xml"]

#: A larger embedded file is not read (the biggest real invoice XMLs are a few hundred KB).
MAX_XML_BYTES = 8 * 2**20

# the root element's local name after the XML declaration, comments and processing
# instructions; a cheap sniff that avoids parsing attachments that are not invoices
_ROOT = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(CrossIndustryInvoice|Invoice|CreditNote)[\s>/]")
_PREFERRED = ("factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml")


def _is_invoice(data: bytes) -> bool:
    head = re.sub(rb"<!--.*?-->|<\?.*?\?>", b"", data[:65536], flags=re.S)
    found = _ROOT.search(head)
    return found is not None and head[: found.start()].strip() == b""


def invoice_xml(document: Any) -> str | None:
    """The text of the invoice XML embedded in pdfium ``document``, or None.

    A file the standards name comes first; otherwise the first XML attachment with an invoice
    root. Bytes that are not UTF-8 are replaced (the XML standards of e-invoices mandate it).
    """
    found: list[tuple[int, bytes]] = []
    for index in range(document.count_attachments()):
        attachment = document.get_attachment(index)
        name = str(attachment.get_name() or "").lower()
        if not name.endswith(".xml"):
            continue
        data = bytes(attachment.get_data())
        if len(data) > MAX_XML_BYTES or not _is_invoice(data):
            continue
        rank = _PREFERRED.index(name) if name in _PREFERRED else len(_PREFERRED)
        found.append((rank, data))
    if not found:
        return None
    data = min(found, key=lambda item: item[0])[1]
    return data.decode("utf-8", errors="replace")
