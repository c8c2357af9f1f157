"""Load a dataset folder and validate all of it before anything is sent anywhere."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

from fieldwise._errors import DatasetNotFound, DatasetValidationError
from fieldwise._nesting import TooDeep, too_deep
from fieldwise.datasets._hashing import file_sha256
from fieldwise.datasets._model import Dataset, DatasetItem
from fieldwise.datasets._parquet import PARQUET_FILE
from fieldwise.datasets._sources import read_ground_truth
from fieldwise.datasets._spec import SPEC_FILE, parse_spec
from fieldwise.datasets._splits import assign_splits
from fieldwise.datasets._truth import CSV_FILE, DOCUMENTS_DIR, JSONL_FILE, RawEntry, is_sidecar
from fieldwise.datasets._values import Undeclared, check_truth

__all__ = ["list_documents", "load_dataset"]

_LISTED_LIMIT = 5
#: Outside ``documents/``, the files that count as documents (what the service can parse).
DOCUMENT_SUFFIXES = frozenset(
    {".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp", ".docx",
     ".html", ".htm", ".txt"}
)  # fmt: skip


def load_dataset(path: str | Path) -> Dataset:
    """Load and validate the dataset folder at ``path``.

    Every problem (bad TOML/JSON/CSV, missing or duplicate files, values of the wrong shape or
    type, unknown keys) is collected and raised at once as
    :class:`~fieldwise._errors.DatasetValidationError`, each naming file and line. Fields not
    declared in ``dataset.toml`` and documents without ground truth are warnings.

    Raises:
        DatasetNotFound: the folder or its ``dataset.toml`` does not exist.
        DatasetValidationError: the dataset has one or more problems.
    """
    root = Path(path).expanduser().resolve()
    if not root.is_dir():
        raise DatasetNotFound(f"dataset folder not found: {path}")
    if not (root / SPEC_FILE).is_file():
        raise DatasetNotFound(f"{SPEC_FILE} not found in dataset folder: {path}")

    problems: list[str] = []
    warnings: list[str] = []
    spec = parse_spec(root, problems)
    documents = list_documents(root)
    entries = read_ground_truth(root, spec.ground_truth, spec.fields, documents, problems)
    if not entries and not problems:
        problems.append(
            f"{SPEC_FILE}:1: no ground truth found (expected {JSONL_FILE}, {CSV_FILE}, "
            f"{PARQUET_FILE}, {DOCUMENTS_DIR}/<file>.json sidecars or a [ground_truth] file)"
        )

    on_disk = set(documents)
    undeclared = Undeclared()
    seen: dict[str, str] = {}
    items: list[DatasetItem] = []
    for entry in entries:
        file = _normal_file(entry, root, on_disk, problems)
        if file is None:
            continue
        if file in seen:
            problems.append(f"{entry.source}: duplicate entry for {file} (first at {seen[file]})")
            continue
        seen[file] = entry.source
        if too_deep(entry.ground_truth):  # dotted names nest too, and checking recurses
            problems.append(f"{entry.source}: ground truth {TooDeep()}")
            continue
        check_truth(entry.ground_truth, spec.fields, entry.source, problems, undeclared)
        items.append(DatasetItem(file, root / file, _wire(entry.ground_truth), entry.source))
    warnings += undeclared.warnings()
    if spec.splits is not None:
        split_of = assign_splits(spec.splits, seen, lambda f: file_sha256(root / f), problems)
        items = [replace(i, split=split_of.get(i.file)) for i in items]
        unsplit = len(items) - len(split_of)
        if unsplit:
            warnings.append(f"{unsplit} document(s) are in no split ([splits] lists files)")

    unlabelled = sorted(on_disk - set(seen))
    if unlabelled:
        shown = ", ".join(unlabelled[:_LISTED_LIMIT])
        more = (
            f" and {len(unlabelled) - _LISTED_LIMIT} more"
            if len(unlabelled) > _LISTED_LIMIT
            else ""
        )
        warnings.append(f"{len(unlabelled)} document(s) have no ground truth: {shown}{more}")

    if problems:
        raise DatasetValidationError(sorted(problems, key=_position))
    return Dataset(
        root=root,
        name=spec.name,
        description=spec.description,
        date_order=spec.date_order,
        locale=spec.locale,
        fields=spec.fields,
        processor=spec.processor,
        gate=spec.gate,
        items=tuple(sorted(items, key=lambda item: item.file)),
        warnings=tuple(warnings),
        splits=spec.splits.names if spec.splits is not None else (),
    )


def list_documents(root: Path) -> list[str]:
    """Relative POSIX paths of the documents under ``root``: every file of ``documents/`` (no
    sidecars), and elsewhere the files with a document extension (:data:`DOCUMENT_SUFFIXES`);
    no dotfiles or dot folders."""
    found: list[str] = []
    seen: set[str] = set()
    # os.walk, not Path.rglob: ten thousand documents should cost milliseconds, not a second.
    # Linked folders are followed (a documents/ linked to shared storage), each real one once.
    for directory, subdirectories, names in os.walk(root, followlinks=True):
        real = os.path.realpath(directory)
        if real in seen:
            subdirectories[:] = []
            continue
        seen.add(real)
        subdirectories[:] = [name for name in subdirectories if not name.startswith(".")]
        relative = Path(directory).relative_to(root)
        in_documents = relative.parts[:1] == (DOCUMENTS_DIR,)
        prefix = "" if not relative.parts else f"{relative.as_posix()}/"
        found.extend(
            f"{prefix}{name}"
            for name in names
            if not name.startswith(".")
            and (
                not is_sidecar(Path(name))
                if in_documents
                else Path(name).suffix.lower() in DOCUMENT_SUFFIXES
            )
        )
    return sorted(found)


def _wire(value: Any) -> Any:
    """Booleans as ``"true"``/``"false"``: the service takes numbers and strings as expected
    values, and the boolean comparator reads these words back as the same truth values."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return {key: _wire(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_wire(item) for item in value]
    return value


def _position(problem: str) -> tuple[str, int]:
    """Sort key: file, then line, row or task number (a stable sort keeps same-line problems
    in order)."""
    file, _, rest = problem.partition(":")
    line = rest.split(":", 1)[0].removeprefix("row ").removeprefix("task ")
    return file, int(line) if line.isdigit() else 0


def _normal_file(entry: RawEntry, root: Path, on_disk: set[str], problems: list[str]) -> str | None:
    if entry.file in on_disk:  # as list_documents wrote it: relative, POSIX, inside the folder
        return entry.file
    relative = PurePosixPath(entry.file.replace("\\", "/"))
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        problems.append(
            f"{entry.source}: file must be a path inside the dataset folder: {entry.file}"
        )
        return None
    file = relative.as_posix()
    if file not in on_disk and not (root / file).is_file():
        problems.append(f"{entry.source}: file not found: {file}")
        return None
    return file
