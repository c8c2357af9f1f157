"""The field specs a comparison uses, decided in one place: a dataset folder's (its
``dataset.toml``), else those ``fieldwise sync`` recorded with the evaluation set a run set was
made from. Every command and library call that needs "the specs of ..." asks here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldwise.client import Client, ops
from fieldwise.compare import FieldSpec, parse_field_specs, spec_digest, specs_from_recorded
from fieldwise.datasets import SPEC_FILE, Dataset, load_dataset
from fieldwise.runner import LoadedRunSet

__all__ = ["ResolvedSpecs", "recorded_metadata", "resolve_specs", "spec_file", "specs_of"]


def spec_file(dataset: Dataset) -> Path:
    """The dataset's ``dataset.toml`` (its fields, options and ``[gate]``)."""
    return dataset.root / SPEC_FILE


def specs_of(dataset: Dataset) -> dict[str, FieldSpec]:
    """The field specs a dataset declares, parsed (errors name its ``dataset.toml``)."""
    return parse_field_specs(
        dataset.fields, date_order=dataset.date_order, source=str(spec_file(dataset))
    )


@dataclass(frozen=True)
class ResolvedSpecs:
    """The specs to score with, and where the gate policy comes from: the dataset's
    ``dataset.toml`` (``toml``) or the ``[gate]`` recorded with the evaluation set (``gate``).
    ``spec_hash`` fingerprints a dataset's specs (None: the run set's recorded spec is used)."""

    specs: dict[str, FieldSpec]
    toml: Path | None
    gate: Mapping[str, Any] | None
    spec_hash: str | None


def recorded_metadata(runset: LoadedRunSet, connect: Callable[[], Client]) -> Mapping[str, Any]:
    """The evaluation set's metadata as recorded in the run set's manifest; asked of the
    service (``connect`` is called only then) for run sets that predate the recording."""
    recorded = runset.manifest.arguments.get("eval_set_metadata")
    if isinstance(recorded, Mapping):
        return recorded
    return dict(connect().call(ops.get_evaluation_set(runset.manifest.eval_set_id)).metadata)


def resolve_specs(
    runset: LoadedRunSet, dataset_path: Path | None, connect: Callable[[], Client]
) -> ResolvedSpecs:
    """The specs of the dataset folder at ``dataset_path``, else of the evaluation set."""
    if dataset_path is not None:
        dataset = load_dataset(dataset_path)
        spec_hash = spec_digest({"date_order": dataset.date_order, "fields": dataset.fields})
        return ResolvedSpecs(specs_of(dataset), spec_file(dataset), None, spec_hash)
    metadata = recorded_metadata(runset, connect)
    gate = metadata.get("gate")
    return ResolvedSpecs(
        specs_from_recorded(metadata.get("compare_spec")),
        None,
        gate if isinstance(gate, Mapping) else None,
        None,
    )
