"""``datasets init``: scaffold ``dataset.toml`` from a folder of documents and a labels file.

The labels are read by the same readers as a dataset's ground truth (so a bad row stops the
scaffold with its file and line), each field's type is guessed from its values
(:mod:`~fieldwise.datasets._infer`), and the written folder must then load as a dataset; when
it does not, nothing stays behind (the previous dataset.toml comes back, a copied labels file
goes).
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldwise._errors import DatasetError, DatasetNotFound, DatasetValidationError
from fieldwise.datasets._infer import FieldGuess, infer_fields
from fieldwise.datasets._loader import list_documents, load_dataset
from fieldwise.datasets._model import Dataset
from fieldwise.datasets._sources import (
    CONVENTIONAL_FILES,
    TRUTH_FORMATS,
    TruthSource,
    format_of,
    read_ground_truth,
)
from fieldwise.datasets._spec import SPEC_FILE
from fieldwise.datasets._truth import DOCUMENTS_DIR

__all__ = ["InitResult", "init_dataset"]

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class InitResult:
    """What ``init_dataset`` wrote: the spec file, the labels it reads, the guesses, the
    loaded dataset, and whether the labels were copied into the folder."""

    spec_path: Path
    labels: str
    fields: tuple[FieldGuess, ...]
    dataset: Dataset
    copied: bool


def init_dataset(
    folder: str | Path, labels: str | Path | None, *, force: bool = False
) -> InitResult:
    """Write ``folder/dataset.toml`` for the documents of ``folder`` and their ``labels``.

    ``labels`` is a JSONL, CSV, Parquet or Label Studio JSON file (by extension); outside the
    folder it is copied in. Without it the folder's own ground-truth files are used.

    Raises:
        DatasetNotFound: the folder or the labels file does not exist.
        DatasetError: dataset.toml exists (without ``force``), or no labels to read.
        DatasetValidationError: the labels, or the scaffolded dataset, have problems.
    """
    root = Path(folder).expanduser().resolve()
    if not root.is_dir():
        raise DatasetNotFound(f"dataset folder not found: {folder}")
    spec_path = root / SPEC_FILE
    if spec_path.exists() and not force:
        raise DatasetError(f"{spec_path} exists; pass --force to overwrite it")
    source, copied = _place_labels(root, labels, force=force)
    try:
        documents = list_documents(root)
        problems: list[str] = []
        entries = read_ground_truth(root, source, {}, documents, problems)
        if problems:
            raise DatasetValidationError(problems)
        if not entries:
            raise DatasetError(
                f"no labels found in {root}: pass --labels FILE (JSONL, CSV, Parquet or a "
                "Label Studio JSON export)"
            )
        guesses, date_order = infer_fields(entry.ground_truth for entry in entries)
        dataset = _write_and_load(spec_path, render_spec(root.name, guesses, date_order, source))
    except BaseException:
        if copied and source is not None:
            (root / source.file).unlink(missing_ok=True)
        raise
    name = source.file if source is not None else ", ".join(_conventional(root))
    return InitResult(spec_path, name, tuple(guesses), dataset, copied)


def _place_labels(
    root: Path, labels: str | Path | None, *, force: bool
) -> tuple[TruthSource | None, bool]:
    """The source to write in ``[ground_truth]`` (None: a conventional file) and whether the
    labels file was copied into the folder."""
    if labels is None:
        if not _conventional(root) and not (root / DOCUMENTS_DIR).is_dir():
            raise DatasetError(
                f"no labels found in {root}: pass --labels FILE (JSONL, CSV, Parquet or a "
                "Label Studio JSON export)"
            )
        return None, False
    path = Path(labels).expanduser().resolve()
    if not path.is_file():
        raise DatasetNotFound(f"labels file not found: {labels}")
    fmt = format_of(path.name)
    if fmt is None:
        raise DatasetError(
            f"{labels}: cannot tell the format from the extension (.jsonl, .csv, .parquet, or "
            f".json for a Label Studio export; formats: {', '.join(TRUTH_FORMATS)})"
        )
    copied = not path.is_relative_to(root)
    if copied:
        target = root / path.name
        if target.exists() and not force:
            raise DatasetError(f"{target} exists; pass --force to overwrite it")
        shutil.copyfile(path, target)
        path = target
    return TruthSource(path.relative_to(root).as_posix(), fmt), copied


def _conventional(root: Path) -> list[str]:
    return [name for name in CONVENTIONAL_FILES if (root / name).is_file()]


def _write_and_load(spec_path: Path, text: str) -> Dataset:
    previous = spec_path.read_text(encoding="utf-8") if spec_path.exists() else None
    spec_path.write_text(text, encoding="utf-8")
    try:
        return load_dataset(spec_path.parent)
    except BaseException:
        if previous is None:
            spec_path.unlink(missing_ok=True)
        else:
            spec_path.write_text(previous, encoding="utf-8")
        raise


def render_spec(
    name: str, guesses: list[FieldGuess], date_order: str | None, source: TruthSource | None
) -> str:
    """The text of dataset.toml: dataset table, ground-truth source, one table per field."""
    lines = [
        "# Written by `fieldwise datasets init`: the types are guesses from the labels;",
        "# check them (and the options in the README) before trusting a comparison.",
        "",
        "[dataset]",
        f"name = {_string(name)}",
    ]
    if date_order is not None:
        lines.append(f"date_order = {_string(date_order)}")
    if source is not None and source.file not in CONVENTIONAL_FILES:
        lines += ["", "[ground_truth]", f"file = {_string(source.file)}"]
        if format_of(source.file) != source.format:
            lines.append(f"format = {_string(source.format)}")
    for guess in guesses:
        lines += ["", *_field_table(("fields", *guess.name.split(".")), guess)]
        for column in guess.columns:
            lines += ["", *_field_table(("fields", *guess.name.split("."), "columns",
                                         column.name), column)]  # fmt: skip
    return "\n".join(lines) + "\n"


def _field_table(path: tuple[str, ...], guess: FieldGuess) -> list[str]:
    lines = [f"[{'.'.join(map(_key, path))}]", f"type = {_string(guess.type)}"]
    for option, value in guess.options.items():
        lines.append(f"{option} = {_value(value)}")
    if guess.type != "array":
        example = json.dumps(guess.example, ensure_ascii=False, default=str)
        if len(example) > 60:
            example = example[:57] + "..."
        lines.append(f"# {guess.count} value{'s' if guess.count != 1 else ''}, e.g. {example}")
    return lines


def _key(part: str) -> str:
    return part if _BARE_KEY.match(part) else _string(part)


def _string(text: str) -> str:
    # A JSON string is a valid TOML basic string (same escapes).
    return json.dumps(text, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_string(str(v)) for v in value) + "]"
    return _string(str(value))
