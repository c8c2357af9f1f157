"""What one MLflow run of an evaluation holds, from the comparison document: pure, no MLflow.

The input is the one JSON document of ``compare --json`` / ``gate --json`` (docs/json.md,
schema 2) and the run set's facts; the output is the run's params, metrics and tags, and the
key that finds the run again (the run set's id, the versions compared and the policy's
digest).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fieldwise.tracking._keys import field_key, role_names

__all__ = ["KEY_TAGS", "NO_POLICY", "RunRecord", "Tracked", "policy_digest", "run_record"]

#: the tags that identify an evaluation's run: logging it again finds the run by them
KEY_TAGS = ("fieldwise.runset_id", "fieldwise.versions", "fieldwise.policy_digest")
#: the policy digest of a comparison without verdicts (``compare``)
NO_POLICY = "none"
#: figures of the ``fields`` and ``overall`` rows logged per version (field accuracy with its
#: Wilson interval, P/R/F1, strict and cell accuracy)
_VERSION_FIGURES = (
    "field_accuracy",
    "field_accuracy_low",
    "field_accuracy_high",
    "precision",
    "recall",
    "f1",
    "strict_accuracy",
    "accuracy",
)
#: figures of the ``tests`` rows logged per candidate and field
_TEST_FIGURES = ("delta", "delta_low", "delta_high", "p_value", "p_holm")


@dataclass(frozen=True)
class Tracked:
    """One evaluation to log: the comparison document (schema 2, with ``verdicts`` when a
    gate decided), the command that made it, the run set's processor, dataset and ground
    truth (``{file, ground_truth}`` per document), and the files to attach (the report's)."""

    command: str
    document: Mapping[str, Any]
    processor_id: str
    dataset: str
    ground_truth: Sequence[Mapping[str, Any]]
    fieldwise_version: str
    artifacts: Sequence[Path] = field(default_factory=tuple)

    @property
    def runset_id(self) -> str:
        return str(self.document["source"]["runset_id"])


@dataclass(frozen=True)
class RunRecord:
    """An MLflow run's content: ``tags`` include the key that finds the run again (run set
    id, the versions compared, policy digest)."""

    params: dict[str, str]
    metrics: dict[str, float]
    tags: dict[str, str]
    #: metric key part -> field name, for every field (logged as an artifact)
    field_keys: dict[str, str]


def policy_digest(document: Mapping[str, Any]) -> str:
    """SHA-256 of the policy as its verdicts applied it: every rule's name, kind, field and
    threshold, per candidate, as canonical JSON; :data:`NO_POLICY` without verdicts. The same
    policy gives the same digest from ``evaluate`` and ``gate`` (where the policy file was
    read from does not enter it; its thresholds do)."""
    verdicts = document.get("verdicts") or []
    if not verdicts:
        return NO_POLICY
    rules = [
        [
            v.get("candidate"),
            [[r["name"], r["rule"], r.get("field"), r.get("threshold")] for r in v["rules"]],
        ]
        for v in verdicts
    ]
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _put(metrics: dict[str, float], key: str, value: Any) -> None:
    # null figures (nothing measured) and NaN are left out: MLflow would chart them as 0 or gaps
    if isinstance(value, bool) or not isinstance(value, int | float):
        return
    if math.isnan(value):
        return
    metrics[key] = float(value)


def _metrics(document: Mapping[str, Any], roles: Mapping[str, str]) -> dict[str, float]:
    metrics: dict[str, float] = {}
    for row in document.get("overall", []):
        role = roles[row["version"]]
        for name in (*_VERSION_FIGURES, "all_fields_correct_rate"):
            _put(metrics, f"{role}/{name}", row.get(name))
    for row in document.get("fields", []):
        prefix = f"{roles[row['version']]}/fields/{field_key(row['field'])}"
        for name in _VERSION_FIGURES:
            _put(metrics, f"{prefix}/{name}", row.get(name))
    for row in document.get("tests", []):
        prefix = f"{roles[row['candidate']]}/fields/{field_key(row['field'])}"
        for name in _TEST_FIGURES:
            _put(metrics, f"{prefix}/{name}", row.get(name))
    for candidate, boot in (document.get("bootstraps") or {}).items():
        role = roles[candidate]
        _put(metrics, f"{role}/delta", boot.get("delta"))
        _put(metrics, f"{role}/delta_low", boot.get("low"))
        _put(metrics, f"{role}/delta_high", boot.get("high"))
    return metrics


def run_record(tracked: Tracked) -> RunRecord:
    """The params, metrics and tags of ``tracked`` (keys in docs/mlflow.md)."""
    doc = tracked.document
    baseline, candidates = str(doc["baseline"]), [str(c) for c in doc["candidates"]]
    roles = role_names(baseline, candidates)
    labels = doc.get("labels") or {}
    digest = policy_digest(doc)
    params = {
        "runset_id": tracked.runset_id,
        "processor_id": tracked.processor_id,
        "dataset": tracked.dataset,
        "ground_truth_hash": str(doc["ground_truth_hash"]),
        "policy_digest": digest,
        "fieldwise_version": tracked.fieldwise_version,
    }
    for version, role in roles.items():
        params[f"version.{role}"] = version
        params[f"version.{role}.name"] = str(labels.get(version, version))
    tags = {
        "fieldwise.runset_id": tracked.runset_id,
        "fieldwise.versions": ",".join(roles),
        "fieldwise.policy_digest": digest,
        "fieldwise.command": tracked.command,
    }
    if doc.get("status"):
        tags["fieldwise.verdict"] = str(doc["status"])
    for verdict in doc.get("verdicts") or []:
        tags[f"fieldwise.verdict.{roles[verdict['candidate']]}"] = str(verdict["status"])
    names = {row["field"] for row in doc.get("fields", [])}
    return RunRecord(
        params=params,
        metrics=_metrics(doc, roles),
        tags=tags,
        field_keys={field_key(n): n for n in sorted(names)},
    )
