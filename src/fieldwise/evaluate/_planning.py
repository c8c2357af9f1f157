"""``plan``: how many documents a dataset needs to detect a margin, field by field.

From the dataset alone the discordance (the share of documents whose outcome differs between
two versions) is an assumption; given a run set of that dataset, each field's observed
discordance between its baseline and first candidate is used instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fieldwise._errors import ConfigError
from fieldwise.compare import PlanRow, document_support, plan_fields
from fieldwise.datasets import load_dataset
from fieldwise.evaluate._analysis import resolve_policy
from fieldwise.evaluate._scoring import score_runset
from fieldwise.evaluate._specs import spec_file, specs_of
from fieldwise.runner import LoadedRunSet

__all__ = ["Plan", "plan_dataset"]


@dataclass(frozen=True)
class Plan:
    """Per-field power of a dataset at ``margin`` (the policy's ``alpha``, ``power``)."""

    dataset: str
    margin: float
    alpha: float
    power: float
    rows: tuple[PlanRow, ...]
    runset_id: str | None


def plan_dataset(
    dataset_path: Path,
    *,
    margin: float,
    runset: LoadedRunSet | None = None,
    discordance: float = 0.1,
    power: float = 0.8,
) -> Plan:
    """The plan of the dataset at ``dataset_path`` (alpha from its ``[gate]``)."""
    if not 0 < margin < 1:
        raise ConfigError(f"margin must be between 0 and 1, not {margin}")
    if not 0 <= discordance <= 1:
        raise ConfigError(f"discordance must be between 0 and 1, not {discordance}")
    dataset = load_dataset(dataset_path)
    specs = specs_of(dataset)
    policy = resolve_policy(
        policy_path=None,
        dataset_toml=spec_file(dataset),
        recorded_gate=None,
        specs=specs,
    )
    observed: dict[str, float] = {}
    if runset is not None:
        scored = score_runset(runset, specs, n_bootstrap=10, alpha=policy.alpha)
        sig = scored.result.significance
        if scored.candidate is None:
            raise ConfigError(f"run set {runset.manifest.runset_id} has a single version")
        first = sig.loc[sig["candidate"] == scored.candidate]
        observed = {
            str(f): float(d) for f, d in zip(first["field"], first["discordance"], strict=True)
        }
    support = document_support({item.file: item.ground_truth for item in dataset.items})
    rows = plan_fields(
        support,
        observed,
        default_discordance=discordance,
        margin=margin,
        alpha=policy.alpha,
        power=power,
    )
    return Plan(
        dataset=dataset.name,
        margin=margin,
        alpha=policy.alpha,
        power=power,
        rows=tuple(rows),
        runset_id=runset.manifest.runset_id if runset is not None else None,
    )
