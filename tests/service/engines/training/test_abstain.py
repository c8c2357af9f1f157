"""Leaving a field empty below a learned confidence where the rules found nothing."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.training import TrainingExample, extract_with_model, load_model
from fieldwise.service.engines.training.ranker import abstain_threshold


def test_fields_never_empty_in_the_truth_never_abstain() -> None:
    confidence = [0.2, 0.5, 0.9]
    assert abstain_threshold(confidence, [0, 0, 1], [False, False, False]) == 0.0
    assert abstain_threshold(confidence, [1, 1, 1], [False, False, False]) == 0.0
    assert abstain_threshold([], [], []) == 0.0


def test_unsure_answers_on_documents_without_the_field_abstain() -> None:
    # the two least confident answers name a value where the truth is empty; the confident
    # ones are right
    threshold = abstain_threshold([0.1, 0.3, 0.7, 0.9], [0, 0, 1, 1], [True, True, False, False])
    assert threshold == 0.7  # below 0.7: nothing; 0.7 and above: the ranker's value


def test_a_tie_keeps_the_ranker() -> None:
    # abstaining on the first loses one; on both, wins one and loses one: no strict gain
    assert abstain_threshold([0.2, 0.4], [1, 0], [False, True]) == 0.0


def test_equal_confidences_abstain_together_or_not_at_all() -> None:
    # one wrong and one right at the same confidence cannot be split; the lower one gains
    assert abstain_threshold([0.2, 0.5, 0.5], [0, 0, 1], [True, True, False]) == 0.5
    # every answer unsure alike and most documents without the field: all abstain
    below = abstain_threshold([0.4, 0.4, 0.4], [0, 0, 1], [True, True, False])
    assert below == math.nextafter(0.4, math.inf)


def test_the_threshold_survives_the_blob_and_empties_unsure_fields_the_rules_miss(
    blob: bytes, examples: list[TrainingExample], fields: list[dict[str, Any]]
) -> None:
    model = load_model(blob)
    assert all(0.0 <= r.calibration.abstain_below <= 1.0 for r in model.rankers.values())
    doc = examples[0].document
    rules = extract(doc, validate_config({"fields": fields, "date_order": "auto"}))
    answered = set(extract_with_model(model, doc)["value"])
    ranked = {n for n, r in model.rankers.items() if r.classifier is not None} & answered
    missed = ranked - set(rules["value"])
    assert missed, "the ranker answers a field the rules miss on a training document"
    # a threshold above every confidence leaves empty each ranked field the rules found
    # nothing for; a field the rules found keeps the ranker's answer
    never = {
        name: dataclasses.replace(
            r, calibration=dataclasses.replace(r.calibration, abstain_below=1.5)
        )
        for name, r in model.rankers.items()
    }
    out = extract_with_model(dataclasses.replace(model, rankers=never), doc)
    assert set(out["value"]) == answered - missed
    assert not {path.split(".")[0] for path in out["metadata"]} & missed
