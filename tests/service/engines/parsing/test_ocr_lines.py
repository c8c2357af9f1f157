"""``group_ocr_lines``: OCR boxes to lines without chaining, on generated layouts.

OCR boxes are the upright bounds of tilted text regions: on a photographed receipt they are up
to twice as tall as the text and reach into the lines above and below. The layouts here are
built as words with boxes directly, the way the OCR engine hands them to the parser:

- a receipt header of five lines, each box 70 px tall, a 34 px pitch apart (every box overlaps
  the next by half of it);
- a bold total printed taller than its label, its box reaching above the label's, under item
  rows of a level receipt;
- a scanned invoice tilted by 1.2 degrees: a header row of four labels with their values on the
  row below (each value region a little lower than its label, as the tilt puts it), and table
  rows whose cells drift down by 5 units from the description to the amount.
"""

from __future__ import annotations

from fieldwise.service.engines.parsing.layout import group_lines, group_ocr_lines, page_tilt
from fieldwise.service.engines.parsing.model import Box, Word

HEADER = [
    "AIK HUAT HARDWARE",
    "ENTERPRISE (SETIA ALAM) SDN BHD",
    "NO. 17-G, JALAN SETIA INDAH",
    "SEKSYEN U13, 40170 SHAH ALAM",
    "TEL: 012-6651783",
]


def _region(text: str, x0: float, y0: float, width: float, height: float) -> list[Word]:
    """The words of one OCR region: they share its top and bottom, spread over its width."""
    tokens = text.split()
    step = width / len(tokens)
    return [
        Word(token, Box(x0 + k * step, y0, x0 + (k + 1) * step - 4, y0 + height), 0.9)
        for k, token in enumerate(tokens)
    ]


def _texts(words: list[Word]) -> list[str]:
    return [line.text for line in group_ocr_lines(words)]


def test_tall_boxes_a_line_apart_stay_apart() -> None:
    words = [w for k, text in enumerate(HEADER) for w in _region(text, 100, 290 + 34 * k, 500, 70)]
    assert _texts(words) == HEADER
    # the row that grows by every word chains them all into one
    assert len(group_lines(words)) == 1


def test_a_taller_amount_beside_its_label_is_on_its_line() -> None:
    items = [(f"1 ITEM {k}", f"{k}.00") for k in range(1, 6)]
    words = [
        w
        for k, (item, amount) in enumerate(items)
        for w in (
            *_region(item, 20, 560 + 40 * k, 200, 36),
            *_region(amount, 640, 560 + 40 * k, 70, 36),
        )
    ]
    words += [
        *_region("SUB TOTAL 7.00", 20, 795, 690, 36),
        *_region("NET TOTAL", 60, 961, 135, 36),
        *_region("7.40", 640, 936, 70, 57),  # printed large: its box reaches above the label's
        *_region("Cash", 60, 994, 50, 33),
        *_region("7.40", 640, 990, 70, 36),
        *_region("CHANGE", 60, 1053, 90, 32),
        *_region("0.00", 640, 1026, 70, 58),
    ]
    assert _texts(words)[len(items) :] == [
        "SUB TOTAL 7.00",
        "NET TOTAL 7.40",
        "Cash 7.40",
        "CHANGE 0.00",
    ]


def test_a_tilted_scan_keeps_its_rows_and_its_header_apart_from_its_values() -> None:
    slope = 0.021  # 1.2 degrees: down 0.021 per unit to the right

    def cell(text: str, x0: float, top: float, width: float) -> list[Word]:
        return _region(text, x0, top + slope * (x0 + width / 2), width, 14)

    labels = ["Invoice Number", "Invoice Date", "Pay by", "Currency"]
    values = ["INV-2025-94468", "March 1, 2025", "April 15, 2025", "GBP"]
    words = []
    for k, (label, value) in enumerate(zip(labels, values, strict=True)):
        words += cell(label, 50 + 120 * k, 120, 90)
        words += cell(value, 50 + 120 * k, 133, 90)
    rows = [
        ("Quality audit", "12", "135.00", "1620.00"),
        ("Project management", "8", "50.00", "400.00"),
    ]
    for k, row in enumerate(rows):
        top = 260 + 20 * k
        for x0, text in zip((50, 300, 400, 480), row, strict=True):
            words += cell(text, x0, top, 70)
    assert _texts(words) == [
        "Invoice Number Invoice Date Pay by Currency",
        "INV-2025-94468 March 1, 2025 April 15, 2025 GBP",
        "Quality audit 12 135.00 1620.00",
        "Project management 8 50.00 400.00",
    ]
    assert abs(page_tilt(words) - slope) < 0.002


def test_lines_read_top_to_bottom_and_left_to_right_whatever_the_order_given() -> None:
    words = [*_region("TOTAL", 80, 1212, 90, 41), *_region("15.00", 560, 1219, 100, 38)]
    words += _region("CASH 15.00", 80, 1248, 580, 39)
    (first, second) = group_ocr_lines(list(reversed(words)))
    assert [w.text for w in first.words] == ["TOTAL", "15.00"]
    assert first.box == Box(80, 1212, 656, 1257)
    assert second.text == "CASH 15.00"


def test_a_level_page_has_no_tilt_and_no_words_no_lines() -> None:
    words = _region("Date 05/03/2024", 10, 10, 200, 12) + _region("Total 99.00", 300, 10, 150, 12)
    assert page_tilt(words) == 0.0
    assert _texts(words) == ["Date 05/03/2024 Total 99.00"]
    assert group_ocr_lines([]) == ()
    assert page_tilt([]) == 0.0
