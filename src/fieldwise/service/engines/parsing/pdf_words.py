"""Words of a PDF page's text layer: read in bulk, with the per-character reader as the fallback.

A word is a run of characters that are neither whitespace nor NUL (pdfium's generated
characters, the spaces and line breaks it infers, are whitespace), split further where the
next character leaves the word's row, jumps right by more than 0.35 of its height, or goes
back left of the word; its box is the union of the characters' loose boxes (pdfium's font
ascent-to-descent boxes, so every word on a baseline has the same top and bottom).

:func:`exact_words` applies that rule character by character: three calls into pdfium per
character, which made it three quarters of the parse time. :func:`text_words` reads the
page's text in one call, cuts it into whitespace-free tokens with a regular expression and
reads loose boxes only at a token's first, second and last character. A token is one word
spanning its ends when every character beyond ASCII in it is a letter, a digit or a currency
sign (ü, ß, é precomposed, € and £: one spacing glyph each, like an ASCII letter; no
invoice sets a currency sign over another glyph as an accent is), lies in one text object
(``FPDFText_CountRects`` is 1), its three sampled characters share one baseline and go left to
right without a split-wide gap after the first, and it advances less than 0.7 of its height
per character (so it is not letter-spaced). Why that suffices: inside one text object of one
font, characters share the baseline and the loose top and bottom; pdfium turns kerning gaps
wider than about half a space into generated spaces, so what is left to split a word is
character spacing, which is the same after every character. Every other token — an accent or
other mark beyond ASCII may be a glyph moved back over its letter — goes through the boxes of
each of its characters, and a page whose text holds surrogates or pdfium's control
characters, or does not map one unit per character, through :func:`exact_words`.
``tests/service/engines/parsing/test_pdf_words.py`` holds the result equal to the old reader
on every PDF at hand (word for word, boxes within 0.5 pt).
"""

from __future__ import annotations

import ctypes
import re
import struct
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from fieldwise.service.engines.parsing.model import Box, Word
from fieldwise.service.engines.parsing.safety import REPLACEMENT, join_utf16

__all__ = ["exact_words", "raw_text_words", "text_words"]

_TOKEN = re.compile(r"[^\s\x00]+")
# a character beyond ASCII that is no letter, digit or currency sign (U+00A2-U+00A5 and the
# Currency Symbols block: €): an accent, a combining mark, another symbol
_MARK = re.compile(r"[^\x00-\x7f\w\u00a2-\u00a5\u20a0-\u20c0]")
# surrogates (the exact reader joins pairs, replaces halves) and the characters pdfium treats
# as control characters (a hyphen among them can read differently in the page's text)
_SPECIAL = re.compile("[\x00-\x08\x0e-\x1f\x93\x94\x96-\x98\ud800-\udfff\ufffe]")
_GAP = 0.35  # of a character's height: wider and the next character starts a new word
# Of the height: a token whose characters advance more than this on average is letter-spaced
# (character spacing inside one text object, where pdfium generates no spaces) and may hold
# gaps that split it; Latin glyphs advance about 0.5 of it, the widest (W, M) 0.95.
_ADVANCE = 0.7


def _surrogate(raw: object, code: int, i: int, count: int) -> tuple[str, bool]:
    """Char ``i`` (a UTF-16 surrogate ``code``) as a whole code point, and whether it took
    char ``i + 1`` too.

    PDFium reports one UTF-16 unit per char index: a glyph mapped to an emoji arrives as a high
    and a low surrogate at two indices, which are joined here; a lone half becomes U+FFFD.
    """
    if 0xD800 <= code <= 0xDBFF and i + 1 < count:
        joined = join_utf16(code, pdfium_c.FPDFText_GetUnicode(raw, i + 1))
        if joined is not None:
            return joined, True
    return REPLACEMENT, False


def exact_words(textpage: pdfium.PdfTextPage, height: float) -> list[Word]:
    """Words of the page, char by char (three calls into pdfium each).

    The running word box is kept as four floats (a :class:`Box` per character cost more than
    pdfium itself); the split test is the rule of the module docstring.
    """
    return _exact_words(textpage.raw, height)


