"""Load a dataset folder and validate all of it before anything is sent anywhere."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

from fieldwise._errors import DatasetNotFound, DatasetValidationError
from fieldwise._nesting import TooDeep, too_deep
from fieldwise.datasets._hashing import HashCache, file_sha256
from fieldwise.datasets._model import Dataset, DatasetItem
from fieldwise.datasets._parquet import PARQUET_FILE
from fieldwise.datasets._paths import leaves, outside, within
from fieldwise.datasets._sources import read_ground_truth
from fieldwise.datasets._spec import SPEC_FILE, parse_spec
from fieldwise.datasets._splits import assign_splits
from fieldwise.datasets._truth import CSV_FILE, DOCUMENTS_DIR, JSONL_FILE, RawEntry, is_sidecar
from fieldwise.datasets._values import Undeclared, check_truth

__all__ = ["list_documents", "load_dataset", "walk_documents"]

_LISTED_LIMIT = 5
#: Outside ``documents/``, the files that count as documents (what the service can parse).
DOCUMENT_SUFFIXES = frozenset(
    {".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp", ".docx",
     ".html", ".htm", ".txt"}
)  # fmt: skip


def load_dataset(path: str | Path, *, hashes: HashCache | None = None) -> Dataset:
    """Load and validate the dataset folder at ``path``.

    Every problem (bad TOML/JSON/CSV, missing or duplicate files, values of the wrong shape or
    type, unknown keys) is collected and raised at once as
    :class:`~fieldwise._errors.DatasetValidationError`, each naming file and line. So are
    whatever would silently change what is compared: a ground-truth field (or array column)
    not declared in ``dataset.toml``, a declared one no item has a value for, a value the
    comparison cannot read as its declared type (``31/02/2023`` in a date field) and
    byte-identical documents under two names (unless ``[dataset] allow_duplicates = true``).
    Documents without ground truth are warnings. Documents are read for their content hash
    (duplicates, splits by content) through ``hashes`` when given, so a file unchanged since a
    sync hashed it is not read again.

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
    follow = spec.follow_symlinks
    documents, leaving = walk_documents(root, follow_symlinks=follow)
    problems += [f"{name} {leaves(real)}" for name, real in sorted(leaving.items())]
    entries = read_ground_truth(
        root, spec.ground_truth, spec.fields, documents, problems, follow_symlinks=follow
    )
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
        file = _normal_file(entry, root, on_disk, leaving, problems, follow_symlinks=follow)
        if file is None:
            continue
        if file in seen:
            problems.append(f"{entry.source}: duplicate entry for {file} (first at {seen[file]})")
            continue
        seen[file] = entry.source
        if too_deep(entry.ground_truth):  # dotted names nest too, and checking recurses
            problems.append(f"{entry.source}: ground truth {TooDeep()}")
            continue
        check_truth(
            entry.ground_truth,
            spec.fields,
            entry.source,
            problems,
            undeclared,
            date_order=spec.date_order,
        )
        items.append(DatasetItem(file, root / file, _wire(entry.ground_truth), entry.source))
    trusted = not problems  # a line that did not parse may hold a field
    if spec.fields or not problems:  # no fields when dataset.toml did not parse: no news
        problems += undeclared.problems()
    if items and trusted:
        problems += [
            f"{SPEC_FILE}:{spec.line_of(name)}: field {name!r} is declared "
            "but no document has a value for it (a typo? ground truth without it?)"
            for name in undeclared.missing(spec.fields)
        ]
    digests: dict[str, str] = {}

    def digest(file: str) -> str:
        if file not in digests:
            digests[file] = file_sha256(root / file, hashes)
        return digests[file]

    if not spec.allow_duplicates:
        problems += _duplicates(items, digest)
    if spec.splits is not None:
        split_of = assign_splits(spec.splits, seen, digest, problems)
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
        imports=spec.imports,
    )


def list_documents(root: Path, *, follow_symlinks: bool = False) -> list[str]:
    """Relative POSIX paths of the documents under ``root``: every file of ``documents/`` (no
    sidecars), and elsewhere the files with a document extension (:data:`DOCUMENT_SUFFIXES`);
    no dotfiles or dot folders. Links that leave the folder are left out unless
    ``follow_symlinks`` (:func:`load_dataset` reports them)."""
    return walk_documents(root, follow_symlinks=follow_symlinks)[0]


