"""Where a dataset's ground truth is: the conventional files, and the ``[ground_truth]`` table.

Read when present: ``ground_truth.jsonl``, ``ground_truth.csv``, ``ground_truth.parquet``,
sidecars ``documents/<file>.json``, and the file ``[ground_truth]`` names (any of the formats,
Label Studio exports included)::

    [ground_truth]
    file = "labels/export.json"   # inside the dataset folder
    format = "labelstudio"        # jsonl | csv | parquet | labelstudio (default: by extension)
    document = "pdf"              # Label Studio: the key of task data naming the document
    [ground_truth.fields]         # Label Studio: from_name (or label) = field
    total_amount = "total"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from fieldwise.datasets._labelstudio import read_labelstudio
from fieldwise.datasets._parquet import PARQUET_FILE, read_parquet
from fieldwise.datasets._paths import leaves, outside
from fieldwise.datasets._truth import (
    CSV_FILE,
    DOCUMENTS_DIR,
    JSONL_FILE,
    RawEntry,
    read_csv,
    read_jsonl,
    read_sidecars,
)

__all__ = [
    "CONVENTIONAL_FILES",
    "SOURCE_KEYS",
    "TRUTH_FORMATS",
    "TruthSource",
    "format_of",
    "parse_source",
    "read_ground_truth",
    "read_source",
]

TRUTH_FORMATS = ("jsonl", "csv", "parquet", "labelstudio")
SOURCE_KEYS = ("file", "format", "document", "fields")
CONVENTIONAL_FILES = {JSONL_FILE: "jsonl", CSV_FILE: "csv", PARQUET_FILE: "parquet"}
_SUFFIXES = {".jsonl": "jsonl", ".csv": "csv", ".parquet": "parquet", ".json": "labelstudio"}


@dataclass(frozen=True)
class TruthSource:
    """A ground-truth file of the dataset folder and how to read it."""

    file: str
    format: str
    document: str | None = None
    fields: Mapping[str, str] | None = None

    def options(self) -> dict[str, Any]:
        """The Label Studio options as the reader takes them."""
        return {"document": self.document, "fields": self.fields}


def format_of(name: str) -> str | None:
    """The format a file's extension says (``.json`` is a Label Studio export)."""
    return _SUFFIXES.get(PurePosixPath(name).suffix.lower())


def parse_source(
    root: Path, table: dict[str, Any], problem: Callable[..., None], follow_symlinks: bool = False
) -> TruthSource | None:
    """Check the ``[ground_truth]`` table; ``problem(message, *toml_path)`` records a problem.
    Its file is resolved: a link out of the folder only with ``follow_symlinks``."""
    for key in table:
        if key not in SOURCE_KEYS:
            problem(
                f"unknown key {key!r} in [ground_truth] (expected one of: "
                f"{', '.join(SOURCE_KEYS)})",
                "ground_truth",
                key,
            )
    file = table.get("file")
    if not isinstance(file, str) or not file:
        problem("[ground_truth] file must name a file inside the dataset folder", "ground_truth")
        return None
    relative = PurePosixPath(file)
    if relative.is_absolute() or ".." in relative.parts:
        problem("[ground_truth] file must be a path inside the dataset folder", "ground_truth")
        return None
    if not (root / relative).is_file():
        problem(f"[ground_truth] file not found: {file}", "ground_truth", "file")
        return None
    if not follow_symlinks and (real := outside(root, root / relative)) is not None:
        problem(f"[ground_truth] file: {file} {leaves(real)}", "ground_truth", "file")
        return None
    fmt = table.get("format", format_of(file))
    if fmt not in TRUTH_FORMATS:
        problem(
            f"[ground_truth] format must be one of {', '.join(TRUTH_FORMATS)}",
            "ground_truth",
            "format",
        )
        return None
    document = table.get("document")
    if document is not None and not isinstance(document, str):
        problem("[ground_truth] document must be a string", "ground_truth", "document")
        document = None
    names = table.get("fields")
    if names is not None and (
        not isinstance(names, dict) or not all(isinstance(v, str) and v for v in names.values())
    ):
        problem("[ground_truth.fields] must map names to field names", "ground_truth", "fields")
        names = None
    return TruthSource(relative.as_posix(), str(fmt), document, names)


def read_source(
    root: Path,
    source: TruthSource,
    fields: dict[str, dict[str, Any]],
    documents: list[str],
    problems: list[str],
) -> list[RawEntry]:
    """The entries of one ground-truth file, read by its format."""
    match source.format:
        case "jsonl":
            return read_jsonl(root, problems, source.file)
        case "csv":
            return read_csv(root, fields, problems, source.file)
        case "parquet":
            return read_parquet(root / source.file, source.file, fields, problems)
        case _:
            return read_labelstudio(
                root / source.file, source.file, documents, source.options(), fields, problems
            )


def read_ground_truth(
    root: Path,
    declared: TruthSource | None,
    fields: dict[str, dict[str, Any]],
    documents: list[str],
    problems: list[str],
    *,
    follow_symlinks: bool = False,
) -> list[RawEntry]:
    """Every entry of every ground-truth source of the dataset folder, in a fixed order;
    a file that is a link out of the folder is a problem unless ``follow_symlinks``."""
    sources = [TruthSource(name, fmt) for name, fmt in CONVENTIONAL_FILES.items()]
    sources = [s for s in sources if (root / s.file).is_file()]
    for source in list(sources):
        real = None if follow_symlinks else outside(root, root / source.file)
        if real is not None:
            problems.append(f"{source.file} {leaves(real)}")
            sources.remove(source)
    if declared is not None and declared.file not in CONVENTIONAL_FILES:
        sources.append(declared)
    elif declared is not None:  # a conventional file with options: read it once, with them
        sources = [declared if s.file == declared.file else s for s in sources]
    entries: list[RawEntry] = []
    for source in sources:
        entries += read_source(root, source, fields, documents, problems)
    if (root / DOCUMENTS_DIR).is_dir():
        entries += read_sidecars(root, problems, follow_symlinks=follow_symlinks)
    return entries
