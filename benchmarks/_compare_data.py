"""The inputs of benchmarks/compare.py and its row-by-row alternative.

(a) wide frames: documents x 20 fields (10 exact strings, 10 numbers within a tolerance), the
    shape datacompy compares; (b) messy typed values over two versions (mixed date formats,
    currency strings, fuzzy names), the long shape fieldwise compares; and ``row_by_row``: the
    same typed pipeline written the way one would without fieldwise, in plain Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from _fields import WIDE_FIELDS

__all__ = ["WIDE_FIELDS", "messy_columns", "wide_frames"]


def wide_frames(docs: int, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Truth and predictions, one row per document: 5% of the strings differ, 5% of the numbers
    are off by a normal(0, 5) and another 5% by 0.004 (within the 0.01 tolerance)."""
    truth: dict[str, Any] = {"document": np.arange(docs)}
    pred: dict[str, Any] = {"document": np.arange(docs)}
    words = np.array([f"value-{i}" for i in range(5000)], dtype=object)
    for k in range(10):
        t = words[rng.integers(0, len(words), docs)]
        p = t.copy()
        flip = rng.random(docs) < 0.05
        p[flip] = words[rng.integers(0, len(words), int(flip.sum()))]
        truth[f"s{k}"], pred[f"s{k}"] = t, p
    for k in range(10):
        t = np.round(rng.uniform(0, 10_000, docs), 2)
        p = t + np.where(rng.random(docs) < 0.05, rng.normal(0, 5, docs), 0.0)
        p = p + np.where(rng.random(docs) < 0.05, 0.004, 0.0)  # within tolerance
        truth[f"n{k}"], pred[f"n{k}"] = t, p
    return pd.DataFrame(truth), pd.DataFrame(pred)


MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def german(x: float) -> str:
    return f"{x:,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def messy_date(iso: str, style: int) -> str:
    y, m, d = iso.split("-")
    return [
        iso,
        f"{d}.{m}.{y}",
        f"{int(d)}/{int(m)}/{y}",
        f"{MONTHS[int(m) - 1]} {int(d)}, {y}",
        f"{int(d)} {MONTHS[int(m) - 1][:3]} {y}",
    ][style]


def messy_amount(x: float, style: int) -> Any:
    return [
        x,
        f"€ {german(x)}",
        f"{x:,.2f} EUR",
        german(x),
        f"({abs(x):.2f})" if x < 0 else f"{x:.2f}",
    ][style]


def typo(name: str, rng_value: float) -> str:
    i = int(rng_value * len(name))
    return name[:i] + name[i + 1 :] if len(name) > 8 else name + "x"


def messy_dataset(docs: int, rng: np.random.Generator) -> pd.DataFrame:
    """Two versions over ``docs`` documents x 10 fields, predictions in messy printed forms."""
    names = [
        f"{a} {b} {c}"
        for a in (
            "Lieferant",
            "Kunden",
            "Muster",
            "Beispiel",
            "Acme",
            "Nordwind",
            "Südhang",
            "Rheinblick",
        )
        for b in ("Handel", "Technik", "Bau", "Logistik", "Service", "Medien")
        for c in ("GmbH", "AG", "KG", "GmbH & Co. KG", "e.K.")
    ]
    days = pd.date_range("2015-01-01", "2025-12-31").strftime("%Y-%m-%d").to_numpy()
    truth: dict[str, Any] = {
        "invoice_number": [f"INV-{i:07d}" for i in rng.integers(0, 10**7, docs)],
        "issue_date": days[rng.integers(0, len(days), docs)],
        "due_date": days[rng.integers(0, len(days), docs)],
        "total": np.round(rng.uniform(-500, 50_000, docs), 2),
        "tax": np.round(rng.uniform(0, 9_000, docs), 2),
        "seller_name": np.array(names, dtype=object)[rng.integers(0, len(names), docs)],
        "buyer_name": np.array(names, dtype=object)[rng.integers(0, len(names), docs)],
        "currency": np.array(["EUR", "USD", "GBP"], dtype=object)[rng.integers(0, 3, docs)],
        "paid": rng.random(docs) < 0.5,
        "quantity": rng.integers(1, 100, docs).astype(float),
    }
    frames = []
    items = np.array([f"doc-{i:07d}" for i in range(docs)], dtype=object)
    for version, p_wrong in (("v1", 0.08), ("v2", 0.06)):
        for field, values in truth.items():
            style = rng.integers(0, 5, docs)
            r = rng.random(docs)
            noise = rng.random(docs)
            if field.endswith("date"):
                pred = [messy_date(v, s) for v, s in zip(values, style, strict=True)]
            elif field in ("total", "tax"):
                pred = [messy_amount(float(v), s) for v, s in zip(values, style, strict=True)]
            elif field.endswith("name"):
                pred = [
                    typo(v, q) if s < 2 else v.upper() if s == 2 else v
                    for v, s, q in zip(values, style, noise, strict=True)
                ]
            elif field == "paid":
                pred = [
                    ["yes", "ja", "true", "1", "x"][s]
                    if v
                    else ["no", "nein", "false", "0", "no"][s]
                    for v, s in zip(values, style, strict=True)
                ]
            elif field == "currency":
                pred = [v.lower() if s < 2 else v for v, s in zip(values, style, strict=True)]
            elif field == "quantity":
                pred = [f"{v:.0f}" if s < 2 else v for v, s in zip(values, style, strict=True)]
            else:
                pred = [
                    v.replace("-", "") if s < 2 else v for v, s in zip(values, style, strict=True)
                ]
            pred_arr = np.array(pred, dtype=object)
            wrong = r < p_wrong
            pred_arr[wrong] = np.roll(pred_arr, 1)[wrong]  # another document's value
            pred_arr[(r >= p_wrong) & (r < p_wrong + 0.02)] = None  # missed
            conf = np.clip(np.where(wrong, rng.beta(4, 3, docs), rng.beta(12, 1.5, docs)), 0, 1)
            frames.append(
                pd.DataFrame(
                    {
                        "item": items,
                        "field": field,
                        "version": version,
                        "expected": np.asarray(values, dtype=object),
                        "predicted": pred_arr,
                        "confidence": conf,
                    }
                )
            )
    return pd.concat(frames, ignore_index=True)


def messy_columns(docs: int, rng: np.random.Generator) -> dict[str, list[Any]]:
    """:func:`messy_dataset` as plain Python lists per column: what both sides read (no
    library is needed to load it, so neither side pays for the other's imports)."""
    frame = messy_dataset(docs, rng)
    return {col: frame[col].tolist() for col in frame.columns}
