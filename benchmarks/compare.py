"""Benchmark fieldwise.compare against what a user would otherwise pick.

B1a  wide frames, documents x 20 fields (exact strings, numbers within 0.01): the public
     ``fieldwise.compare(truth, {"pred": predictions}, fields)`` against
     ``datacompy.PandasCompare(truth, predictions, join_columns="document", abs_tol=0.01)`` on the
     same two DataFrames, at 5k, 50k and 500k documents. Goal: <= 1.0x datacompy at every size.
     Every table of the result is computed in the call; the cells' values (a million Python
     objects at 50k documents) are laid out when ``result.cells`` is first read, so the
     in-process rows also give the time with the cells read (``fieldwise_reading_cells``).
B1b  the typed pipeline on 1,000,000 messy comparisons (50k documents x 10 fields x 2 versions):
     scoring, flips, McNemar + Holm and a 1,000-resample bootstrap, against the same pipeline
     row by row in plain Python. Goal: >= 10x faster as a whole process, <= 1 GB peak RSS.
     The whole-process figures take ``--repeats`` interleaved runs per side at every size
     (in-process ones half as many at 50k documents, where a row-by-row run takes ~20 s);
     both sides run the same number of times on the same input.

Every figure is measured twice: **in-process** (the call alone, in a process that already
imported everything and holds the input) and **whole process** (a fresh interpreter that
imports, reads the same input file and does the same work: what a user pays). Sides take turns
(interleaved repeats); each figure is median (min, max); ratios are of medians. Each row also
gives the growth exponent at 10x and 100x the size (1.0 = linear) and the peak RSS of the
whole-process run. Both sides must agree on the result, or the benchmark fails.

Run: .venv/bin/python benchmarks/compare.py [--json] [--quick] [--only b1a|b1b] [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import (
    Figure,
    cold_run,
    emit,
    exponent,
    interleaved,
    own_peak_rss_mb,
    timed,
)

B1A_GOAL, B1B_GOAL, B1B_RSS_GOAL = 1.0, 10.0, 1024.0


# ----------------------------------------------------------------------------- child processes
# A whole-process run is this script started with --child SIDE --data PATH: it imports only
# what its side needs, reads the input, works, and prints a small JSON check of its result.


def _child(side: str, data: Path) -> dict[str, Any]:
    if side == "b1a-fieldwise":
        import pandas as pd
        from _fields import WIDE_FIELDS

        import fieldwise

        truth, pred = (
            pd.read_parquet(data / "truth.parquet"),
            pd.read_parquet(data / "pred.parquet"),
        )
        return _b1a_fieldwise_check(fieldwise.compare(truth, {"pred": pred}, WIDE_FIELDS))
    if side == "b1a-datacompy":
        import datacompy
        import pandas as pd

        truth, pred = (
            pd.read_parquet(data / "truth.parquet"),
            pd.read_parquet(data / "pred.parquet"),
        )
        return _b1a_datacompy_check(
            datacompy.PandasCompare(truth, pred, join_columns="document", abs_tol=0.01)
        )
    with (data / "messy.pickle").open("rb") as handle:
        columns = pickle.load(handle)
    if side == "b1b-fieldwise":
        return _b1b_fieldwise(columns)
    if side == "b1b-naive":
        from _row_by_row import row_by_row

        return _naive_check(row_by_row(columns, "v1", "v2", n_bootstrap=1000))
    raise SystemExit(f"unknown side {side!r}")


def _b1a_fieldwise_check(result: Any) -> dict[str, Any]:
    return {"mismatching": int(result.fields["wrong"].sum())}


def _b1a_datacompy_check(dc: Any) -> dict[str, Any]:
    return {"mismatching": sum(int(s["unequal_cnt"]) for s in dc.column_stats)}


def _b1b_fieldwise(columns: dict[str, list[Any]]) -> dict[str, Any]:
    from _fields import FIELDS

    from fieldwise.compare import compare, parse_field_specs

    specs = parse_field_specs(FIELDS, date_order="DMY")
    # the plain columns as read (compare builds its frame of them, as pd.DataFrame would)
    result = compare(columns, specs, baseline="v1", candidate="v2", seed=0, n_bootstrap=1000)
    ok = result.cells["outcome"].isin(["correct", "both_empty"])
    per_version = ok.groupby(result.cells["version"], observed=True).sum()
    assert result.bootstrap is not None
    return {
        "ok": {str(k): int(v) for k, v in per_version.items()},
        "significant": int(result.significance["significant"].sum()),
        "interval": [result.bootstrap.low, result.bootstrap.high],
    }


def _naive_check(out: dict[str, Any]) -> dict[str, Any]:
    return {"ok": out["ok"], "significant": out["significant"], "interval": list(out["interval"])}


def _cold(side: str, data: Path) -> Callable[[], tuple[float, float]]:
    """A side for ``interleaved``: one whole process; checks its answer against the others'."""
    answers: list[dict[str, Any]] = []

    def run() -> tuple[float, float]:
        seconds, rss, out = cold_run(
            [sys.executable, __file__, "--child", side, "--data", str(data)]
        )
        answer = json.loads(out.strip().splitlines()[-1])
        answers.append(answer)
        # the child's own VmHWM: ru_maxrss would include this (big) parent's pages
        return seconds, float(answer.pop("peak_rss_mb", rss))

    run.answers = answers  # type: ignore[attr-defined]
    return run


