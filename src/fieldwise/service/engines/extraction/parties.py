"""Seller and buyer names from legal forms and party cues (``"strategy": "seller"`` / ``"buyer"``).

Company names end in a legal form ("GmbH", "Ltd", "Inc.", "B.V.", "Sdn Bhd", ...). Every run
of words on the document that ends in one is a candidate party, cut at the separators that
join a sender line ("Name GmbH • Street 1 • City") or an imprint ("Name Ltd, Level 6, ...").
Party cues then decide the role: a name in the block under "Bill to", "Rechnungsempfänger",
"Client", "Kunde", "Ship to" ... is the buyer, and is excluded as seller wherever else it is
printed; a name under "From", "Seller", "Verkäufer", "Fournisseur" ... is the seller. Among
the rest, the seller is the name printed most prominently: in the letterhead (top of page 1)
or the imprint (page footers), and repeated.

OCR glues what a printer spaced: a legal form glued to the name ("Golden ScoopSdnBhd"), a
registration number glued to the form ("Sdn bhd(759705-H)") are split apart before names are
read, and a legal form printed alone on its line ("Sdn Bhd" under "Nando's Chickenland
Malaysia") takes the name from the line above it.

Confidence: 0.9 with a seller cue, else 0.5 to 0.8 by how clearly the winner leads.
Without any candidate the field falls back to the letterhead strategy.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from fieldwise.service.engines.extraction.candidate import Candidate
from fieldwise.service.engines.extraction.config import ExtractionConfig, FieldSpec
from fieldwise.service.engines.extraction.labels import LabelHit, find_labels, norm
from fieldwise.service.engines.extraction.letterhead import DOCUMENT_TITLES, letterhead
from fieldwise.service.engines.extraction.normalize import Parsed
from fieldwise.service.engines.extraction.recipient import recipient_name
from fieldwise.service.engines.extraction.vocabulary import BUYER_CUES, LEGAL_FORMS, SELLER_CUES
from fieldwise.service.engines.parsing import Line, ParsedDocument, Word, split_cells

__all__ = ["other_party", "party"]

_SEPARATORS = re.compile(r"\s+[•|·–—]\s+|\s{2,}|,\s+|\s+-\s+")
_BLOCK_LINES = 6
_TOP, _BOTTOM = 0.25, 0.8
_GAP = 2.5
_ADDRESS_START = re.compile(r"(?i)(?:(?:no|unit|suite|block|blk)\b\.?\s*\d|lot\b)")
# a house number before a comma or a dot ("78G, Jalan", "109, SS21/1A"), or a postcode line:
# a name may begin with digits ("32 Pub & Bistro", "99 Speed Mart"), an address line like this
_HOUSE_NUMBER = re.compile(r"^\d+[^\W\d_]?(?:[-/]\d+[^\W\d_]?)*\s*[,.]|^\d{4,6}\s")
_GLUED_PAREN = re.compile(r"(?<=[^\W_])\(")
_FORM_LETTERS = 3  # a legal form split off a glued token has at least this many letters
_TAIL_WORDS = 2
_JOINERS = frozenset(("co", "cie", "und", "and", "et", "en"))  # "GmbH & Co. KG", "SA et Cie"
_WINDOW = 0.6  # a name read by the window's place, not by a cue or a legal form
_CUE_THRESHOLD = 96.0  # whole cues at the head of a cell: "To" must not match "Tom"
# a shop's name printed over two or three lines ("TSH POWER HARDWARE" / "TRADING"): up to this
# many lines of letters more, tight under it and within its width, continue it
_NAME_LINES = 2
_NAME_GAP = 0.6  # of the line's height: the name's own leading, not the gap to the address
_NOT_NAME = re.compile(
    r"(?i)\b(?:tel|phone|fax|hp|e-?mail|gst|vat|tax|invoice|receipt|date|cashier|www|http)\b|@"
)


@dataclass(frozen=True)
class _Name:
    text: str
    page: int
    line: int
    x0: float
    y0: float
    confidence: float


def _legal_end(tokens: list[str]) -> int:
    """Index after the last legal-form token of ``tokens`` (0 when none)."""
    end = 0
    i = 0
    while i < len(tokens):
        for size in (3, 2, 1):
            if i + size > len(tokens):
                continue
            chunk = tokens[i : i + size]
            joined = norm("".join(chunk))
            # two-letter forms ("AG", "AS", "SA") only in capitals: "as" is a word
            short = len(joined) <= 2 and not "".join(chunk).replace(".", "").isupper()
            if joined in LEGAL_FORMS and not short:
                if i > 0 or size < len(tokens):
                    end = i + size
                i += size - 1
                break
        i += 1
    return end


def _is_form(token: str) -> bool:
    return _legal_end(["x", token]) == 2


def _names_in(text: str) -> list[str]:
    """Company names in one cell of text: runs of words ending in a legal form."""
    parts = [p.strip() for p in _SEPARATORS.split(text) if p and p.strip()]
    merged: list[str] = []
    for part in parts:
        tokens = part.split()
        if merged and tokens and _is_form(tokens[0]):
            # "Netlify, Inc.": the comma cut the form off its name
            merged[-1] = f"{merged[-1]}, {tokens[0]}"
            part = " ".join(tokens[1:])
        if part:
            merged.append(part)
    names = []
    for part in merged:
        for piece in part.split(":"):
            for tokens in _side_by_side(piece.split()):
                end = _legal_end(tokens)
                if end:
                    end += _tail(tokens[end:])
                    name = " ".join(tokens[:end]).strip(" ,")
                    if sum(ch.isalpha() for ch in name) >= 4:
                        names.append(name)
    return names


def _split_form(token: str) -> str:
    """``token`` with a legal form glued to its end set apart ("ScoopSdnBhd" -> "Scoop
    SdnBhd"): the form begins with a capital after a small letter or a digit."""
    for cut in range(1, len(token) - _FORM_LETTERS + 1):
        tail = token[cut:]
        if not (tail[0].isupper() and (token[cut - 1].islower() or token[cut - 1].isdigit())):
            continue
        if len(norm(tail)) >= _FORM_LETTERS and norm(tail) in LEGAL_FORMS:
            return f"{token[:cut]} {tail}"
    return token


def _unglued(text: str) -> str:
    """``text`` with what OCR glued around a legal form set apart (see the module's doc)."""
    text = _GLUED_PAREN.sub(" (", unicodedata.normalize("NFKC", text))
    return " ".join(_split_form(token) for token in text.split())


def _bare_form(text: str) -> bool:
    """Whether ``text`` is a legal form and nothing else ("Sdn Bhd")."""
    return norm(text) in LEGAL_FORMS


def _name_above(above: Line, line: Line, form: str) -> str:
    """A legal form alone on its line, with the name printed close above it (letters, no
    digits, not a label)."""
    text = above.text.strip()
    close = line.box.y0 - above.box.y1 < 0.8 * line.box.height
    letters = sum(ch.isalpha() for ch in text)
    if not close or letters < _FORM_LETTERS or any(ch.isdigit() for ch in text) or ":" in text:
        return form
    return f"{text} {form}"


def _tail(rest: list[str]) -> int:
    """How many words after the legal form still belong to the name: one or two capitalized
    words of letters ending the cell ("Kunden AG Mitte"), not a street, a number or a
    document's title."""
    if not 1 <= len(rest) <= _TAIL_WORDS:
        return 0
    titles = {norm(t) for t in DOCUMENT_TITLES}
    for word in rest:
        if not word[:1].isupper() or not word.replace("-", "").isalpha() or norm(word) in titles:
            return 0
    return len(rest)


def _side_by_side(tokens: list[str]) -> list[list[str]]:
    """``tokens`` cut after each legal form that a capitalized word follows: two party
    blocks set side by side with a narrow gap share their lines' cells ("Lieferant GmbH
    Kunden AG Mitte"). Joiners keep a compound form whole ("GmbH & Co. KG")."""
    runs: list[list[str]] = [[]]
    for index, token in enumerate(tokens):
        runs[-1].append(token)
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if (
            _is_form(token)
            and following[:1].isupper()
            and not _is_form(following)
            and norm(following) not in _JOINERS
            and _legal_end(tokens[index + 1 :])  # another company's name follows
        ):
            runs.append([])
    return [run for run in runs if run]


def _with_line_above(above: Line, line: Line, name: str) -> str:
    """A name whose first words sit on the line above ("LIAN CHI VEGETARIAN" over
    "RESTAURANT SDN BHD"): letters only, set close above in the same size of type."""
    text = above.text.strip()
    close = line.box.y0 - above.box.y1 < 0.8 * line.box.height
    same_size = abs(above.box.height - line.box.height) < 0.25 * line.box.height
    if not (close and same_size and text.replace(" ", "").replace("&", "").isalpha()):
        return name
    if not text.isupper() or len(name.split()) > 4:
        return name
    return f"{text} {name}"


def _x_of(cell: Sequence[Word], name: str) -> float:
    """Where ``name`` begins in ``cell`` (a second block's name begins mid-cell)."""
    for index in range(len(cell)):
        if " ".join(w.text for w in cell[index:]).startswith(name):
            return cell[index].box.x0
    return cell[0].box.x0


def _candidates(doc: ParsedDocument) -> list[_Name]:
    found = []
    for p, page in enumerate(doc.pages):
        for li, line in enumerate(page.lines):
            for cell in split_cells(line):
                text = _unglued(" ".join(w.text for w in cell))
                if li > 0 and _bare_form(text):
                    text = _name_above(page.lines[li - 1], line, text)
                for name in _names_in(text):
                    if li > 0 and text.startswith(name):
                        name = _with_line_above(page.lines[li - 1], line, name)
                    ocr = min(w.confidence for w in cell)
                    found.append(_Name(name, p, li, _x_of(cell, name), line.box.y0, ocr))
    return found


def _heads(doc: ParsedDocument, hit: LabelHit) -> bool:
    """Whether a cue heads a block: it ends its cell ("Bill to", "Käufer") or a colon follows
    it ("From: ..."). A cue word running on into other words is part of a name or a label
    ("Lieferant GmbH", "Customer number:")."""
    line = doc.pages[hit.page].lines[hit.line]
    if line.words[hit.end - 1].text.endswith(":"):
        return True
    if hit.end < len(line.words) and line.words[hit.end].text in (":", "-", "–"):
        return True
    index = 0
    for cell in split_cells(line):
        index += len(cell)
        if hit.start < index:
            return hit.end == index
    return True


def _cue_hits(doc: ParsedDocument, cues: tuple[str, ...]) -> list[LabelHit]:
    found = find_labels(doc, cues, _CUE_THRESHOLD)
    return [h for h in found if h.score >= _CUE_THRESHOLD and _heads(doc, h)]


def _blocks(
    doc: ParsedDocument, cues: tuple[str, ...], others: tuple[str, ...] = ()
) -> list[tuple[int, int, int, float, float]]:
    """(page, first line, last line, x0, x1) of every block a cue opens. A block ends to the
    right where another cue (of ``cues`` or ``others``) opens a block beside it on its line:
    seller and buyer set side by side ("Seller    Buyer") are two blocks."""
    hits = _cue_hits(doc, cues)
    beside = hits + _cue_hits(doc, others)
    out = []
    for hit in hits:
        page = doc.pages[hit.page]
        x0 = hit.words(doc)[0].box.x0 - 4
        right = [
            h.words(doc)[0].box.x0 - 4
            for h in beside
            if (h.page, h.line) == (hit.page, hit.line) and h.words(doc)[0].box.x0 - 4 > x0
        ]
        x1 = min([x0 + page.width * 0.45, *right])
        last = hit.line
        for index in range(hit.line + 1, min(len(page.lines), hit.line + 1 + _BLOCK_LINES)):
            above, below = page.lines[index - 1], page.lines[index]
            if below.box.y0 - above.box.y1 > _GAP * max(above.box.height, 1.0):
                break  # a wide gap ends the address block
            last = index
        out.append((hit.page, hit.line, last, x0, x1))
    return out


def _inside(name: _Name, blocks: list[tuple[int, int, int, float, float]]) -> bool:
    return any(
        p == name.page and first <= name.line <= last and x0 <= name.x0 <= x1
        for p, first, last, x0, x1 in blocks
    )


def _not_a_name(text: str) -> bool:
    """Texts the letterhead fallback must not take for a name: no capitals at all (a note
    written on the page), or shaped like an address line ("12, Main Road", "No. 5 ...")."""
    if not any(ch.isupper() for ch in text):
        return True
    return _HOUSE_NUMBER.match(text) is not None or _ADDRESS_START.match(text) is not None


def _first_line(
    doc: ParsedDocument, excluded: tuple[str, ...], config: ExtractionConfig
) -> Candidate | None:
    """Without a legal form: the first line at the top of page 1 that reads like a name
    (receipts print the shop's name first, before its address)."""
    if not doc.pages:
        return None
    page = doc.pages[0]
    titles = {norm(t) for t in (*excluded, *DOCUMENT_TITLES)}
    for line in page.lines:
        if line.box.y0 > page.height * _TOP:
            break
        text = line.text.strip()
        letters = sum(ch.isalpha() for ch in text)
        if letters < 3 or letters < sum(ch.isdigit() for ch in text) or ":" in text:
            continue
        if _not_a_name(text) or norm(text) in titles:
            continue
        text = _continued_name(page.lines, line, titles)
        return Candidate(Parsed(text, text, True), 0.5 * line.confidence, 0, text)
    return None


def _continued_name(lines: Sequence[Line], first: Line, titles: set[str]) -> str:
    """``first``'s text with the lines that continue the name under it: letters only (no
    digit: not yet the address or a registration), no contact or document word, tight below
    the line before and within ``first``'s width."""
    parts = [first.text.strip()]
    previous = first
    slack = first.box.height
    for line in lines[lines.index(first) + 1 :][:_NAME_LINES]:
        text = line.text.strip()
        if line.box.y0 - previous.box.y1 > _NAME_GAP * previous.box.height:
            break
        if line.box.x0 < first.box.x0 - slack or line.box.x1 > first.box.x1 + slack:
            break
        if any(ch.isdigit() for ch in text) or ":" in text or _NOT_NAME.search(text):
            break
        if sum(ch.isalpha() for ch in text) < 3 or norm(text) in titles:
            break
        parts.append(text)
        previous = line
    return " ".join(parts)


def _in_window(doc: ParsedDocument, exclude: tuple[str, ...]) -> Candidate | None:
    """Without a cue: the name the recipient's window block begins with (see recipient.py)."""
    found = recipient_name(doc.pages, exclude)
    if found is None:
        return None
    text, line = found
    confidence = _WINDOW * doc.pages[0].lines[line].confidence
    return Candidate(Parsed(text, text, True), confidence, 0, text)


def party(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> Candidate | None:
    """The seller's (or the buyer's) name, by ``spec.strategy``."""
    names = _candidates(doc)
    buyers = _blocks(doc, BUYER_CUES, SELLER_CUES)
    sellers = _blocks(doc, SELLER_CUES, BUYER_CUES)
    buyer_names = {norm(n.text) for n in names if _inside(n, buyers) and not _inside(n, sellers)}
    if spec.strategy == "buyer":
        # ``exclude``: names the buyer is not (the engine passes the seller's)
        excluded = {norm(text) for text in spec.exclude}
        chosen = [n for n in names if norm(n.text) in buyer_names - excluded]
        if not chosen:
            return _in_window(doc, spec.exclude)
        first = chosen[0]
        confidence = 0.8 * first.confidence
        return Candidate(Parsed(first.text, first.text, True), confidence, first.page, first.text)
    scores: dict[str, float] = {}
    first_seen: dict[str, _Name] = {}
    cued: set[str] = set()
    for name in names:
        key = norm(name.text)
        if key in buyer_names:
            continue
        page = doc.pages[name.page]
        score = 1.0
        if _inside(name, sellers):
            score += 2.0
            cued.add(key)
        if name.page == 0 and name.y0 < page.height * _TOP:
            score += 0.6
        if name.y0 > page.height * _BOTTOM:
            score += 0.4
        scores[key] = scores.get(key, 0.0) + score
        first_seen.setdefault(key, name)
    if not scores:
        cues = (*spec.exclude, *BUYER_CUES, *SELLER_CUES)
        return _first_line(doc, cues, config) or letterhead(
            doc, replace(spec, exclude=cues), config, _not_a_name
        )
    ranked = sorted(scores, key=lambda k: -scores[k])
    best = first_seen[ranked[0]]
    runner = scores[ranked[1]] if len(ranked) > 1 else 0.0
    lead = (scores[ranked[0]] - runner) / scores[ranked[0]]
    confidence = 0.9 if ranked[0] in cued else 0.5 + 0.3 * lead
    return Candidate(
        Parsed(best.text, best.text, True), confidence * best.confidence, best.page, best.text
    )


def other_party(doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig) -> str | None:
    """The name the opposite strategy reads on ``doc``: the seller's for a buyer field, the
    buyer's for a seller field; None when it reads none."""
    other = "seller" if spec.strategy == "buyer" else "buyer"
    found = party(doc, replace(spec, strategy=other, labels=(), section=()), config)
    return None if found is None else str(found.parsed.value)
