"""Which dataset document each imported output is for.

A source names a document by its path in the dataset (``documents/a.pdf``), by its file name
(``a.pdf``) or by its stem (``a``, as a vendor response ``a.json`` does), tried in that
order. A name that fits several documents is refused, and so is a document given twice;
outputs for documents the dataset lacks and documents with no output are returned, to be
listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from fieldwise.imports._model import Output, PredictionsError

__all__ = ["Matched", "match_documents"]


@dataclass(frozen=True)
class Matched:
    """Outputs by dataset file; outputs whose document the dataset lacks (``unknown``); the
    dataset's documents with no output (``missing``)."""

    outputs: dict[str, Output]
    unknown: tuple[Output, ...]
    missing: tuple[str, ...]


def _index(files: Sequence[str]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    names: dict[str, list[str]] = {}
    stems: dict[str, list[str]] = {}
    for file in files:
        path = PurePosixPath(file)
        names.setdefault(path.name, []).append(file)
        stems.setdefault(path.stem, []).append(file)
    return names, stems


def match_documents(outputs: Sequence[Output], files: Sequence[str]) -> Matched:
    """Match every output to one of ``files`` (the dataset's document paths)."""
    known = set(files)
    names, stems = _index(files)
    matched: dict[str, Output] = {}
    unknown: list[Output] = []
    for output in outputs:
        key = output.key.replace("\\", "/").removeprefix("./")
        path = PurePosixPath(key)
        if key in known:
            found = [key]
        else:
            found = names.get(path.name) or stems.get(path.stem) or stems.get(path.name) or []
        if len(found) > 1:
            raise PredictionsError(
                f"{output.where}: {output.key!r} fits several documents ({', '.join(found)}); "
                "name it by its path in the dataset"
            )
        if not found:
            unknown.append(output)
            continue
        if found[0] in matched:
            raise PredictionsError(
                f"{output.where}: a second output for {found[0]} "
                f"(the first is at {matched[found[0]].where})"
            )
        matched[found[0]] = output
    missing = tuple(f for f in files if f not in matched)
    return Matched(matched, tuple(unknown), missing)
