"""Amounts OCR split at their decimal mark: "170. 00", "170 .00", "170 . 00" read as one word.

OCR sometimes sees a gap beside the decimal mark of a printed amount and returns it as two or
three words. The engine reads amounts word by word (an equation's printed amounts) and by
pattern within a snippet, and both take "170. 00" for 170 or for nothing. Before extraction
such words are joined back into one, but only where the document says how it prints amounts:

- the mark must be the document's decimal mark, the one its other amounts put before their
  cents ("149.00", "1.234,56"), used by more of them than the other mark;
- exactly two digits must follow it, the cents those amounts print: a thousands group ("1. 000",
  three digits) is never joined, nor the thousands mark of a document whose decimal mark is
  the other one (German "12. 50" on a page of "1.234,56");
- the part before the mark is a whole number, not the end of a date or a time ("09. 03." ends
  in a mark, "21:28. 00" has a colon), and the parts stand within a line height of each other
  (amounts in columns further apart are not one amount).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from functools import reduce

from fieldwise.service.engines.parsing import Box, Line, ParsedDocument, Word

__all__ = ["decimal_mark", "rejoin_decimals"]

_MARKS = (".", ",")
# an amount with two-digit cents inside a word: its last mark is the decimal one ("1,234.56")
_CENTS = re.compile(r"\d([.,])\d{2}(?![\d.,])")
_TAIL = re.compile(r"^\d{2}(?![\d.,])")


def decimal_mark(doc: ParsedDocument) -> str | None:
    """The mark most of the document's amounts put before two-digit cents, or None."""
    counts = Counter(
        match.group(1)
        for page in doc.pages
        for line in page.lines
        for match in _CENTS.finditer(line.text)
    )
    dot, comma = counts["."], counts[","]
    if dot == comma:
        return None
    return "." if dot > comma else ","


def _whole(mark: str) -> str:
    """A whole number ending a word, its thousands grouped by the other mark or not at all;
    not the end of a date, a time or a code ("09/03", "21:28", "2018-03")."""
    other = re.escape(_MARKS[1 - _MARKS.index(mark)])
    return rf"(?<![\d.,/:])(?<!\d-)(?:\d{{1,3}}(?:{other}\d{{3}})+|\d+)"


def _close(left: Word, right: Word) -> bool:
    height = max(left.box.height, right.box.height)
    return right.box.x0 - left.box.x1 <= height


def _joined(parts: tuple[Word, ...]) -> Word:
    return Word(
        "".join(w.text for w in parts),
        reduce(Box.union, (w.box for w in parts)),
        min(w.confidence for w in parts),
    )


class _Rejoiner:
    """The split shapes of one decimal mark."""

    def __init__(self, mark: str) -> None:
        whole = _whole(mark)
        self.mark = mark
        self.before = re.compile(rf"{whole}{re.escape(mark)}$")  # "170." + "00"
        self.number = re.compile(rf"{whole}$")  # "170" + ".00", "170" + "." + "00"
        self.after = re.compile(rf"^{re.escape(mark)}\d{{2}}(?![\d.,])")

    def span(self, words: tuple[Word, ...], i: int) -> int:
        """How many words from ``i`` on make one split amount (1: none)."""
        rest = words[i:]
        if len(rest) >= 2 and _close(rest[0], rest[1]):
            first, second = rest[0].text, rest[1].text
            if self.before.search(first) and _TAIL.match(second):
                return 2
            if self.number.search(first) and self.after.match(second):
                return 2
            if (
                len(rest) >= 3
                and self.number.search(first)
                and second == self.mark
                and _close(rest[1], rest[2])
                and _TAIL.match(rest[2].text)
            ):
                return 3
        return 1

    def line(self, line: Line) -> Line:
        words: list[Word] = []
        i = 0
        while i < len(line.words):
            n = self.span(line.words, i)
            words.append(_joined(line.words[i : i + n]) if n > 1 else line.words[i])
            i += n
        if len(words) == len(line.words):
            return line
        return Line(tuple(words), line.box, " ".join(w.text for w in words))


def rejoin_decimals(doc: ParsedDocument) -> ParsedDocument:
    """``doc`` with every amount split at its decimal mark made one word again (the same
    object when none is)."""
    mark = decimal_mark(doc)
    if mark is None:
        return doc
    rejoiner = _Rejoiner(mark)
    pages = []
    changed = False
    for page in doc.pages:
        lines = tuple(rejoiner.line(line) for line in page.lines)
        if any(new is not old for new, old in zip(lines, page.lines, strict=True)):
            changed = True
            page = replace(page, lines=lines)
        pages.append(page)
    return replace(doc, pages=tuple(pages)) if changed else doc
