"""``import_predictions``: predictions made elsewhere, one version per source, as a run set
over a target's documents and ground truth (a local dataset or an evaluation set).

Everything is read, mapped and matched before anything is written, so bad input (a malformed
row, an ambiguous format, a duplicate name) leaves no run set behind.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from fieldwise.imports._documents import match_documents
from fieldwise.imports._mapping import FieldMapping, field_mapping, keep_declared
from fieldwise.imports._model import VENDOR_FORMATS, PredictionsError, Source
from fieldwise.imports._read import SourceRead, read_source
from fieldwise.imports._target import Target
from fieldwise.imports._write import ImportedVersion, version_id, write_runset
from fieldwise.runner import LoadedRunSet

__all__ = ["ImportResult", "ImportedSummary", "import_predictions"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


@dataclass(frozen=True)
class ImportedSummary:
    """What one source gave: its format and digest, how many documents matched, and what
    could not be used: dataset documents it has no output for (``missing``), outputs for
    documents the dataset lacks (``unknown``, as named in the source), vendor fields with no
    mapping and in how many documents (``unmapped``), and choices made (``notes``)."""

    name: str
    version_id: str
    format: str
    path: str
    sha256: str
    documents: int
    missing: tuple[str, ...]
    unknown: tuple[str, ...]
    unmapped: tuple[tuple[str, int], ...]
    notes: tuple[str, ...]
    mapping: dict[str, str] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "imported": True,
            "name": self.name,
            "version_id": self.version_id,
            "format": self.format,
            "path": self.path,
            "sha256": self.sha256,
            "documents": self.documents,
            "missing": list(self.missing),
            "unknown": list(self.unknown),
            "unmapped": dict(self.unmapped),
            "notes": list(self.notes),
            "mapping": self.mapping,
        }


@dataclass(frozen=True)
class ImportResult:
    """The run set written and what each source gave."""

    runset: LoadedRunSet
    versions: tuple[ImportedSummary, ...]


def _check_names(sources: Sequence[Source]) -> None:
    if not sources:
        raise PredictionsError("give at least one --version NAME=PATH")
    seen: set[str] = set()
    for source in sources:
        if not _NAME.match(source.name):
            raise PredictionsError(
                f"version name {source.name!r}: use letters, digits, '.', '_' and '-' "
                "(at most 64, starting with a letter or digit)"
            )
        if source.name in seen:
            raise PredictionsError(f"version name {source.name!r} is given twice")
        seen.add(source.name)


def _summary(
    target: Target, read: SourceRead, mappings: Mapping[str, FieldMapping]
) -> tuple[ImportedSummary, dict[str, Any]]:
    declared = [keep_declared(o, target.fields) for o in read.outputs]
    matched = match_documents(declared, [i.file for i in target.items])
    unmapped: Counter[str] = Counter()
    notes: list[str] = []
    for file, output in sorted(matched.outputs.items()):
        unmapped.update(output.unmapped)
        notes += [f"{file}: {note}" for note in output.notes]
    used = mappings.get(read.format)
    summary = ImportedSummary(
        name=read.source.name,
        version_id=version_id(read.source.name),
        format=read.format,
        path=read.source.path,
        sha256=read.sha256,
        documents=len(matched.outputs),
        missing=matched.missing,
        unknown=tuple(f"{o.key} ({o.where})" for o in matched.unknown),
        unmapped=tuple(sorted(unmapped.items())),
        notes=tuple(notes),
        mapping=used.to_json() if used is not None else None,
    )
    outputs = {file: output.run_output() for file, output in matched.outputs.items()}
    return summary, outputs


def import_predictions(
    target: Target,
    sources: Sequence[Source],
    *,
    results_dir: Path,
    now: datetime,
) -> ImportResult:
    """Read every source, match its outputs to ``target``'s documents
    (:func:`~fieldwise.imports.dataset_target`, :func:`~fieldwise.imports.eval_set_target`)
    and write one run set with a version per source (named as given). Raises
    :class:`PredictionsError` before writing anything when input is bad."""
    _check_names(sources)
    mappings = {
        vendor: field_mapping(vendor, target.fields, target.overrides.get(vendor))
        for vendor in VENDOR_FORMATS
    }
    summaries = []
    versions = []
    for source in sources:
        summary, outputs = _summary(target, read_source(source, mappings), mappings)
        if not outputs:
            raise PredictionsError(
                f"--version {source.name}={source.path}: none of its {len(summary.unknown)} "
                f"outputs is for a document of {target.name!r} "
                f"(first: {summary.unknown[0] if summary.unknown else 'none'})"
            )
        summaries.append(summary)
        versions.append(ImportedVersion(source.name, outputs, summary.to_json()))
    runset = write_runset(target, versions, results_dir, now)
    return ImportResult(runset, tuple(summaries))
