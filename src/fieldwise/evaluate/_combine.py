"""Several run sets as one: their versions side by side, refused unless comparable.

Results are comparable when they were scored against the same documents, the same ground
truth and the same field specs (``compare_spec``). Anything else is refused with what changed,
unless ``force``: then the differences are returned so the report can say it was forced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fieldwise._errors import CompareError, IncomparableError
from fieldwise.compare import spec_changes, spec_digest, truth_changes, truth_digest
from fieldwise.runner import LoadedRunSet, RunRecord, VersionRef

__all__ = [
    "Combined",
    "IncomparableError",
    "combine_runsets",
    "only_split",
    "recorded_spec",
    "runset_truth",
    "runset_truth_hash",
    "training_notes",
]


@dataclass(frozen=True)
class Combined:
    """The merged run set and the differences a ``force`` overrode (empty when comparable)."""

    runset: LoadedRunSet
    forced: tuple[str, ...]


def recorded_spec(runset: LoadedRunSet) -> Mapping[str, Any] | None:
    """The compare spec recorded with the run set's evaluation set (None when absent)."""
    metadata = runset.manifest.arguments.get("eval_set_metadata")
    if isinstance(metadata, Mapping):
        spec = metadata.get("compare_spec")
        return spec if isinstance(spec, Mapping) else None
    return None


def runset_truth(runset: LoadedRunSet) -> dict[str, dict[str, Any]]:
    """The run set's ground truth by document name."""
    return {item.file: item.ground_truth for item in runset.items}


def runset_truth_hash(runset: LoadedRunSet) -> str:
    """The run set's ground-truth hash: the dataset's (``datasets validate``, ``sync``), over
    the items it holds, so a merged or split run set states what it was scored against."""
    return truth_digest(runset_truth(runset))


def combine_runsets(runsets: Sequence[LoadedRunSet], *, force: bool = False) -> Combined:
    """One run set holding the versions of all ``runsets`` (the first one's items and
    manifest; records of later sets mapped to its items by document name; a version already
    present is taken from the first set that has it).

    Raises :class:`IncomparableError` naming every difference unless ``force``.
    """
    if not runsets:
        raise CompareError("give at least one run set")
    first = runsets[0]
    if len(runsets) == 1:
        return Combined(first, ())
    problems: list[str] = []
    truth, spec = runset_truth(first), recorded_spec(first)
    for other in runsets[1:]:
        where = f"{first.manifest.runset_id} vs {other.manifest.runset_id}"
        if truth_digest(runset_truth(other)) != truth_digest(truth):
            problems += [
                f"{where}: ground truth differs: {c}"
                for c in truth_changes(truth, runset_truth(other))
            ]
        if spec_digest(recorded_spec(other)) != spec_digest(spec):
            problems += [
                f"{where}: spec differs: {c}" for c in spec_changes(spec, recorded_spec(other))
            ]
    if problems and not force:
        shown = "; ".join(problems[:10])
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        raise IncomparableError(
            f"refusing to compare results scored against different ground truth or specs: "
            f"{shown}{more}; pass --force to compare anyway (the report says so)"
        )
    by_name = {item.file: item.item_id for item in first.items}
    versions: list[VersionRef] = list(first.manifest.versions)
    records: list[RunRecord] = list(first.records)
    for other in runsets[1:]:
        known = {v.version_id for v in versions}
        new = [v for v in other.manifest.versions if v.version_id not in known]
        versions += new
        wanted = {v.version_id for v in new}
        for record in other.records:
            item = by_name.get(record.file)
            if record.version_id in wanted and item is not None:
                records.append(replace(record, item_id=item))
    manifest = replace(first.manifest, versions=tuple(versions))
    merged = replace(first, manifest=manifest, records=tuple(records))
    return Combined(merged, tuple(problems))


def only_split(runset: LoadedRunSet, split: str | None) -> LoadedRunSet:
    """The run set restricted to the items sync recorded in ``split`` (all for None)."""
    if split is None:
        return runset
    items = tuple(i for i in runset.items if i.split == split)
    if not items:
        known = sorted({i.split for i in runset.items if i.split is not None})
        has = f"its splits: {', '.join(known)}" if known else "its items have no split"
        raise CompareError(f"run set {runset.manifest.runset_id} has no split {split!r} ({has})")
    ids = {i.item_id for i in items}
    manifest = replace(runset.manifest, item_count=len(items))
    records = tuple(r for r in runset.records if r.item_id in ids)
    return replace(runset, manifest=manifest, items=items, records=records)


def training_notes(runset: LoadedRunSet) -> tuple[str, ...]:
    """What ``--force`` let through when a trained version ran on items it was trained on
    (recorded by the runner as ``arguments.training_overlap``), for the report to say loudly."""
    overlap = runset.manifest.arguments.get("training_overlap")
    if not isinstance(overlap, Mapping):
        return ()
    notes = []
    for version_id, seen in overlap.items():
        if isinstance(seen, Mapping):
            split = f" (split {seen.get('split')!r})" if seen.get("split") else ""
            notes.append(
                f"{seen.get('requested', version_id)} ({version_id}) was evaluated on "
                f"{seen.get('items')} item(s) it was trained on{split}: its figures there "
                "overstate it"
            )
    return tuple(notes)
