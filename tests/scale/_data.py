"""A generated comparison frame: documents d00000.. with three fields in two versions.

Field ``total`` (number, weight 2) is right in v1 for 80% of documents and in v2 for 85%;
``name`` (string) right in both for 90%, with some values missing or spurious; ``date`` (date)
right for 70% in v1 and 72% in v2, with a confidence on every prediction.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from fieldwise.compare import ComparisonResult, FieldSpec, parse_field_specs
from fieldwise.report import DocumentSource, comparison_document

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


LIST_SPEC: dict[str, object] = {
    "date_order": "YMD",
    "fields": {
        "invoice_number": {"type": "string"},
        "total": {"type": "currency", "critical": True, "weight": 2.0},
        "buyer": {"type": "string"},
        "items": {
            "type": "array",
            "columns": {"desc": {"type": "text"}, "amount": {"type": "currency"}},
        },
    },
}


def listed_outputs(
    documents: int, seed: int = 0
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, dict[str, Any] | None]]]:
    """Ground truth and three versions' outputs with scalar and list fields: v2 fixes some
    totals and cuts some lists short, v3 never fills ``buyer`` (an all-null column) and
    fails on a few documents."""
    rng = np.random.default_rng(seed)
    truth: dict[str, dict[str, Any]] = {}
    for i in range(documents):
        rows = [
            {"desc": f"part {i}-{r}", "amount": float(rng.integers(1, 500))}
            for r in range(int(rng.integers(1, 5)))
        ]
        truth[f"doc-{i:04d}"] = {
            "invoice_number": f"N{i}",
            "total": float(rng.integers(100, 10_000)),
            "buyer": f"buyer {i % 13}",
            "items": rows,
        }
    outputs: dict[str, dict[str, dict[str, Any] | None]] = {"v1": {}, "v2": {}, "v3": {}}
    for name, gt in truth.items():
        draw = rng.random(6)
        v1 = {**gt, "total": gt["total"] + 1} if draw[0] < 0.3 else dict(gt)
        if draw[1] < 0.2:
            v1["invoice_number"] = "?"
        v2 = {**gt, "total": gt["total"] + 1} if draw[2] < 0.2 else dict(gt)
        if draw[3] < 0.25:
            v2["items"] = gt["items"][:-1]
        v3: dict[str, Any] | None = {k: v for k, v in v2.items() if k != "buyer"}
        if draw[4] < 0.05:
            v3 = None
        outputs["v1"][name], outputs["v2"][name], outputs["v3"][name] = v1, v2, v3
    return truth, outputs


def figures_of(result: ComparisonResult) -> dict[str, Any]:
    """Every figure of ``result`` as ``compare --json`` prints it, without its source (the
    run set, executor and partitions): what equal statistics must give."""
    document = comparison_document(result, DocumentSource("rs_test", "sha_test"))
    return {key: value for key, value in document.items() if key != "source"}