def _same(check: str, *answers: dict[str, Any], keys: tuple[str, ...]) -> None:
    for key in keys:
        seen = {json.dumps(a[key], sort_keys=True) for a in answers}
        if len(seen) != 1:
            raise SystemExit(f"{check}: the sides disagree on {key}: {sorted(seen)}")


def _common(fw: Figure, alt: Figure, growth: dict[str, float]) -> dict[str, Any]:
    """The JSON keys every row shares: growth (the row's exponent is fieldwise's worst),
    peak RSS of both sides and the spread of both."""
    mine = [v for k, v in growth.items() if k.startswith("fieldwise")]
    return {
        "exponent": round(max(mine), 3) if mine else None,
        "peak_rss_mb": None if math.isnan(fw.peak_rss_mb) else round(fw.peak_rss_mb),
        "alternative_peak_rss_mb": None if math.isnan(alt.peak_rss_mb) else round(alt.peak_rss_mb),
        "fieldwise_min_max": [round(min(fw.times), 4), round(max(fw.times), 4)],
        "alternative_min_max": [round(min(alt.times), 4), round(max(alt.times), 4)],
        **{k: round(v, 3) for k, v in growth.items()},
    }


def _rss_text(fw: Figure, alt: Figure) -> str:
    if math.isnan(fw.peak_rss_mb):
        return ""
    return f"; peak RSS {fw.peak_rss_mb:.0f} MB vs {alt.peak_rss_mb:.0f} MB"