def _exact_words(raw: Any, height: float) -> list[Word]:
    count = pdfium_c.FPDFText_CountChars(raw)
    rect = pdfium_c.FS_RECTF()
    ref = ctypes.byref(rect)
    loose = pdfium_c.FPDFText_GetLooseCharBox
    words: list[Word] = []
    chars: list[str] = []
    x0 = y0 = x1 = y1 = 0.0
    skip = -1
    for i in range(count):
        if i == skip:
            continue  # the low half of a surrogate pair read with its high half
        code = pdfium_c.FPDFText_GetUnicode(raw, i)
        if 0xD800 <= code <= 0xDFFF:
            ch, pair = _surrogate(raw, code, i, count)
            if pair:
                skip = i + 1
        else:
            ch = chr(code) if 0 < code < 0x110000 else " "
        if ch.isspace() or ch == "\x00" or pdfium_c.FPDFText_IsGenerated(raw, i) == 1:
            if chars:
                words.append(Word("".join(chars), Box(x0, y0, x1, y1)))
            chars = []
            continue
        loose(raw, i, ref)
        cx0, cy0, cx1, cy1 = rect.left, height - rect.top, rect.right, height - rect.bottom
        if chars and (
            abs((cy0 + cy1) / 2 - (y0 + y1) / 2) > (y1 - y0) / 2
            or cx0 - x1 > (cy1 - cy0) * _GAP
            or cx1 < x0
        ):
            words.append(Word("".join(chars), Box(x0, y0, x1, y1)))
            chars = []
        if chars:
            x0, y0, x1, y1 = min(x0, cx0), min(y0, cy0), max(x1, cx1), max(y1, cy1)
        else:
            x0, y0, x1, y1 = cx0, cy0, cx1, cy1
        chars.append(ch)
    if chars:
        words.append(Word("".join(chars), Box(x0, y0, x1, y1)))
    return words


def _page_text(raw: object, count: int) -> str | None:
    """The page's text, one character per char index, or None when it is not that."""
    buffer = (ctypes.c_ushort * (count + 1))()
    written = pdfium_c.FPDFText_GetText(raw, 0, count, buffer)
    if written != count + 1:  # control characters left out: indices would not line up
        return None
    text = ctypes.string_at(buffer, 2 * count).decode("utf-16-le", errors="surrogatepass")
    if len(text) != count or _SPECIAL.search(text):
        return None
    return text


def _bare(function: Any) -> Any:
    """``function`` without its ctypes prototype: arguments go in as they are (C ints, and
    pointers as ``c_void_p``) and an int comes back. ctypes' per-argument conversion against
    pypdfium2's declared types cost 1.3 of every 1.5 us a call took, and this module makes
    about four calls per word. The call keeps the GIL (``PYFUNCTYPE``): releasing and taking
    it back cost a sixth of a call that is short and calls back into nothing, and these run
    under ``PDFIUM_LOCK``, so no other thread could enter pdfium meanwhile anyway."""
    address = ctypes.cast(function, ctypes.c_void_p).value
    if address is None:
        raise RuntimeError("pdfium function without an address")
    return ctypes.PYFUNCTYPE(ctypes.c_int)(address)


_LOOSE = _bare(pdfium_c.FPDFText_GetLooseCharBox)
_RUNS = _bare(pdfium_c.FPDFText_CountRects)


class _Boxes:
    """Loose character boxes of one text page, top-left origin, through the bare calls.

    pdfium writes each box into one of three rectangles in a row (``slots``), which one
    ``struct`` unpack reads back: four ``FS_RECTF`` attribute reads cost more than the call."""

    def __init__(self, raw: Any, height: float) -> None:
        self.rects = (pdfium_c.FS_RECTF * 3)()
        self.page = ctypes.c_void_p(ctypes.cast(raw, ctypes.c_void_p).value)
        base = ctypes.addressof(self.rects)
        size = ctypes.sizeof(pdfium_c.FS_RECTF)
        self.slots = tuple(ctypes.c_void_p(base + k * size) for k in range(3))
        self.height = height

    def runs(self, start: int, count: int) -> int:
        """How many rectangles (text objects on a line) chars ``start`` on span."""
        return int(_RUNS(self.page, start, count))

    def box(self, i: int) -> tuple[float, float, float, float]:
        """Char ``i``'s loose box as left, top, right, bottom."""
        _LOOSE(self.page, i, self.slots[0])
        left, top, right, bottom = _RECT.unpack_from(self.rects)
        height = self.height
        return left, height - top, right, height - bottom


