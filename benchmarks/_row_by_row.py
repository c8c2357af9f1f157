"""The typed pipeline of benchmarks/compare.py (B1b) written without fieldwise: plain Python,
row by row. It imports only the standard library, rapidfuzz and fieldwise's scalar normalizers
(loaded by file path, so that the whole-process figure does not pay for pandas, which this side
never uses): what one writes to score two versions, count flips, test them and bootstrap.
"""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _fields import FIELDS
from rapidfuzz import fuzz

__all__ = ["FIELDS", "row_by_row"]


def _normalizers() -> Any:
    path = Path(__file__).resolve().parents[1] / "src/fieldwise/compare/score/_normalize.py"
    spec = importlib.util.spec_from_file_location("_fieldwise_normalize", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


_n = _normalizers()
is_empty, normalize_text, parse_bool = _n.is_empty, _n.normalize_text, _n.parse_bool
parse_currency, parse_date, parse_number = _n.parse_currency, _n.parse_date, _n.parse_number


def _ok(spec: dict[str, Any], e: Any, p: Any) -> bool:
    """One cell, row by row: is it correct or rightly empty?"""
    if is_empty(e) or is_empty(p):
        return is_empty(e) and is_empty(p)
    if spec["type"] == "date":
        return parse_date(e, date_order="DMY") == parse_date(p, date_order="DMY")
    if spec["type"] in ("currency", "number"):
        a = parse_currency(e)[0] if spec["type"] == "currency" else parse_number(e)
        b = parse_currency(p)[0] if spec["type"] == "currency" else parse_number(p)
        if isinstance(a, float) and isinstance(b, float):
            return abs(a - b) <= spec["atol"] + 1e-12 * abs(a)
        return a == b
    if spec["type"] == "text":
        similarity = fuzz.ratio(normalize_text(e) or "", normalize_text(p) or "") / 100
        return similarity >= spec["threshold"] - 1e-12
    if spec["type"] == "boolean":
        return parse_bool(e) == parse_bool(p)
    if spec["type"] == "enum":
        return normalize_text(e) == normalize_text(p)
    fold = spec.get("ignore_punctuation", False)
    return normalize_text(e, ignore_punctuation=fold) == normalize_text(p, ignore_punctuation=fold)


def _mcnemar(regressed: int, fixed: int) -> float:
    """Exact two-sided McNemar p from the binomial sums, in integers."""
    n = regressed + fixed
    if n == 0 or regressed == fixed:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(regressed, fixed) + 1))
    return min(1.0, 2 * tail / 2**n)


def _holm(p_values: Sequence[float]) -> list[float]:
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    out, running = [0.0] * len(p_values), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        out[i] = running
    return out


def row_by_row(
    columns: dict[str, list[Any]], baseline: str, candidate: str, n_bootstrap: int, seed: int = 0
) -> dict[str, Any]:
    """The typed pipeline without fieldwise: score every row in Python, count flips per field,
    exact McNemar with Holm, and a percentile bootstrap of the accuracy delta over documents."""
    ok: dict[tuple[str, str, str], bool] = {}
    for field, version, item, e, p in zip(
        columns["field"],
        columns["version"],
        columns["item"],
        columns["expected"],
        columns["predicted"],
        strict=True,
    ):
        ok[(version, field, item)] = _ok(FIELDS[field], e, p)
    per_version = dict.fromkeys((baseline, candidate), 0)
    for (version, _, _), good in ok.items():
        per_version[version] += good
    flips: dict[str, list[int]] = {}
    docs: dict[str, list[int]] = {}
    for (version, field, item), good in ok.items():
        row = docs.setdefault(item, [0, 0, 0, 0])
        side = 0 if version == baseline else 2
        row[side] += good
        row[side + 1] += 1
        if version != baseline:
            continue
        c = ok.get((candidate, field, item), True)
        counts = flips.setdefault(field, [0, 0])
        counts[0] += good and not c
        counts[1] += c and not good
    fields = sorted(flips)
    p_holm = _holm([_mcnemar(*flips[f]) for f in fields])
    ob, wb, oc, wc = (list(col) for col in zip(*docs.values(), strict=True))
    rng, population = random.Random(seed), range(len(ob))
    deltas = []
    for _ in range(n_bootstrap):  # resample documents with replacement
        idx = rng.choices(population, k=len(ob))
        s_ob, s_wb, s_oc, s_wc = (sum(map(col.__getitem__, idx)) for col in (ob, wb, oc, wc))
        deltas.append(s_oc / s_wc - s_ob / s_wb)
    deltas.sort()
    return {
        "ok": per_version,
        "significant": sum(p < 0.05 for p in p_holm),
        "interval": (deltas[int(0.025 * n_bootstrap)], deltas[int(0.975 * n_bootstrap) - 1]),
    }
