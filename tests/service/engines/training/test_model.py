"""The trained model: deterministic bytes, safe loading, cancel, output shape, and learning."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.training import (
    MODEL_FORMAT,
    ModelError,
    TrainedModel,
    TrainingCanceled,
    TrainingError,
    TrainingExample,
    TrainParams,
    extract_with_model,
    load_model,
    train_model,
)
from fieldwise.service.engines.training.blob import dump_payload
from fieldwise.service.engines.training.truth import lookup, similarity, truth_value


def test_same_examples_fields_and_params_give_the_same_bytes(
    examples: list[TrainingExample], fields: list[dict[str, Any]], params: TrainParams, blob: bytes
) -> None:
    again = train_model(examples, fields, params)
    assert hashlib.sha256(again).hexdigest() == hashlib.sha256(blob).hexdigest()
    other = train_model(examples, fields, TrainParams(max_iter=40, seed=params.seed + 1))
    assert other != blob  # the params are part of the model


def test_a_model_loads_back_with_its_fields_and_params(
    blob: bytes, fields: list[dict[str, Any]], params: TrainParams
) -> None:
    model = load_model(blob)
    assert isinstance(model, TrainedModel)
    assert model.params == params
    assert model.field_names == tuple(f["name"] for f in fields)
    assert blob.startswith(b"FWMODEL1\n")
    assert MODEL_FORMAT.startswith("fieldwise-")


@pytest.mark.parametrize("where", [0, 20, 200, -1, "middle"])
def test_a_flipped_byte_anywhere_is_refused(blob: bytes, where: int | str) -> None:
    index = len(blob) // 2 if where == "middle" else int(where)
    tampered = bytearray(blob)
    tampered[index] ^= 0x01
    with pytest.raises(ModelError, match="model blob"):
        load_model(bytes(tampered))


@pytest.mark.parametrize("garbage", [b"", b"not a model", b"FWMODEL1\n" + b"0" * 64 + b"\nzip"])
def test_garbage_is_refused(garbage: bytes) -> None:
    with pytest.raises(ModelError):
        load_model(garbage)


class Intruder:
    """A type no model may hold: loading must refuse it without ever building one."""

    built = 0

    def __init__(self) -> None:
        self.payload = "run me"

    def __setstate__(self, state: dict[str, Any]) -> None:
        Intruder.built += 1
        self.__dict__.update(state)


def test_a_blob_holding_an_untrusted_type_is_refused_without_loading_it() -> None:
    blob = dump_payload({"format": MODEL_FORMAT, "meta": "{}", "classifiers": {"x": Intruder()}})
    with pytest.raises(ModelError, match=r"untrusted type.*Intruder"):
        load_model(blob)
    assert Intruder.built == 0


def test_a_blob_of_another_format_is_refused() -> None:
    blob = dump_payload({"format": "something-else/9", "meta": "{}", "classifiers": {}})
    with pytest.raises(ModelError, match="format 'something-else/9'"):
        load_model(blob)


def test_should_stop_cancels_between_steps(
    examples: list[TrainingExample], fields: list[dict[str, Any]], params: TrainParams
) -> None:
    seen: list[tuple[int, int]] = []
    with pytest.raises(TrainingCanceled):
        train_model(
            examples,
            fields,
            params,
            progress=lambda done, total: seen.append((done, total)),
            should_stop=lambda: len(seen) >= 3,
        )
    assert len(seen) == 3  # nothing ran after the stop was asked for


def test_progress_counts_up_to_its_total(
    examples: list[TrainingExample], fields: list[dict[str, Any]]
) -> None:
    seen: list[tuple[int, int]] = []
    small = TrainParams(max_iter=5)
    train_model(examples[:4], fields, small, progress=lambda d, t: seen.append((d, t)))
    totals = {t for _, t in seen}
    assert len(totals) == 1
    assert [d for d, _ in seen] == list(range(1, totals.pop() + 1))


def test_the_output_has_the_rule_engines_shape(
    blob: bytes, examples: list[TrainingExample], fields: list[dict[str, Any]]
) -> None:
    model = load_model(blob)
    doc = examples[0].document
    trained = extract_with_model(model, doc, confidence_threshold=0.5)
    rules = extract(doc, validate_config({"fields": fields, "date_order": "auto"}))
    assert set(trained) == set(rules) == {"value", "metadata"}
    assert set(trained["value"]) <= {f["name"] for f in fields}
    for path, entry in trained["metadata"].items():
        assert set(entry) == {"confidence", "page", "text", "needs_review"}, path
        assert 0.0 <= entry["confidence"] <= 1.0
        assert entry["needs_review"] == (entry["confidence"] < 0.5)
    # the array field is the rule engine's table, row by row
    assert trained["value"].get("line_items") == rules["value"].get("line_items")


def _right(model: TrainedModel, example: TrainingExample) -> tuple[int, int]:
    out = extract_with_model(model, example.document)
    good = total = 0
    for spec in model.config.fields:
        if spec.type == "array":
            continue
        want = truth_value(lookup(example.truth, spec.name), spec, model.config)
        if want is None:
            continue
        total += 1
        got = lookup(out["value"], spec.name)
        if spec.type == "string" and spec.pattern is None:
            good += got is not None and similarity(str(got), str(want)) >= 0.9
        elif isinstance(want, float):
            good += isinstance(got, float) and abs(got - want) < 0.005
        else:
            good += got == want
    return good, total


def test_a_model_recovers_the_fields_of_its_training_documents(
    blob: bytes, examples: list[TrainingExample]
) -> None:
    model = load_model(blob)
    good = total = 0
    for example in examples:
        g, t = _right(model, example)
        good, total = good + g, total + t
    assert total > 60
    assert good / total >= 0.9, f"{good}/{total}"


def test_confidence_separates_right_from_wrong(
    blob: bytes, examples: list[TrainingExample]
) -> None:
    model = load_model(blob)
    confidences = [
        entry["confidence"]
        for example in examples
        for path, entry in extract_with_model(model, example.document)["metadata"].items()
        if "." not in path
    ]
    assert max(confidences) > 0.8


def test_bad_input_is_refused_with_a_clear_error(
    examples: list[TrainingExample], fields: list[dict[str, Any]]
) -> None:
    with pytest.raises(TrainingError, match="at least one"):
        train_model([], fields, TrainParams())
    with pytest.raises(TrainingError, match=r"fields: fields\[0\].type"):
        train_model(examples, [{"name": "x", "type": "colour"}], TrainParams())


def test_params_from_a_mapping_name_the_bad_key() -> None:
    assert TrainParams.from_mapping({"seed": 3, "learning_rate": 1}).learning_rate == 1.0
    with pytest.raises(ValueError, match=r"params.depth: unknown parameter"):
        TrainParams.from_mapping({"depth": 3})
    with pytest.raises(ValueError, match=r"params.seed: expected int, got str"):
        TrainParams.from_mapping({"seed": "3"})
    with pytest.raises(ValueError, match=r"params.max_iter: expected an integer from 1"):
        TrainParams.from_mapping({"max_iter": 0})
    with pytest.raises(ValueError, match=r"params.lenient_dates: expected bool"):
        TrainParams.from_mapping({"lenient_dates": 1})
    with pytest.raises(ValueError, match=r"params: expected an object"):
        TrainParams.from_mapping([])  # type: ignore[arg-type]


_TRAIN_IN_A_CHILD = """
import hashlib, json, sys
from pathlib import Path
from fieldwise.service.engines.parsing import parse_document
from fieldwise.service.engines.training import TrainingExample, TrainParams, train_model
root = Path(sys.argv[1])
rows = [json.loads(x) for x in sys.argv[2:]]
examples = [
    TrainingExample(parse_document((root / r["file"]).read_bytes(), ocr=False), r["ground_truth"])
    for r in rows
]
fields = json.loads((root / "processor" / "v1.json").read_text())["fields"]
print(hashlib.sha256(train_model(examples, fields, TrainParams(max_iter=5))).hexdigest())
"""


def test_the_bytes_do_not_depend_on_the_process(
    examples: list[TrainingExample], fields: list[dict[str, Any]]
) -> None:
    """Another interpreter, another hash seed, one thread or two: the same model hash."""
    import json
    import os
    import subprocess
    import sys

    from tests.service.engines.training.conftest import DATASET

    rows = [json.loads(x) for x in (DATASET / "ground_truth.jsonl").read_text().splitlines()]
    by_truth = {json.dumps(r["ground_truth"], sort_keys=True): r for r in rows}
    chosen = [by_truth[json.dumps(dict(e.truth), sort_keys=True)] for e in examples[:4]]
    here = hashlib.sha256(train_model(examples[:4], fields, TrainParams(max_iter=5))).hexdigest()
    env = {**os.environ, "PYTHONHASHSEED": "12345", "OMP_NUM_THREADS": "2"}
    child = subprocess.run(
        [sys.executable, "-c", _TRAIN_IN_A_CHILD, str(DATASET), *map(json.dumps, chosen)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=True,
    )
    assert child.stdout.strip() == here
