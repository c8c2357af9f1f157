"""Geometry shared by every format: words to lines, lines to cells, and the text grid.

The text grid lays out structured formats (DOCX, HTML, text, CSV) as if printed in a monospace
font, so the extraction engine reads every format through the same words-with-boxes model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter, itemgetter

from fieldwise.service.engines.parsing.model import (
    GRID_CHAR_WIDTH,
    GRID_LINE_HEIGHT,
    Box,
    Line,
    Word,
)

__all__ = [
    "OCR_LINE_OVERLAP",
    "grid_line",
    "group_lines",
    "group_ocr_lines",
    "group_text_lines",
    "median",
    "split_cells",
]


_LEFT = attrgetter("box.x0")
_TOP_LEFT = attrgetter("box.y0", "box.x0")
# a Word is (text, box, confidence): the items, read without the named tuples' properties
_TEXT = itemgetter(0)
_BOX = itemgetter(1)
_X0 = itemgetter(0)  # a Box's edges
_Y0 = itemgetter(1)
_X1 = itemgetter(2)
_Y1 = itemgetter(3)
# Line and Box built as the tuples they are: the named tuples' ``__new__`` is a Python function
_new = tuple.__new__

#: how much of the lower of two OCR boxes side by side their vertical extents must share to be
#: one line. OCR boxes are the upright bounds of tilted regions, so on a photographed receipt
#: they are up to twice as tall as the text and reach into the lines above and below: boxes a
#: line apart still share half of the lower one (0.51-0.61 on the tune half's stacked header
#: lines), boxes of one line nearly all of it (0.79 and more on a tilted line).
OCR_LINE_OVERLAP = 0.7

_Edges = tuple[float, float, float, float]  # left, top, right, bottom, as a Box's


def median(values: Iterable[float]) -> float:
    """``statistics.median`` (the same float for the same values) without its generality,
    which cost more than the rest of a line's layout."""
    data = sorted(values)
    n = len(data)
    if n == 0:
        raise ValueError("no median for empty data")
    if n % 2 == 1:
        return data[n // 2]
    return (data[n // 2 - 1] + data[n // 2]) / 2


def make_line(words: Sequence[Word], top: float | None = None, bottom: float | None = None) -> Line:
    """A line from words already on one row (sorted left to right here). ``top`` and
    ``bottom``, when given, are the row's least top and greatest bottom as the grouping found
    them (:func:`group_text_lines`), not looked for again; a zero among them is looked for
    again (0.0 and -0.0 are equal but print apart, and ``min`` keeps the first of equals)."""
    if len(words) == 1:  # its box and text are the word's own
        word = words[0]
        return _new(Line, ((word,), word[1], word[0]))
    ordered = sorted(words, key=_LEFT)
    boxes = list(map(_BOX, ordered))
    if top is None or bottom is None or top == 0.0 or bottom == 0.0:
        # min and max keep the first of equal values, as the running comparison they
        # replace did
        top, bottom = min(map(_Y0, boxes)), max(map(_Y1, boxes))
    box = _new(Box, (min(map(_X0, boxes)), top, max(map(_X1, boxes)), bottom))
    return _new(Line, (tuple(ordered), box, " ".join(map(_TEXT, ordered))))


def group_lines(words: Iterable[Word]) -> tuple[Line, ...]:
    """Group words into rows by vertical overlap, top to bottom, each row left to right.

    A word joins a row when its vertical centre lies within the row's extent; rows are then
    ordered by their top edge so the reading order does not depend on the producer's order.
    """
    rows, _tops, _bottoms = _rows(words)
    lines = [make_line(row) for row in rows]
    lines.sort(key=_TOP_LEFT)
    return tuple(lines)


def group_text_lines(words: Iterable[Word]) -> tuple[Line, ...]:
    """:func:`group_lines` for words whose box edges are all floats (a PDF's text layer): the
    same lines, each row's top and bottom taken from the grouping instead of again per line.

    Why they are the same floats: a row's running top is its words' least top, as ``min``
    finds it, unless a top is NaN or the least is a zero (0.0 and -0.0 are equal but print
    apart, and the two keep the first of equals in different orders). A word whose centre is
    NaN never joins a row, and a row it starts takes other words only when its edges are -inf
    and inf: the tops and bottoms of a row of two or more words are no NaN. A row whose top
    or bottom is zero has them looked for again by :func:`make_line`. With ints mixed in, an
    equal int and float would differ too: hence floats only.
    """
    rows, tops, bottoms = _rows(words)
    lines = [
        make_line(row, top, bottom) for row, top, bottom in zip(rows, tops, bottoms, strict=True)
    ]
    lines.sort(key=_TOP_LEFT)
    return tuple(lines)


def group_ocr_lines(words: Iterable[Word], share: float = OCR_LINE_OVERLAP) -> tuple[Line, ...]:
    """Group OCR words into lines, top to bottom, each line left to right, without chaining.

    :func:`group_lines` lets a row grow by every word it takes, so OCR boxes that overlap
    vertically (tall, tilted regions a line pitch apart) chain a whole block into one row. Here
    a word joins the line whose word nearest to it left or right shares at least ``share`` of
    the lower box's height with it (the line sharing most, if several), once the page's tilt
    (:func:`page_tilt`) is taken out of every box: a line may follow a tilted page along its
    words, never step down to the next line through them.
    """
    listed = list(words)
    tilt = page_tilt(listed)
    # each word's vertical extent with the tilt taken out, beside its left and right edges
    upright = [
        (x0, y0 - tilt * (x0 + x1) / 2, x1, y1 - tilt * (x0 + x1) / 2)
        for x0, y0, x1, y1 in (w[1] for w in listed)
    ]
    order = sorted(
        range(len(listed)), key=lambda i: (upright[i][1] + upright[i][3], upright[i][0], i)
    )
    rows: list[list[int]] = []
    lowest: list[float] = []  # each row's lowest bottom
    for i in order:
        box = upright[i]
        best, best_share = -1, share
        for k in range(len(rows)):
            if lowest[k] <= box[1]:  # the whole row is above the word: nothing shared
                continue
            shared = _shared_height([upright[j] for j in rows[k]], box)
            if shared >= best_share:
                best, best_share = k, shared
        if best < 0:
            rows.append([i])
            lowest.append(box[3])
        else:
            rows[best].append(i)
            lowest[best] = max(lowest[best], box[3])
    lines = [make_line([listed[j] for j in row]) for row in rows]
    lines.sort(key=_TOP_LEFT)
    return tuple(lines)


def page_tilt(words: Sequence[Word]) -> float:
    """The page's tilt as a slope (down per unit right): the median slope between the centres
    of OCR regions side by side (apart, and sharing half of the lower height vertically);
    0.0 without any such pair. The words of one region are level by construction, so they
    vote once, as their region (:func:`_regions`)."""
    regions = _regions(words)
    slopes: list[float] = []
    for a, (ax0, ay0, ax1, ay1) in enumerate(regions):
        for bx0, by0, bx1, by1 in regions[a + 1 :]:
            if by0 >= ay1:  # regions come by top: none further down meets this one
                break
            low = min(ay1 - ay0, by1 - by0)
            if not low > 0 or (bx0 < ax1 and ax0 < bx1):
                continue
            if min(ay1, by1) - max(ay0, by0) >= low / 2:
                slopes.append((by0 + by1 - ay0 - ay1) / (bx0 + bx1 - ax0 - ax1))
    return median(slopes) if slopes else 0.0


def _regions(words: Sequence[Word]) -> list[Box]:
    """The OCR regions the words were split from: runs of boxes with the same top and bottom,
    each less than their height from the one before (a space, not a column gap)."""
    regions: list[Box] = []
    for x0, y0, x1, y1 in sorted({w[1] for w in words}, key=lambda b: (b[1], b[3], b[0])):
        if regions:
            rx0, ry0, rx1, ry1 = regions[-1]
            if (ry0, ry1) == (y0, y1) and x0 - rx1 < y1 - y0:
                regions[-1] = _new(Box, (rx0, ry0, max(rx1, x1), ry1))
                continue
        regions.append(_new(Box, (x0, y0, x1, y1)))
    return regions


def _shared_height(row: Sequence[_Edges], box: _Edges) -> float:
    """The share of the lower height that ``box`` and the box of ``row`` nearest to it left
    or right (the nearer centre among equals) have in common vertically; 0 for a flat box."""
    x0, y0, x1, y1 = box
    cy2 = y0 + y1
    near = min(row, key=lambda b: (max(0.0, b[0] - x1, x0 - b[2]), abs(b[1] + b[3] - cy2)))
    low = min(y1 - y0, near[3] - near[1])
    if not low > 0:
        return 0.0
    return (min(y1, near[3]) - max(y0, near[1])) / low


def _rows(words: Iterable[Word]) -> tuple[list[list[Word]], list[float], list[float]]:
    """The rows of :func:`group_lines`, in the order they were started, with each row's top
    (least word top) and bottom (greatest word bottom)."""
    rows: list[list[Word]] = []
    tops: list[float] = []
    bottoms: list[float] = []
    # the index decides ties before the rest is compared; the edges ride along for the loop
    keyed = [
        ((by0 + by1) / 2, bx0, i, by0, by1, w)
        for i, w in enumerate(words)
        for bx0, by0, _bx1, by1 in (w[1],)
    ]
    keyed.sort()
    row: list[Word] = []
    top = bottom = 0.0
    for cy, _x0, _i, by0, by1, word in keyed:
        if row and top <= cy <= bottom:  # the newest row: where nearly every word goes
            row.append(word)
            if by0 < top:
                top = tops[-1] = by0
            if by1 > bottom:
                bottom = bottoms[-1] = by1
            continue
        n = len(rows)
        for i in range(n - 2, n - 4 if n > 3 else -1, -1):  # the two rows before it
            if tops[i] <= cy <= bottoms[i]:
                rows[i].append(word)
                if by0 < tops[i]:
                    tops[i] = by0
                if by1 > bottoms[i]:
                    bottoms[i] = by1
                break
        else:
            row = [word]
            top, bottom = by0, by1
            rows.append(row)
            tops.append(by0)
            bottoms.append(by1)
    return rows, tops, bottoms


def split_cells(line: Line, gap_factor: float = 1.2) -> list[tuple[Word, ...]]:
    """Split a line into cells where the horizontal gap is wider than ``gap_factor`` x height.

    A normal space is about a third of the text height; columns of a form or table are
    separated by much more.
    """
    if not line.words:
        return []
    words = tuple(line.words)  # the cells are slices of it
    if len(words) == 1:  # most lines of a page: nothing to split, no median to take
        return [words]
    height = median([w.box.y1 - w.box.y0 for w in words]) or 1.0
    wide = gap_factor * height
    cells: list[tuple[Word, ...]] = []
    begin = 0
    right = words[0].box.x1
    for k in range(1, len(words)):
        box = words[k].box
        if box.x0 - right > wide:
            cells.append(words[begin:k])
            begin = k
        right = box.x1
    cells.append(words[begin:])
    return cells


def grid_line(cells: Sequence[tuple[int, str]], row: int) -> Line | None:
    """A line of the text grid: ``cells`` are (column in characters, text) on grid row ``row``."""
    words: list[Word] = []
    top = row * GRID_LINE_HEIGHT
    for col, text in cells:
        offset = col
        for token in text.split(" "):
            if token:
                x0 = offset * GRID_CHAR_WIDTH
                words.append(
                    Word(
                        token,
                        Box(
                            x0, top, x0 + len(token) * GRID_CHAR_WIDTH, top + GRID_LINE_HEIGHT * 0.8
                        ),
                    )
                )
            offset += len(token) + 1
    return make_line(words) if words else None