def walk_documents(
    root: Path, *, follow_symlinks: bool = False
) -> tuple[list[str], dict[str, Path]]:
    """The documents under ``root`` (as :func:`list_documents`) and, unless
    ``follow_symlinks``, the documents and folders that are links leaving it, by relative path,
    with where they lead."""
    found: list[str] = []
    leaving: dict[str, Path] = {}
    seen: set[str] = set()
    top = os.path.realpath(root)
    # os.scandir, not Path.rglob: ten thousand documents should cost milliseconds, not a
    # second, and a directory entry says whether it is a link without one more system call.
    # Linked folders are walked, each real one once; one that leads out of the folder only
    # with follow_symlinks (a documents/ linked to shared storage).
    stack: list[tuple[str, str]] = [(str(root), "")]
    while stack:
        directory, relative = stack.pop()
        real = os.path.realpath(directory)
        if not follow_symlinks and not within(real, top):
            leaving[relative] = Path(real)
            continue
        if real in seen:
            continue
        seen.add(real)
        in_documents = relative.split("/", 1)[0] == DOCUMENTS_DIR
        prefix = f"{relative}/" if relative else ""
        try:
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
        except OSError:
            continue  # unreadable: skipped, as os.walk does
        folders: list[tuple[str, str]] = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir():
                folders.append((entry.path, f"{prefix}{entry.name}"))
                continue
            if (
                is_sidecar(Path(entry.name))
                if in_documents
                else Path(entry.name).suffix.lower() not in DOCUMENT_SUFFIXES
            ):
                continue
            if not follow_symlinks and entry.is_symlink():
                target = os.path.realpath(entry.path)
                if not within(target, top):
                    leaving[f"{prefix}{entry.name}"] = Path(target)
                    continue
            found.append(f"{prefix}{entry.name}")
        stack.extend(reversed(folders))  # depth first, in name order: which of two names of
        # one linked folder lists its documents does not depend on the file system's order
    return sorted(found), leaving


def _duplicates(items: list[DatasetItem], digest: Callable[[str], str]) -> list[str]:
    """A problem for each document whose bytes an earlier one (by file name) already has: it
    would count twice, and in both splits perhaps. Only documents that share their size with
    another are read: ten thousand documents of different sizes cost ten thousand stats."""
    sizes: dict[int, int] = {}
    size_of: dict[str, int] = {}
    for item in items:
        try:
            size_of[item.file] = item.path.stat().st_size
        except OSError:
            continue  # unreadable: sync reports it
        sizes[size_of[item.file]] = sizes.get(size_of[item.file], 0) + 1
    first: dict[str, str] = {}
    out: list[str] = []
    for item in sorted(items, key=lambda item: item.file):
        if sizes.get(size_of.get(item.file, -1), 0) < 2:
            continue
        try:
            key = digest(item.file)
        except OSError:
            continue  # unreadable: sync reports it
        if key in first:
            out.append(
                f"{item.source}: {item.file} is byte-identical to {first[key]}; remove one, "
                "or set [dataset] allow_duplicates = true to count both"
            )
        else:
            first[key] = item.file
    return out


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


def _normal_file(
    entry: RawEntry,
    root: Path,
    on_disk: set[str],
    leaving: dict[str, Path],
    problems: list[str],
    *,
    follow_symlinks: bool,
) -> str | None:
    """The entry's document as a relative POSIX path, or None (a problem is recorded).

    ``leaving`` holds the documents that are links out of the folder (already problems);
    without follow_symlinks, a file the walk did not list is resolved before it is accepted.
    """
    if entry.file in on_disk:  # as list_documents wrote it: relative, POSIX, inside the folder
        return entry.file
    relative = PurePosixPath(entry.file.replace("\\", "/"))
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        problems.append(
            f"{entry.source}: file must be a path inside the dataset folder: {entry.file}"
        )
        return None
    file = relative.as_posix()
    if file in on_disk:
        return file
    if file in leaving:
        return None  # already a problem
    if not (root / file).is_file():
        problems.append(f"{entry.source}: file not found: {file}")
        return None
    real = None if follow_symlinks else outside(root, root / file)
    if real is not None:
        problems.append(f"{entry.source}: {file} {leaves(real)}")
        return None
    return file
