"""Candidates and the features that describe them, on small real parsed documents."""

from __future__ import annotations

import pytest

from fieldwise.service.engines.extraction import FieldSpec, validate_config
from fieldwise.service.engines.parsing import ParsedDocument, parse_document
from fieldwise.service.engines.training.candidates import base_candidates, unglue_date
from fieldwise.service.engines.training.features import BASE_FEATURES, DocInfo, feature_matrix

RECEIPT = (
    "THANK YOU\n"
    "SHOP NAME SDN BHD\n"
    "(1234-X)\n"
    "No 5, Jalan Satu\n"
    "CB#: 4597 25/Feb/201707: 43: 54\n"
    "TOTAL 12.00\n"
)


def _doc(text: str) -> ParsedDocument:
    return parse_document(text.encode())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("25/Feb/201707: 43", "25/Feb/2017 07: 43"),
        ("12Mar201818: 19", "12Mar2018 18: 19"),
        ("10~04-2018", "10-04-2018"),
        ("25/02/2017", "25/02/2017"),  # nothing glued: unchanged
        ("12345678", "12345678"),  # no year at a word's start: unchanged
    ],
)
def test_unglue_cuts_the_time_off_a_year_and_reads_tildes_as_hyphens(
    text: str, expected: str
) -> None:
    assert unglue_date(text) == expected


@pytest.mark.parametrize(
    ("line", "iso"),
    [
        ("CB#: 4597 25/Feb/201707: 43: 54", "2017-02-25"),
        ("10~04-2018 08: 11: 53 Cashier: 465", "2018-04-10"),
        ("12Mar201818: 19", "2018-03-12"),
    ],
)
def test_a_date_glued_to_its_time_is_a_candidate(line: str, iso: str) -> None:
    config = validate_config(
        {"fields": [{"name": "date", "type": "date"}], "date_order": "DMY", "lenient_dates": True}
    )
    found = base_candidates(_doc(f"SHOP\n{line}\n"), FieldSpec("date", "date"), config, 5)
    repaired = [c for c in found if c.value == iso]
    assert repaired, [c.value for c in found]
    assert not repaired[0].exact  # a repaired reading is never an exact one


def test_lines_above_count_text_legal_form_and_digit_lines() -> None:
    doc = _doc(RECEIPT)
    config = validate_config({"fields": [{"name": "company", "type": "string"}]})
    spec = FieldSpec("company", "string")
    cands = [c for c in base_candidates(doc, spec, config, 5) if c.source == "line"]
    info = DocInfo(doc, {}, {}, {}, [])
    rows = feature_matrix(info, cands, spec, ["company"], ())
    column = {name: i for i, name in enumerate(BASE_FEATURES)}
    by_text = {c.text: rows[i] for i, c in enumerate(cands)}
    shop, address = by_text["SHOP NAME SDN BHD"], by_text["No 5, Jalan Satu"]
    assert shop[column["text_lines_above"]] == 1  # "THANK YOU"
    assert shop[column["legal_lines_above"]] == 0
    assert address[column["legal_lines_above"]] == 1  # "SDN BHD" is a legal form
    assert address[column["digit_lines_above"]] == 1  # "(1234-X)"
    assert address[column["text_lines_above"]] == 2
