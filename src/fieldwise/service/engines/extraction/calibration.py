"""A calibrated probability that the engine's chosen value is right (``abstain_unlikely``).

The raw confidence of a value (see :mod:`.engine`) is a product of evidence factors whose
scale differs by strategy: a value found by a section's pattern scan starts at 0.35 and is
usually right, a label's value at 0.8 may be a neighbour's. So a threshold on it cannot trade
wrong cells for missed ones fairly. This module turns what the engine knows when it chooses
(:class:`Evidence`: the strategy that found the value, its raw confidence, how many candidates
there were and whether they agreed, the margin to the runner-up, whether a consistency check
confirmed it, the field's type, whether the page was scanned) into P(right) with a logistic
model fitted on the tune sets' outputs only (``benchmarks/calibrate.py``: the command, seed,
sets and out-of-fold reliability are recorded in the JSON it writes, ``calibration.json``
beside this module). The fitted parameters are plain numbers in JSON, loaded without executing
code.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction.candidate import Candidate

__all__ = [
    "STRATEGIES",
    "Calibration",
    "Evidence",
    "Tree",
    "evidence_of",
    "feature_names",
    "features",
    "load_calibration",
]

# how the engine found a value (see engine._field): a label's best candidate, the first label
# that had one, the candidate a consistency check confirmed, currency symbols, a type scan,
# the letterhead, the party blocks, the address block
STRATEGIES = ("label", "first", "consistent", "symbols", "scan", "letterhead", "party", "address")
_TYPES = ("string", "date", "currency", "number", "enum", "boolean")
_RESOURCE = "calibration.json"


@dataclass(frozen=True)
class Evidence:
    """What the engine knew when it chose a field's value."""

    strategy: str
    field_type: str
    confidence: float  # the raw confidence of the chosen candidate
    candidates: int  # candidates the labels offered (0 for a strategy without labels)
    values: int  # distinct values among them
    margin: float  # best raw confidence minus the best of another value (0..1; 1: none)
    doubted: bool  # the candidates disagreed (see reading.best_of / first_read)
    has_role: bool  # the field names a role (vocabulary): role checks filtered its candidates
    scanned: bool  # the page's words came from OCR

    def to_json(self) -> dict[str, Any]:
        """The evidence as the run output's metadata reports it."""
        return {
            "strategy": self.strategy,
            "candidates": self.candidates,
            "values": self.values,
            "margin": round(self.margin, 4),
            "doubted": self.doubted,
            "has_role": self.has_role,
            "scanned": self.scanned,
        }


def evidence_of(
    best: Candidate,
    candidates: Sequence[Candidate],
    strategy: str,
    *,
    field_type: str,
    has_role: bool,
    scanned: bool,
) -> Evidence:
    """The :class:`Evidence` of ``best`` chosen by ``strategy`` among ``candidates``."""
    same = [c.confidence for c in candidates if c.parsed.value == best.parsed.value]
    other = [c.confidence for c in candidates if c.parsed.value != best.parsed.value]
    top = max([best.confidence, *same])
    margin = top - max(other) if other else 1.0
    return Evidence(
        strategy=strategy,
        field_type=field_type,
        confidence=best.confidence,
        candidates=len(candidates),
        values=len({c.parsed.value for c in candidates}),
        margin=max(-1.0, min(1.0, margin)),
        doubted=best.doubted,
        has_role=has_role,
        scanned=scanned,
    )


def features(evidence: Evidence) -> dict[str, float]:
    """The model's inputs: numbers, and one-hot strategies and types (unknown ones all 0)."""
    out = {
        "confidence": evidence.confidence,
        "log_candidates": math.log1p(evidence.candidates),
        "log_values": math.log1p(evidence.values),
        "agree": float(evidence.values <= 1),
        "margin": evidence.margin,
        "doubted": float(evidence.doubted),
        "has_role": float(evidence.has_role),
        "scanned": float(evidence.scanned),
    }
    for strategy in STRATEGIES:
        mine = float(evidence.strategy == strategy)
        out[f"strategy={strategy}"] = mine
        # a raw confidence means something different for each strategy (the module docstring),
        # and so does a strategy on a scanned page (OCR's words) and on a text layer
        out[f"confidence|{strategy}"] = evidence.confidence * mine
        out[f"scanned|{strategy}"] = mine * evidence.scanned
    for kind in _TYPES:
        out[f"type={kind}"] = float(evidence.field_type == kind)
    return out


def feature_names() -> list[str]:
    """The feature names in a fixed order (that of :func:`features`)."""
    probe = Evidence("label", "string", 0.0, 0, 0, 0.0, False, False, False)
    return list(features(probe))


@dataclass(frozen=True)
class Tree:
    """One regression tree of a boosted model, as parallel node arrays (scikit-learn's
    ``tree_`` layout): node ``i`` sends a value ``<= threshold[i]`` of ``feature[i]`` to
    ``left[i]``, others to ``right[i]``; a leaf (``left[i] == -1``) adds ``value[i]``."""

    feature: tuple[str, ...]
    threshold: tuple[float, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    value: tuple[float, ...]

    def predict(self, given: Mapping[str, float]) -> float:
        node = 0
        while self.left[node] != -1:
            below = given[self.feature[node]] <= self.threshold[node]
            node = self.left[node] if below else self.right[node]
        return self.value[node]


@dataclass(frozen=True)
class Calibration:
    """A fitted model of P(right) = sigmoid(intercept + sum(weight x feature) + sum(trees)):
    a logistic regression (no trees) or gradient-boosted trees (no weights)."""

    weights: Mapping[str, float]
    intercept: float
    trees: tuple[Tree, ...] = ()

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Calibration:
        """Read the fitted parameters; a feature this engine does not compute is refused."""
        weights = raw.get("weights", {})
        intercept = raw.get("intercept")
        if not isinstance(weights, Mapping) or not isinstance(intercept, int | float):
            raise ConfigError("calibration: expected 'weights' (an object) and 'intercept'")
        trees = tuple(_tree(t) for t in raw.get("trees", []))
        used = set(weights) | {f for tree in trees for f in tree.feature if f}
        unknown = used - set(feature_names())
        if unknown:
            raise ConfigError(f"calibration: unknown features {sorted(unknown)}")
        return cls({k: float(v) for k, v in weights.items()}, float(intercept), trees)

    def probability(self, evidence: Evidence) -> float:
        """P(the chosen value is right), in 0..1."""
        given = features(evidence)
        z = self.intercept + sum(w * given[name] for name, w in self.weights.items())
        z += sum(tree.predict(given) for tree in self.trees)
        # a numerically stable sigmoid: exp of a large positive z would overflow
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)


def _tree(raw: Mapping[str, Any]) -> Tree:
    try:
        tree = Tree(
            tuple(str(f) for f in raw["feature"]),
            tuple(float(t) for t in raw["threshold"]),
            tuple(int(i) for i in raw["left"]),
            tuple(int(i) for i in raw["right"]),
            tuple(float(v) for v in raw["value"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"calibration: a tree without its node arrays ({exc})") from exc
    sizes = {len(tree.feature), len(tree.threshold), len(tree.left), len(tree.right)}
    if sizes != {len(tree.value)} or not tree.value:
        raise ConfigError("calibration: a tree's node arrays differ in length")
    return tree


def load_calibration() -> Calibration:
    """The model shipped with the package (``calibration.json``)."""
    text = resources.files(__package__).joinpath(_RESOURCE).read_text(encoding="utf-8")
    return Calibration.from_json(json.loads(text))
