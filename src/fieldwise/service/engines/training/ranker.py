"""One field's candidate ranker: learned context words, gradient-boosted trees, calibration.

The classifier scores each candidate; the field's answer is the best-scoring candidate of the
document. Its raw score is not a probability of being right (many candidates compete), so the
confidence is calibrated separately: out-of-fold (folds by document), the best candidate's
score of each training document is paired with whether that candidate was right, and a Platt
curve (logistic regression on the score's logit) maps one to the other.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from fieldwise.service.engines.training.params import TrainParams

if TYPE_CHECKING:
    # scikit-learn takes over a second to import: every service start would pay it (the runs
    # resource imports this engine for trained versions), so it loads when a model is fitted
    from sklearn.ensemble import HistGradientBoostingClassifier

__all__ = ["Calibration", "FieldData", "calibrate", "fit_classifier", "learn_vocab", "top"]

_EPS = 1e-6


@dataclass(frozen=True)
class Calibration:
    """confidence = sigmoid(slope * logit(score) + intercept); below ``abstain_below`` the field
    is left empty where the rules found nothing (learned out of fold: :func:`abstain_threshold`)."""

    slope: float
    intercept: float
    abstain_below: float = 0.0

    def __call__(self, score: float) -> float:
        p = min(max(score, _EPS), 1 - _EPS)
        z = self.slope * math.log(p / (1 - p)) + self.intercept
        return 1.0 / (1.0 + math.exp(-z))


@dataclass
class FieldData:
    """A field's training rows: one matrix and label vector per document."""

    matrices: list[np.ndarray]
    labels: list[np.ndarray]


def learn_vocab(
    contexts: Sequence[Sequence[set[str]]], labels: Sequence[Sequence[int]], size: int
) -> tuple[str, ...]:
    """The ``size`` words most telling of the right candidates' context (left or above).

    A word must be there in a tenth of the documents (two at least): one next to the right
    value in a single layout belongs to that layout, not to the field. It counts by how many
    documents have it next to a right candidate, weighted by how often a candidate next to it
    is right; ties break alphabetically (deterministic).
    """
    if size == 0:
        return ()
    pos_docs: Counter[str] = Counter()
    pos: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for doc_contexts, doc_labels in zip(contexts, labels, strict=True):
        in_doc: set[str] = set()
        for tokens, label in zip(doc_contexts, doc_labels, strict=True):
            seen.update(tokens)
            if label:
                pos.update(tokens)
                in_doc |= tokens
        pos_docs.update(in_doc)
    # a word next to the right value in only a few documents is that layout's, not the field's
    need = max(2, len(contexts) // 10) if len(contexts) >= 4 else 1
    scored = [
        (-(pos_docs[t] * pos[t] / (seen[t] + 1.0)), t) for t in pos_docs if pos_docs[t] >= need
    ]
    return tuple(t for _, t in sorted(scored)[:size])


def fit_classifier(
    x: np.ndarray, y: np.ndarray, params: TrainParams
) -> HistGradientBoostingClassifier | None:
    """Gradient-boosted trees on the candidates; None when the labels have one class only."""
    if len(np.unique(y)) < 2:
        return None
    from sklearn.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(
        max_iter=params.max_iter,
        learning_rate=params.learning_rate,
        max_leaf_nodes=params.max_leaf_nodes,
        min_samples_leaf=params.min_samples_leaf,
        l2_regularization=params.l2_regularization,
        early_stopping=False,
        random_state=params.seed,
    )
    model.fit(x, y)
    return model


def scores(model: Any, x: np.ndarray) -> np.ndarray:
    """The classifier's probability that each candidate is right."""
    if len(x) == 0:
        return np.zeros(0)
    return np.asarray(model.predict_proba(x)[:, 1], dtype=np.float64)


def top(values: np.ndarray) -> int:
    """Index of the best score (the first on ties: document order)."""
    return int(np.argmax(values))


def abstain_threshold(
    confidence: Sequence[float], right: Sequence[int], empty: Sequence[bool]
) -> float:
    """The confidence below which leaving the field empty is right more often than the
    ranker's best candidate, on out-of-fold documents; 0.0 (never) unless that strictly helps.

    A ranker always names a candidate, so where the truth is empty (an optional field the
    document does not carry) it is wrong by construction. Fields that are never empty in the
    training truth never abstain; ties keep the ranker."""
    order = sorted(range(len(confidence)), key=lambda i: confidence[i])
    # abstaining below order[k + 1]'s confidence: the k + 1 least confident answer nothing
    gain = best_gain = 0
    threshold = 0.0
    for k, i in enumerate(order):
        gain += int(empty[i]) - right[i]
        nxt = confidence[order[k + 1]] if k + 1 < len(order) else None
        if nxt is not None and nxt == confidence[i]:
            continue  # a threshold cannot split equal confidences
        if gain > best_gain:
            best_gain = gain
            threshold = nxt if nxt is not None else math.nextafter(confidence[i], math.inf)
    return threshold


def calibrate(
    data: FieldData,
    params: TrainParams,
    step: Callable[[], None],
    empty: Sequence[bool | None] = (),
) -> Calibration:
    """Platt calibration of the best candidate's score from out-of-fold predictions, and the
    confidence below which answering nothing is the better answer where the rules found
    nothing (``empty[d]``: document ``d``'s truth is empty; None: the rules answered on ``d``,
    so the field is not left empty there)."""
    n = len(data.matrices)
    folds = min(params.calibration_folds, n)
    best: list[float] = []
    right: list[int] = []
    blank: list[bool | None] = []
    for fold in range(folds):
        step()
        train = [d for d in range(n) if d % folds != fold]
        test = [d for d in range(n) if d % folds == fold and len(data.matrices[d])]
        model = None
        if train:
            x = np.vstack([data.matrices[d] for d in train])
            y = np.concatenate([data.labels[d] for d in train])
            model = fit_classifier(x, y, params) if len(x) else None
        for d in test:
            if model is None:
                continue
            found = scores(model, data.matrices[d])
            i = top(found)
            best.append(float(found[i]))
            right.append(int(data.labels[d][i]))
            blank.append(empty[d] if empty else None)
    for _ in range(folds, params.calibration_folds):
        step()  # keep progress totals exact when there are fewer documents than folds
    if not right or len(set(right)) < 2:
        rate = (sum(right) + 1.0) / (len(right) + 2.0)
        fitted = Calibration(0.0, math.log(rate / (1 - rate)))
    else:
        from sklearn.linear_model import LogisticRegression

        logits = np.array([[math.log(max(p, _EPS) / max(1 - p, _EPS))] for p in best])
        fit = LogisticRegression(C=1.0).fit(logits, np.array(right))
        fitted = Calibration(float(fit.coef_[0][0]), float(fit.intercept_[0]))
    open_ = [k for k, b in enumerate(blank) if b is not None]
    below = abstain_threshold(
        [fitted(best[k]) for k in open_], [right[k] for k in open_], [bool(blank[k]) for k in open_]
    )
    return Calibration(fitted.slope, fitted.intercept, below)
