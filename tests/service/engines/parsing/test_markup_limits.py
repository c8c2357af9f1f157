"""The markup bounds (DOCX and HTML), the words bound of the text grid, and the time budget:
each bound refuses alone, with :class:`LimitExceeded` naming its setting, before a tree or a
page of words is built."""

from __future__ import annotations

import pickle

import pytest

from fieldwise.service.engines.parsing import (
    LimitExceeded,
    PageLimitExceeded,
    ParseError,
    ParseLimits,
    TimeBudgetExceeded,
    parse_document,
)
from tests.service.engines.parsing.bombs import MIB, docx_with_body, paragraphs

_SMALL = b"<w:p><w:r><w:t>a small paragraph</w:t></w:r></w:p>"


def _refused(data: bytes, setting: str, limits: ParseLimits, name: str) -> LimitExceeded:
    with pytest.raises(LimitExceeded) as caught:
        parse_document(data, filename=name, limits=limits, ocr=False)
    assert caught.value.setting == setting, str(caught.value)
    assert f"(setting {setting})" in str(caught.value)
    return caught.value


def test_the_inflation_ratio_alone_refuses_a_docx_far_under_the_byte_bound() -> None:
    document = docx_with_body(_SMALL * 100_000)  # 5 MB of XML beside a 28 KB template
    error = _refused(document, "FIELDWISE_MAX_INFLATION_RATIO", ParseLimits(), "a.docx")
    assert error.count > 100
    assert "zip bomb" in str(error)


def test_the_inflated_bytes_alone_refuse_a_docx_at_a_modest_ratio() -> None:
    document = docx_with_body(paragraphs(2 * MIB, pad=10))  # inflates about 25 times
    limits = ParseLimits(max_markup_bytes=MIB)
    error = _refused(document, "FIELDWISE_MAX_MARKUP_BYTES", limits, "a.docx")
    assert error.count > 2 * MIB
    assert error.count < 100 * len(document)


def test_docx_elements_and_depth_are_bounded_before_python_docx_reads_them() -> None:
    many = docx_with_body(_SMALL * 2_000)
    _refused(
        many, "FIELDWISE_MAX_MARKUP_ELEMENTS", ParseLimits(max_markup_elements=5_000), "a.docx"
    )
    assert parse_document(many, filename="a.docx").pages  # within the defaults: read
    for levels, limit in ((60, 50), (300, 256)):  # ours, and past libxml2's own bound
        nested = docx_with_body(b"<w:customXml>" * levels + b"</w:customXml>" * levels + _SMALL)
        limits = ParseLimits(max_markup_depth=limit)
        _refused(nested, "FIELDWISE_MAX_MARKUP_DEPTH", limits, "a.docx")


def test_html_bytes_elements_and_depth_are_bounded_before_the_soup() -> None:
    page = b"<html><body>" + b"<p>a paragraph</p>" * 3_000 + b"</body></html>"
    assert "a paragraph" in parse_document(page, filename="a.html").markdown
    _refused(page, "FIELDWISE_MAX_MARKUP_BYTES", ParseLimits(max_markup_bytes=1_000), "a.html")
    limits = ParseLimits(max_markup_elements=1_000)
    _refused(page, "FIELDWISE_MAX_MARKUP_ELEMENTS", limits, "a.html")
    deep = b"<html><body>" + b"<div>" * 1_000 + b"deep" + b"</div>" * 1_000 + b"</body></html>"
    with pytest.raises(ParseError) as caught:  # never a RecursionError, never a 500
        parse_document(deep, filename="deep.html")
    assert isinstance(caught.value, LimitExceeded)
    assert "FIELDWISE_MAX_MARKUP_DEPTH" in str(caught.value)


def test_words_and_pages_are_bounded_before_lines_are_built() -> None:
    text = ("word " * 100 + "\n").encode() * 30
    _refused(text, "FIELDWISE_MAX_WORDS", ParseLimits(max_words=2_999), "a.txt")
    assert parse_document(text, filename="a.txt", limits=ParseLimits(max_words=3_000)).pages
    with pytest.raises(PageLimitExceeded):
        parse_document(b"line\n" * 1_000, filename="a.txt", limits=ParseLimits(max_pages=10))


def test_a_parse_stops_at_its_time_budget() -> None:
    from tests.service.engines.parsing.conftest import make_invoice_pdf

    document = make_invoice_pdf(pages=3)
    assert len(parse_document(document, limits=ParseLimits(max_seconds=60)).pages) == 3
    with pytest.raises(TimeBudgetExceeded) as caught:
        parse_document(document, limits=ParseLimits(max_seconds=1e-9))
    assert caught.value.http_status == 413
    assert str(caught.value) == "not parsed within 1e-09 s (0 of 3 pages read)"


@pytest.mark.parametrize(
    "error",
    [
        LimitExceeded("words laid out", 3, 2, "FIELDWISE_MAX_WORDS"),
        PageLimitExceeded(3, 2),
        TimeBudgetExceeded(2.0, "1 of 3 pages read"),
    ],
    ids=type,
)
def test_limit_errors_cross_a_process_boundary_as_themselves(error: ParseError) -> None:
    # An engine process sends its refusal back pickled: the default reduce called the class
    # with the message alone, which failed in the service and looked like a crashed worker.
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert str(copy) == str(error)
    assert vars(copy) == vars(error)