# ---------------------------------------------------------------------------------------- B1a
def bench_b1a(sizes: tuple[int, ...], repeats: int, tmp: Path, as_json: bool) -> None:
    import datacompy
    import numpy as np
    import pandas as pd
    from _compare_data import wide_frames
    from _fields import WIDE_FIELDS

    import fieldwise

    inproc: dict[int, dict[str, Figure]] = {}
    cold: dict[int, dict[str, Figure]] = {}
    for docs in sizes:
        truth, pred = wide_frames(docs, np.random.default_rng(12345))
        data = tmp / f"b1a-{docs}"
        data.mkdir()
        truth.to_parquet(data / "truth.parquet")
        pred.to_parquet(data / "pred.parquet")
        # what the child reads, so the in-process side starts from the same dtypes
        truth, pred = (
            pd.read_parquet(data / "truth.parquet"),
            pd.read_parquet(data / "pred.parquet"),
        )
        checks: dict[str, list[dict[str, Any]]] = {"fieldwise": [], "datacompy": []}

        def fw(truth: Any = truth, pred: Any = pred, out: Any = checks["fieldwise"]) -> None:
            out.append(_b1a_fieldwise_check(fieldwise.compare(truth, {"pred": pred}, WIDE_FIELDS)))

        def dc(truth: Any = truth, pred: Any = pred, out: Any = checks["datacompy"]) -> None:
            out.append(
                _b1a_datacompy_check(
                    datacompy.PandasCompare(truth, pred, join_columns="document", abs_tol=0.01)
                )
            )

        def fw_cells(truth: Any = truth, pred: Any = pred) -> None:
            # the result's cells hold their values only once read (every table is computed
            # without them): this side reads them too, to show what that costs
            len(fieldwise.compare(truth, {"pred": pred}, WIDE_FIELDS).cells)

        fw()  # first calls pay one-time imports (datacompy's own); cold runs show those
        dc()
        n = repeats if docs < 500_000 else max(2, repeats // 2)
        inproc[docs] = interleaved(
            {"fieldwise": timed(fw), "datacompy": timed(dc), "fieldwise+cells": timed(fw_cells)},
            n,
        )
        sides = {
            "fieldwise": _cold("b1a-fieldwise", data),
            "datacompy": _cold("b1a-datacompy", data),
        }
        cold[docs] = interleaved(sides, n)
        _same(
            f"B1a {docs}",
            *checks["fieldwise"],
            *checks["datacompy"],
            *sides["fieldwise"].answers,  # type: ignore[attr-defined]
            *sides["datacompy"].answers,  # type: ignore[attr-defined]
            keys=("mismatching",),
        )
        del truth, pred
    for label, figures in (("in-process", inproc), ("whole process", cold)):
        for docs in sizes:
            _b1a_row(label, docs, sizes, figures, as_json)


def _b1a_row(
    label: str,
    docs: int,
    sizes: tuple[int, ...],
    figures: dict[int, dict[str, Figure]],
    as_json: bool,
) -> None:
    fw, dc = figures[docs]["fieldwise"], figures[docs]["datacompy"]
    ratio = fw.median / dc.median
    small = sizes[0]
    growth = {
        f"{side}_exponent_{sizes[i] // small}x": exponent(
            (small, sizes[i]), (figures[small][side].median, figures[sizes[i]][side].median)
        )
        for side in ("fieldwise", "datacompy")
        for i in range(1, len(sizes))
    }
    row = {
        "row": f"B1a compare {docs:,} docs x 20 fields, {label}",
        "fieldwise": round(fw.median, 4),
        "alternative": round(dc.median, 4),
        "alternative_name": "datacompy",
        "unit": "s",
        "ratio": round(ratio, 3),
        "goal": f"<= {B1A_GOAL}x",
        "met": ratio <= B1A_GOAL,
        **_common(fw, dc, growth),
    }
    rss = _rss_text(fw, dc)
    with_cells = figures[docs].get("fieldwise+cells")
    if with_cells is not None:  # informative: the goal is on the call itself
        row["fieldwise_reading_cells"] = round(with_cells.median, 4)
        rss += f"; reading result.cells too: {with_cells.median:.3f}s"
    grow = ", ".join(
        f"{k.replace('_exponent_', ' exponent at ')} {v:.2f}" for k, v in growth.items()
    )
    emit(
        row,
        f"B1a {docs:>7,} docs x 20, {label:<13}: fieldwise {fw.spread()} vs datacompy "
        f"{dc.spread()}: {ratio:.2f}x (goal <= {B1A_GOAL}x: "
        f"{'met' if ratio <= B1A_GOAL else 'NOT met'}){rss}; {grow}",
        as_json=as_json,
    )


# ---------------------------------------------------------------------------------------- B1b
def bench_b1b(sizes: tuple[int, ...], repeats: int, tmp: Path, as_json: bool) -> None:
    import numpy as np
    from _compare_data import messy_columns
    from _row_by_row import row_by_row

    inproc: dict[int, dict[str, Figure]] = {}
    cold: dict[int, dict[str, Figure]] = {}
    cells: dict[int, int] = {}
    for docs in sizes:
        columns = messy_columns(docs, np.random.default_rng(12345))
        cells[docs] = len(columns["item"])
        data = tmp / f"b1b-{docs}"
        data.mkdir()
        with (data / "messy.pickle").open("wb") as handle:
            pickle.dump(columns, handle, protocol=pickle.HIGHEST_PROTOCOL)
        checks: dict[str, list[dict[str, Any]]] = {"fieldwise": [], "naive": []}

        def fw(columns: Any = columns, out: Any = checks["fieldwise"]) -> None:
            out.append(_b1b_fieldwise(columns))

        def naive(columns: Any = columns, out: Any = checks["naive"]) -> None:
            out.append(_naive_check(row_by_row(columns, "v1", "v2", n_bootstrap=1000)))

        fw()
        n = repeats if docs < 50_000 else max(2, repeats // 2)
        inproc[docs] = interleaved({"fieldwise": timed(fw), "naive": timed(naive)}, n)
        sides = {"fieldwise": _cold("b1b-fieldwise", data), "naive": _cold("b1b-naive", data)}
        # every repeat at every size for the whole-process row (the goal's row): a median of
        # two runs moved the ratio by 0.8x between runs of the same code
        cold[docs] = interleaved(sides, repeats)
        _same(
            f"B1b {docs}",
            *checks["fieldwise"],
            *checks["naive"],
            *sides["fieldwise"].answers,  # type: ignore[attr-defined]
            *sides["naive"].answers,  # type: ignore[attr-defined]
            keys=("ok", "significant"),
        )
        del columns
    for label, figures in (("in-process", inproc), ("whole process", cold)):
        docs = sizes[-1]
        fw, nv = figures[docs]["fieldwise"], figures[docs]["naive"]
        speedup = nv.median / fw.median
        growth = {
            f"{side}_exponent_{sizes[-1] // sizes[i]}x": exponent(
                (sizes[i], docs), (figures[sizes[i]][side].median, figures[docs][side].median)
            )
            for side in ("fieldwise", "naive")
            for i in range(len(sizes) - 1)
        }
        rss_ok = math.isnan(fw.peak_rss_mb) or fw.peak_rss_mb <= B1B_RSS_GOAL
        met = speedup >= B1B_GOAL and rss_ok
        row = {
            "row": f"B1b typed compare {cells[docs]:,} comparisons, {label}",
            "fieldwise": round(fw.median, 4),
            "alternative": round(nv.median, 4),
            "alternative_name": "row-by-row Python",
            "unit": "s",
            "ratio": round(speedup, 3),
            "ratio_means": "times faster",
            "goal": f">= {B1B_GOAL}x faster, <= {B1B_RSS_GOAL:.0f} MB",
            "met": met,
            **_common(fw, nv, growth),
        }
        rss = _rss_text(fw, nv)
        grow = ", ".join(
            f"{k.replace('_exponent_', ' exponent from 1/')} the size {v:.2f}"
            for k, v in growth.items()
        )
        emit(
            row,
            f"B1b {cells[docs]:,} comparisons, {label:<13}: fieldwise {fw.spread()} vs row-by-row "
            f"Python {nv.spread()}: {speedup:.1f}x faster (goal >= {B1B_GOAL:.0f}x, <= 1 GB: "
            f"{'met' if met else 'NOT met'}){rss}; {grow}",
            as_json=as_json,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes (a smoke run)")
    parser.add_argument("--only", choices=("b1a", "b1b"), help="one benchmark")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repeats per side")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        answer = _child(args.child, args.data)
        print(json.dumps({**answer, "peak_rss_mb": own_peak_rss_mb()}))
        return
    scale = 10 if args.quick else 1
    with tempfile.TemporaryDirectory(prefix="fieldwise-bench-") as tmp:
        if args.only in (None, "b1a"):
            sizes = tuple(n // scale for n in (5_000, 50_000, 500_000))
            bench_b1a(sizes, args.repeats, Path(tmp), args.json)
        if args.only in (None, "b1b"):
            sizes = tuple(n // scale for n in (500, 5_000, 50_000))
            bench_b1b(sizes, args.repeats, Path(tmp), args.json)


if __name__ == "__main__":
    main()
