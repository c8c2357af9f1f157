"""Date plausibility: a year no other date of the document comes near is not taken."""

from __future__ import annotations

from typing import Any

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import parse_document

LABELLED = {"name": "date", "type": "date", "labels": ["Date"]}
SCANNED = {"name": "date", "type": "date"}


def _read(field: dict[str, Any], *lines: str) -> Any:
    text = "\n".join(["RECEIPT", "", *lines]) + "\n"
    config = validate_config({"date_order": "DMY", "lenient_dates": True, "fields": [field]})
    doc = parse_document(text.encode(), filename="receipt.txt")
    return extract(doc, config)["value"].get("date")


GAP = ("", "", "", "", "")  # far enough that the label reads nothing below it


def test_an_implausible_labelled_date_is_missed_rather_than_wrong() -> None:
    lines = ("Date: 05/01/2061", *GAP, "Printed 05/01/2018 10:22", "Valid until 31/12/2018")
    assert _read(LABELLED, *lines) is None


def test_a_plausible_candidate_below_the_label_wins_over_an_implausible_one() -> None:
    lines = ("Date: 05/01/2061", "Printed 05/01/2018 10:22", "Valid until 31/12/2018")
    assert _read(LABELLED, *lines) == "2018-01-05"


def test_a_lone_date_has_no_evidence_against_it() -> None:
    assert _read(LABELLED, "Date: 05/01/2061", "Thank you") == "2061-01-05"


def test_the_scan_skips_to_the_first_plausible_date() -> None:
    lines = ("Ref 12/03/2060", "Date 12/03/2018", "Paid 13/03/2018")
    assert _read(SCANNED, *lines) == "2018-03-12"


def test_dates_a_few_years_apart_all_stand() -> None:
    lines = ("Date: 05/01/2016", "Member since 01/02/2014", "Valid until 31/12/2018")
    assert _read(LABELLED, *lines) == "2016-01-05"