# FS_RECTF is left, top, right, bottom as C floats; unpacked they are the same Python floats
# its attributes give
_RECT = struct.Struct("4f")
_RECTS = struct.Struct("12f")
# Word and Box built as the tuples they are: the named tuples' ``__new__`` is a Python
# function, called twice per word
_new = tuple.__new__


def _token_words(boxes: _Boxes, text: str, start: int, stop: int) -> list[Word]:
    """The words of the whitespace-free token ``text[start:stop]``, char by char (its text is
    known already: only the loose boxes are read)."""
    box = boxes.box
    words: list[Word] = []
    begin = start
    x0 = y0 = x1 = y1 = 0.0
    for i in range(start, stop):
        cx0, cy0, cx1, cy1 = box(i)
        if i > begin and (
            abs((cy0 + cy1) / 2 - (y0 + y1) / 2) > (y1 - y0) / 2
            or cx0 - x1 > (cy1 - cy0) * _GAP
            or cx1 < x0
        ):
            words.append(Word(text[begin:i], Box(x0, y0, x1, y1)))
            begin = i
        if i > begin:
            x0, y0, x1, y1 = min(x0, cx0), min(y0, cy0), max(x1, cx1), max(y1, cy1)
        else:
            x0, y0, x1, y1 = cx0, cy0, cx1, cy1
    words.append(Word(text[begin:stop], Box(x0, y0, x1, y1)))
    return words


def text_words(textpage: pdfium.PdfTextPage, height: float) -> list[Word]:
    """Words of the page, top-left origin, in pdfium's character order."""
    return raw_text_words(textpage.raw, height)


def raw_text_words(raw: Any, height: float) -> list[Word]:
    """:func:`text_words` of a raw ``FPDF_TEXTPAGE`` handle (no pypdfium2 helper object)."""
    count = pdfium_c.FPDFText_CountChars(raw)
    if count <= 0:
        return []
    text = _page_text(raw, count)
    if text is None:
        return _exact_words(raw, height)
    boxes = _Boxes(raw, height)
    # the loop below is the parse's hottest: the boxes of a token's first, second and last
    # character go to three slots and come back in one unpack, and the comparisons are the
    # ones _token_words makes on the same floats (height - top, as it computes them)
    page, rects, (first, second, last) = boxes.page, boxes.rects, boxes.slots
    loose, runs, unpack, unpack4, new = _LOOSE, _RUNS, _RECTS.unpack_from, _RECT.unpack_from, _new
    mark, word_type, box_type = _MARK.search, Word, Box
    words: list[Word] = []
    append, extend = words.append, words.extend
    for match in _TOKEN.finditer(text):
        start, stop = match.span()
        size = stop - start
        if size == 1:  # one box, nothing to check
            loose(page, start, first)
            left, top, right, bottom = unpack4(rects)
            box = new(box_type, (left, height - top, right, height - bottom))
            append(new(word_type, (match.group(), box, 1.0)))
            continue
        token = match.group()
        if (
            not token.isascii() and mark(token) is not None  # may be placed apart
        ) or runs(page, start, size) != 1:  # more than one text object
            extend(_token_words(boxes, text, start, stop))
            continue
        loose(page, start, first)
        loose(page, stop - 1, last)
        if size > 2:  # the second character: a gap after the first tells tracking
            loose(page, start + 1, second)
        x0, t0, x1, b0, l1, t1, _r1, b1, left, t2, right, b2 = unpack(rects)
        y0, y1 = height - t0, height - b0
        if size > 2 and (
            height - t1 != y0 or height - b1 != y1 or l1 < x0 or l1 - x1 > (y1 - y0) * _GAP
        ):
            extend(_token_words(boxes, text, start, stop))
            continue
        if (
            height - t2 != y0
            or height - b2 != y1
            or left < x0
            or right < x1
            or (size == 2 and left - x1 > (y1 - y0) * _GAP)
            or right - x0 > size * (y1 - y0) * _ADVANCE  # tracked out
        ):
            extend(_token_words(boxes, text, start, stop))
            continue
        append(new(word_type, (token, new(box_type, (x0, y0, right, y1)), 1.0)))
    return words
