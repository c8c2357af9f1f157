"""``engine_accuracy.py --sweep``: a config's outputs scored as if it had abstained.

The ``abstain_below`` option leaves out a value whose raw confidence is below a threshold, and
``abstain_unlikely`` one whose calibrated P(right) (metadata ``p_right``) is; both are scored
here from one run's outputs, without running the engine again for each threshold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["SWEEP", "UNLIKELY_SWEEP", "sweep_abstaining"]

SWEEP = (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)  # abstain_below values --sweep scores
UNLIKELY_SWEEP = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)  # abstain_unlikely values (calibrated P(right))


def _abstained(output: Mapping[str, Any], below: float, key: str = "confidence") -> dict[str, Any]:
    """``output``'s values without the top-level fields whose metadata ``key`` is below
    ``below``: what ``abstain_below`` (``confidence``) or ``abstain_unlikely`` (``p_right``)
    would have left out."""
    value = dict(output["value"])
    for name in list(value):
        meta = output["metadata"].get(name)
        if meta is not None and key in meta and meta[key] < below:
            del value[name]
    return {"value": value, "metadata": output["metadata"]}


def sweep_abstaining(
    label: str,
    outputs: Mapping[str, Mapping[str, Any]],
    score: Callable[[Any], Any],
    key: str = "confidence",
) -> None:
    """Print ``score`` of ``outputs`` abstaining below each value of :data:`SWEEP` of the
    metadata's ``key`` (``confidence``: ``abstain_below``; ``p_right``: ``abstain_unlikely``)."""
    option = "abstain_below" if key == "confidence" else "abstain_unlikely"
    for below in SWEEP if key == "confidence" else UNLIKELY_SWEEP:
        run = score({file: _abstained(out, below, key) for file, out in outputs.items()})
        print(f"  sweep {label} {option} {below:.1f}: {run.total.summary()}")
