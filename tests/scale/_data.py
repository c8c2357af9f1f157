"""A generated comparison frame: documents d00000.. with three fields in two versions.

Field ``total`` (number, weight 2) is right in v1 for 80% of documents and in v2 for 85%;
``name`` (string) right in both for 90%, with some values missing or spurious; ``date`` (date)
right for 70% in v1 and 72% in v2, with a confidence on every prediction.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fieldwise.compare import FieldSpec, parse_field_specs

SPECS: dict[str, FieldSpec] = parse_field_specs(
    {
        "total": {"type": "number", "weight": 2.0},
        "name": {"type": "string"},
        "date": {"type": "date"},
    }
)


def generated_frame(documents: int, seed: int = 0, fields: int = 3) -> pd.DataFrame:
    """``documents`` x ``fields`` (1..3) cells per version, seeded."""
    rng = np.random.default_rng(seed)
    items = np.array([f"d{i:07d}" for i in range(documents)], dtype=object)
    names = ["total", "name", "date"][:fields]
    parts = []
    rates = {"total": (0.80, 0.85), "name": (0.90, 0.90), "date": (0.70, 0.72)}
    for name in names:
        if name == "total":
            expected = np.round(rng.uniform(1, 1000, documents), 2).astype(object)
        elif name == "name":
            expected = np.array([f"name {i % 997}" for i in range(documents)], dtype=object)
            expected[rng.random(documents) < 0.05] = None
        else:
            days = rng.integers(1, 28, documents)
            expected = np.array([f"2024-03-{d:02d}" for d in days], dtype=object)
        for version, rate in zip(("v1", "v2"), rates[name], strict=True):
            right = rng.random(documents) < rate
            predicted = expected.copy()
            wrong = ~right
            if name == "total":
                predicted[wrong] = (expected[wrong].astype(float) + 1).astype(object)
            elif name == "name":
                predicted[wrong] = "someone else"
            else:
                predicted[wrong] = "2023-01-01"
            confidence = np.where(
                right, rng.uniform(0.6, 1.0, documents), rng.uniform(0, 0.8, documents)
            )
            parts.append(
                pd.DataFrame(
                    {
                        "item": items,
                        "field": name,
                        "version": version,
                        "expected": expected,
                        "predicted": predicted,
                        "confidence": confidence,
                    }
                )
            )
    return pd.concat(parts, ignore_index=True)
