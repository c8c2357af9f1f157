"""One ``--version NAME=PATH`` source to the outputs of its documents: detect the format from
the content (refusing what fits several), read it, map vendor names, and digest the bytes.

Detection: a file starting with Parquet's magic is Parquet; a JSON object is a vendor
response (Azure ``analyzeResult``, Google ``Document``, Textract ``ExpenseDocuments``) or,
with ``file`` and ``output``, one JSON Lines row; lines of JSON objects are JSON Lines; text
whose first row names a ``file`` column is CSV. A folder holds one ``.json`` per document,
all vendor responses of one vendor or all plain objects (the generic folder format).
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldwise.imports._azure import looks_like_azure, parse_azure
from fieldwise.imports._files import folder_files, read_json
from fieldwise.imports._generic import read_folder, read_jsonl_outputs
from fieldwise.imports._google import looks_like_google, parse_google
from fieldwise.imports._mapping import FieldMapping, apply_mapping
from fieldwise.imports._model import FORMATS, Output, PredictionsError, Source, VendorDocument
from fieldwise.imports._tabular import read_csv_outputs, read_parquet_outputs
from fieldwise.imports._textract import looks_like_textract, parse_textract

__all__ = ["SourceRead", "detect_format", "read_source", "source_digest"]

_VENDORS: dict[str, tuple[Callable[[Any], bool], Callable[[Any, str], VendorDocument]]] = {
    "azure": (looks_like_azure, parse_azure),
    "google": (looks_like_google, parse_google),
    "textract": (looks_like_textract, parse_textract),
}


@dataclass(frozen=True)
class SourceRead:
    """A source as read: its format, its documents' outputs and the SHA-256 of its bytes."""

    source: Source
    format: str
    outputs: tuple[Output, ...]
    sha256: str


def source_digest(path: Path) -> str:
    """SHA-256 of a file; of a folder, over each file's name and SHA-256 (sorted)."""
    if path.is_file():
        return hashlib.sha256(path.read_bytes()).hexdigest()
    lines = [
        f"{p.relative_to(path).as_posix()}\t{hashlib.sha256(p.read_bytes()).hexdigest()}\n"
        for p in sorted(path.rglob("*"))
        if p.is_file()
    ]
    return hashlib.sha256("".join(lines).encode()).hexdigest()


def _json_kind(data: Any, where: str) -> str:
    kinds = [name for name, (looks, _) in _VENDORS.items() if looks(data)]
    if len(kinds) > 1:
        raise PredictionsError(
            f"{where}: ambiguous: it reads as {' and as '.join(kinds)}; pass --format"
        )
    return kinds[0] if kinds else "object"


def _file_format(path: Path) -> str:
    with path.open("rb") as handle:
        head = handle.read(4)
    if head == b"PAR1":
        return "parquet"
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PredictionsError(f"{path}:1: not UTF-8 text ({exc.reason}) nor Parquet") from None
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    except RecursionError:
        raise PredictionsError(f"{path}:1: nested too deeply") from None
    if isinstance(whole, dict):
        if {"file", "output"} <= set(whole):
            return "jsonl"
        kind = _json_kind(whole, f"{path}:1")
        if kind == "object":
            raise PredictionsError(
                f"{path}:1: a JSON object that is no Azure analyzeResult, Google Document or "
                'Textract AnalyzeExpense response, nor a {"file": ..., "output": ...} line; '
                "pass --format, or put one JSON per document in a folder"
            )
        return kind
    first = next((line for line in text.split("\n") if line.strip()), "")
    if first.lstrip().startswith("{"):
        return "jsonl"
    if "file" in [cell.strip() for cell in next(csv.reader([first]), [])]:
        return "csv"
    raise PredictionsError(
        f"{path}:1: unknown format: not Parquet, JSON, JSON Lines, nor CSV with a 'file' "
        f"column; pass --format ({', '.join(FORMATS)})"
    )


def _folder_format(folder: Path) -> str:
    kinds: dict[str, str] = {}
    for file in folder_files(folder):
        kinds.setdefault(_json_kind(read_json(file), f"{file}:1"), file.name)
    if len(kinds) > 1:
        shown = ", ".join(f"{k} ({name})" for k, name in sorted(kinds.items()))
        raise PredictionsError(f"{folder}: ambiguous: its files are of several kinds: {shown}")
    kind = next(iter(kinds))
    return "folder" if kind == "object" else kind


def detect_format(path: Path) -> str:
    """The format of ``path`` from its content; :class:`PredictionsError` when it fits none
    or several."""
    if path.is_dir():
        return _folder_format(path)
    if path.is_file():
        return _file_format(path)
    raise PredictionsError(f"{path}: no such file or folder")


def _vendor_outputs(path: Path, vendor: str, mapping: FieldMapping) -> list[Output]:
    parse = _VENDORS[vendor][1]
    files = folder_files(path) if path.is_dir() else [path]
    outputs = []
    for file in files:
        where = f"{file}:1"
        document = parse(read_json(file), where)
        # a response per document, named after it: "invoice-001.json", "invoice-001.pdf.json"
        outputs.append(apply_mapping(document, mapping, file.stem, where))
    return outputs


def read_source(source: Source, mappings: Mapping[str, FieldMapping]) -> SourceRead:
    """Read ``source`` (detecting its format for ``auto``) into its documents' outputs."""
    path = Path(source.path)
    if not path.exists():
        raise PredictionsError(f"--version {source.name}={source.path}: no such file or folder")
    fmt = detect_format(path) if source.format == "auto" else source.format
    if fmt not in FORMATS:
        raise PredictionsError(f"unknown format {fmt!r} (choose from auto, {', '.join(FORMATS)})")
    if fmt == "folder" and not path.is_dir():
        raise PredictionsError(f"{path}: --format folder needs a folder of .json files")
    if fmt in ("jsonl", "csv", "parquet") and not path.is_file():
        raise PredictionsError(f"{path}: --format {fmt} needs a file, not a folder")
    outputs: list[Output]
    if fmt in _VENDORS:
        outputs = _vendor_outputs(path, fmt, mappings[fmt])
    elif fmt == "folder":
        outputs = read_folder(path)
    elif fmt == "jsonl":
        outputs = read_jsonl_outputs(path)
    elif fmt == "csv":
        outputs = read_csv_outputs(path)
    else:
        outputs = read_parquet_outputs(path)
    return SourceRead(source, fmt, tuple(outputs), source_digest(path))
