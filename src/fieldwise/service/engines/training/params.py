"""What training takes: labelled examples, hyper-parameters, and the errors it raises."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fieldwise.service.engines.parsing import ParsedDocument

__all__ = [
    "MODEL_FORMAT",
    "ModelError",
    "TrainParams",
    "TrainingCanceled",
    "TrainingError",
    "TrainingExample",
]

#: The blob format this engine writes and reads; a blob of another format is refused.
MODEL_FORMAT = "fieldwise-candidate-ranker/1"

_DATE_ORDERS = ("auto", "DMY", "MDY", "YMD")


class TrainingError(ValueError):
    """Training cannot start: no examples, no fields, or fields the engine cannot read."""


class TrainingCanceled(Exception):
    """``should_stop()`` said stop: training ended between two steps, nothing was produced."""


class ModelError(ValueError):
    """A model blob that is corrupt, tampered with, of another format, or holds untrusted types."""


@dataclass(frozen=True)
class TrainingExample:
    """One labelled item: its parsed document and its ground truth as stored.

    ``truth`` maps a field name to its value (dotted names may also be nested mappings); an
    array field maps to a list of row mappings (column name to value).
    """

    document: ParsedDocument
    truth: Mapping[str, Any]


@dataclass(frozen=True)
class TrainParams:
    """Hyper-parameters. The same examples, fields and params give the same model bytes.

    - ``seed``: the classifiers' random state;
    - ``max_iter``, ``learning_rate``, ``max_leaf_nodes``, ``min_samples_leaf``,
      ``l2_regularization``: the gradient-boosted trees of each field's candidate ranker;
    - ``context_words``: how many learned context words (words near the value, learned from
      the training documents) per field, on top of the configured labels (0: none);
    - ``max_lines``: the longest multi-line text block offered as a candidate (addresses);
    - choose both per dataset by cross-validation on its train split (``benchmarks/training.py
      --cv K``), never on the split the version is evaluated on;
    - ``calibration_folds``: folds (by document) of the out-of-fold scores that calibrate
      the confidence;
    - ``text_match``: how similar (0..1, rapidfuzz ratio) a free-text candidate must be to the
      truth to count as a positive example;
    - ``date_order``, ``lenient_dates``, ``label_threshold``: how values and labels are read,
      as in a rules config (``auto`` reads each document's dates the way its clear ones are).
    """

    seed: int = 0
    max_iter: int = 150
    learning_rate: float = 0.1
    max_leaf_nodes: int = 15
    min_samples_leaf: int = 4
    # Not 0: a leaf that holds one of a field's rare right candidates among negatives the
    # trees already score near 0 has a Newton step of gradient / hessian ~ 1 / p; without a
    # floor under the hessian it blows up and scores whole regions of wrong candidates 1.0
    # (a PO number ranker picking address blocks). tests/service/engines/training/test_ranker.py
    l2_regularization: float = 1.0
    context_words: int = 0
    max_lines: int = 5
    calibration_folds: int = 3
    text_match: float = 0.8
    date_order: str = "auto"
    lenient_dates: bool = True
    label_threshold: float = 85.0

    def __post_init__(self) -> None:
        checks: list[tuple[str, bool, str]] = [
            ("seed", 0 <= self.seed < 2**32, "an integer from 0 to 2**32-1"),
            ("max_iter", 1 <= self.max_iter <= 2000, "an integer from 1 to 2000"),
            ("learning_rate", 0 < self.learning_rate <= 1, "a number in (0, 1]"),
            ("max_leaf_nodes", 2 <= self.max_leaf_nodes <= 255, "an integer from 2 to 255"),
            ("min_samples_leaf", 1 <= self.min_samples_leaf <= 1000, "an integer from 1 to 1000"),
            ("l2_regularization", self.l2_regularization >= 0, "a number >= 0"),
            ("context_words", 0 <= self.context_words <= 200, "an integer from 0 to 200"),
            ("max_lines", 1 <= self.max_lines <= 12, "an integer from 1 to 12"),
            ("calibration_folds", 2 <= self.calibration_folds <= 10, "an integer from 2 to 10"),
            ("text_match", 0 < self.text_match <= 1, "a number in (0, 1]"),
            ("date_order", self.date_order in _DATE_ORDERS, f"one of {', '.join(_DATE_ORDERS)}"),
            ("label_threshold", 0 <= self.label_threshold <= 100, "a number from 0 to 100"),
        ]
        for name, ok, expected in checks:
            if not ok:
                raise ValueError(f"params.{name}: expected {expected}, got {getattr(self, name)!r}")

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> TrainParams:
        """Params from a JSON object; :class:`ValueError` names an unknown or bad key."""
        if not isinstance(raw, Mapping):
            raise ValueError(f"params: expected an object, got {type(raw).__name__}")
        known = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in known:
                raise ValueError(
                    f"params.{key}: unknown parameter (allowed: {', '.join(sorted(known))})"
                )
            default = known[key].default
            if isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, int):
                ok = isinstance(value, int) and not isinstance(value, bool)
            elif isinstance(default, float):
                ok = isinstance(value, int | float) and not isinstance(value, bool)
                value = float(value) if ok else value
            else:
                ok = isinstance(value, str)
            if not ok:
                kind = type(default).__name__
                raise ValueError(f"params.{key}: expected {kind}, got {type(value).__name__}")
            values[key] = value
        return cls(**values)

    def to_mapping(self) -> dict[str, Any]:
        """The params as a JSON object (every key, defaults included)."""
        return dataclasses.asdict(self)
