"""PDFium is not thread-safe: parsing PDFs from several threads at once (what the service's job
workers do) must neither crash the interpreter nor mix up pages. Without the lock in
fieldwise._pdfium this test died with a segmentation fault."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from fieldwise.service.engines.parsing import parse_document
from tests.service.engines.parsing.conftest import make_invoice_pdf


def test_parallel_pdf_parsing_is_safe_and_correct() -> None:
    one_page, three_pages = make_invoice_pdf(1), make_invoice_pdf(3)

    def parse(i: int) -> tuple[int, str]:
        doc = parse_document(three_pages if i % 2 else one_page, filename="a.pdf")
        return len(doc.pages), doc.text

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(parse, range(120)))
    assert [pages for pages, _ in results] == [3 if i % 2 else 1 for i in range(120)]
    assert all("INV-2041" in text for _, text in results)
