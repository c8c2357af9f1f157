"""Plain-text terminal table of per-field metrics (what ``fieldwise compare`` prints)."""

from __future__ import annotations

import math
from typing import Any

from fieldwise.compare.result import ComparisonResult

__all__ = ["render_table"]


def _pct(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{100 * float(value):.1f}%"


def _row_cells(result: ComparisonResult) -> tuple[list[str], list[list[str]]]:
    fields = result.fields
    base = fields.loc[fields["version"] == result.baseline].set_index("field")
    if result.candidate is None:
        header = [
            "field",
            "type",
            "support",
            "accuracy",
            "precision",
            "recall",
            "f1",
            "missed",
            "spurious",
        ]
        rows = [
            [
                str(f),
                str(r["type"]) + (" *" if r["critical"] else ""),
                str(r["support"]),
                _pct(r["accuracy"]),
                _pct(r["precision"]),
                _pct(r["recall"]),
                _pct(r["f1"]),
                str(r["missed"]),
                str(r["spurious"]),
            ]
            for f, r in base.sort_index().iterrows()
        ]
        return header, rows
    cand = fields.loc[fields["version"] == result.candidate].set_index("field")
    sig = result.significance.set_index("field")
    header = [
        "field",
        "type",
        "support",
        result.baseline,
        result.candidate,
        "delta",
        "regressed",
        "fixed",
        "p(holm)",
        "",
    ]
    names = sorted(set(base.index) | set(cand.index))
    keyed = []
    for name in names:
        b = float(base.loc[name, "accuracy"]) if name in base.index else math.nan
        c = float(cand.loc[name, "accuracy"]) if name in cand.index else math.nan
        spec_row = cand.loc[name] if name in cand.index else base.loc[name]
        s = sig.loc[name] if name in sig.index else None
        delta = c - b
        flag = ""
        if s is not None and bool(s["significant"]):
            flag = "REGRESSED" if delta < 0 else "improved"
        elif s is not None and s["warning"]:
            flag = "underpowered"
        keyed.append(
            (
                delta if not math.isnan(delta) else 0.0,
                str(name),
                [
                    str(name),
                    str(spec_row["type"]) + (" *" if spec_row["critical"] else ""),
                    str(int(spec_row["support"])),
                    _pct(b),
                    _pct(c),
                    "-" if math.isnan(delta) else f"{100 * delta:+.1f}",
                    "-" if s is None else str(int(s["regressed"])),
                    "-" if s is None else str(int(s["fixed"])),
                    "-" if s is None else f"{float(s['p_holm']):.3g}",
                    flag,
                ],
            )
        )
    # regressions first, then by name
    return header, [row for _, _, row in sorted(keyed, key=lambda k: (k[0], k[1]))]


def render_table(result: ComparisonResult) -> str:
    """Per-field metrics as an aligned plain-text table, then the overall lines and warnings.

    With a candidate: accuracy of both versions, the delta in points, flip counts and the
    Holm-adjusted McNemar p, regressions first. ``*`` marks critical fields. Deterministic.
    """
    header, rows = _row_cells(result)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < 2 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows), ""]
    for _, r in result.overall.iterrows():
        out.append(
            f"{r['version']}: accuracy {_pct(r['accuracy'])}, precision "
            f"{_pct(r['precision'])}, recall {_pct(r['recall'])}, F1 {_pct(r['f1'])}, "
            f"all-fields-correct documents {_pct(r['all_fields_correct_rate'])} "
            f"of {int(r['documents'])}"
        )
    if result.bootstrap is not None:
        b = result.bootstrap
        out.append(
            f"delta {100 * b.delta:+.2f} points, {100 * b.confidence:.0f}% interval "
            f"[{100 * b.low:+.2f}, {100 * b.high:+.2f}] ({b.n_resamples} document "
            f"resamples, seed {b.seed})"
        )
    if result.recommended_threshold is not None:
        out.append(f"recommended confidence_threshold: {result.recommended_threshold:.3f}")
    out.extend(f"warning: {w}" for w in result.warnings)
    return "\n".join(out) + "\n"
