"""The run's content from a comparison document, without MLflow: null figures are left out,
the policy digest follows the thresholds (not where the policy was read from), and a
comparison without verdicts has no verdict tag."""

from __future__ import annotations

import copy
from typing import Any

from fieldwise.tracking import NO_POLICY, Tracked, policy_digest, run_record


def _rule(name: str, threshold: float) -> dict[str, Any]:
    return {"name": name, "rule": name, "field": None, "threshold": threshold,
            "status": "pass", "message": "", "observed": 1.0}  # fmt: skip


def _document() -> dict[str, Any]:
    figures = {"field_accuracy": 0.5, "field_accuracy_low": 0.2, "field_accuracy_high": 0.8,
               "precision": 1.0, "recall": 0.5, "f1": 2 / 3, "strict_accuracy": 0.5,
               "accuracy": 0.5}  # fmt: skip
    return {
        "schema": 2,
        "source": {"runset_id": "rs_1", "executor": "in-process", "scheduler": None},
        "ground_truth_hash": "ab" * 32,
        "baseline": "ver_a",
        "candidates": ["ver_b"],
        "labels": {"ver_a": "published", "ver_b": "latest-draft"},
        "overall": [
            {"version": "ver_a", **figures, "all_fields_correct_rate": 0.25},
            {"version": "ver_b", **figures, "f1": None, "all_fields_correct_rate": 0.5},
        ],
        "fields": [
            {"version": "ver_a", "field": "items[].qty", **figures},
            {"version": "ver_b", "field": "items[].qty", **figures, "precision": None},
        ],
        "tests": [
            {
                "candidate": "ver_b",
                "field": "items[].qty",
                "delta": 0.1,
                "delta_low": -0.2,
                "delta_high": 0.4,
                "p_value": 0.5,
                "p_holm": 1.0,
            },
        ],
        "bootstraps": {"ver_b": {"delta": 0.1, "low": -0.1, "high": 0.3}},
        "status": "fail",
        "verdicts": [
            {
                "candidate": "ver_b",
                "status": "fail",
                "policy_source": "a.toml",
                "rules": [_rule("min_documents", 10.0)],
            },
        ],
    }


def _tracked(document: dict[str, Any]) -> Tracked:
    return Tracked(
        command="gate",
        document=document,
        processor_id="proc_1",
        dataset="invoices",
        ground_truth=(),
        fieldwise_version="0.1.0",
    )


def test_figures_become_metrics_and_null_ones_are_left_out() -> None:
    record = run_record(_tracked(_document()))
    key = next(iter(record.field_keys))
    assert record.field_keys == {key: "items[].qty"}
    assert record.metrics["baseline/f1"] == 2 / 3
    assert "candidate/f1" not in record.metrics
    assert f"candidate/fields/{key}/precision" not in record.metrics
    assert record.metrics[f"baseline/fields/{key}/precision"] == 1.0
    assert record.metrics[f"candidate/fields/{key}/p_holm"] == 1.0
    assert record.metrics["candidate/delta_low"] == -0.1
    assert len(record.metrics) == (9 + 8) + (8 + 7) + 5 + 3  # overall, fields, tests, bootstrap
    assert record.tags["fieldwise.verdict"] == "fail"
    assert record.tags["fieldwise.verdict.candidate"] == "fail"
    assert record.params["version.candidate.name"] == "latest-draft"


def test_policy_digest_follows_thresholds_not_the_policy_file() -> None:
    document = _document()
    moved = copy.deepcopy(document)
    moved["verdicts"][0]["policy_source"] = "elsewhere/b.toml"
    changed = copy.deepcopy(document)
    changed["verdicts"][0]["rules"] = [_rule("min_documents", 5.0)]
    assert policy_digest(document) == policy_digest(moved) != policy_digest(changed)


def test_a_comparison_without_verdicts_has_no_policy_and_no_verdict() -> None:
    document = _document()
    del document["verdicts"], document["status"]
    record = run_record(_tracked(document))
    assert record.params["policy_digest"] == NO_POLICY
    assert not any(tag.startswith("fieldwise.verdict") for tag in record.tags)
