"""Plain-text terminal tables of a comparison (what ``fieldwise compare`` prints).

Every version gets a column of field accuracy (correct / expected); every candidate gets its
comparison with the baseline: the delta of field accuracy, flips, Holm-adjusted McNemar p and,
when not significant, the minimum detectable effect (MDE). With one candidate both sit in one
table; with several, a side-by-side table comes first, then one comparison table per candidate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from fieldwise.compare import ComparisonResult, format_p

__all__ = ["render_table"]


def _pct(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{100 * float(value):.1f}%"


def _lines(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < 2 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def _by_version(result: ComparisonResult) -> dict[str, pd.DataFrame]:
    fields = result.fields
    return {v: fields.loc[fields["version"] == v].set_index("field") for v in result.versions}


def _figure(frame: pd.DataFrame, name: str, column: str = "field_accuracy") -> float:
    return float(frame[column].get(name, math.nan))


def _test_cells(
    result: ComparisonResult,
    candidate: str,
    name: str,
    tables: dict[str, pd.DataFrame],
) -> tuple[float, list[str]]:
    """(delta for sorting, [delta, regressed, fixed, p(holm), MDE, flag]) of one field."""
    sig = result.significance
    row = sig.loc[(sig["candidate"] == candidate) & (sig["field"] == name)]
    s = row.iloc[0] if len(row) else None
    delta = _figure(tables[candidate], name) - _figure(tables[result.baseline], name)
    flag = mde = ""
    if s is not None and bool(s["significant"]):
        flag = "REGRESSED" if s["delta"] < 0 else "improved"
    elif s is not None:
        mde = "-" if pd.isna(s["mde"]) else f"±{100 * float(s['mde']):.1f}"
        flag = "underpowered" if s["warning"] else ""
    cells = [
        "-" if math.isnan(delta) else f"{100 * delta:+.1f}",
        "-" if s is None else str(int(s["regressed"])),
        "-" if s is None else str(int(s["fixed"])),
        "-" if s is None else format_p(s["p_holm"]),
        mde,
        flag,
    ]
    return (0.0 if math.isnan(delta) else delta), cells


def _kind(tables: dict[str, pd.DataFrame], name: str) -> tuple[str, str]:
    row = next(t.loc[name] for t in tables.values() if name in t.index)
    support = max(int(t["support"].get(name, 0)) for t in tables.values())
    return str(row["type"]) + (" *" if row["critical"] else ""), str(support)


def _single(result: ComparisonResult) -> list[str]:
    base = _by_version(result)[result.baseline].sort_index()
    header = ["field", "type", "support", "field acc", "strict acc", "precision", "recall", "f1"]
    header += ["missed", "spurious"]
    rows = [
        [
            str(f),
            str(r["type"]) + (" *" if r["critical"] else ""),
            str(r["support"]),
            _pct(r["field_accuracy"]),
            _pct(r["strict_accuracy"]),
            _pct(r["precision"]),
            _pct(r["recall"]),
            _pct(r["f1"]),
            str(r["missed"]),
            str(r["spurious"]),
        ]
        for f, r in base.iterrows()
    ]
    return _lines(header, rows)


#: One header per cell of :func:`_test_cells`; deltas and MDEs are percentage points (pp).
#: One word each, so every column has a header even when the flag cell is empty.
_TEST_HEADER = ["delta(pp)", "regressed", "fixed", "p(holm)", "MDE(pp)", "flag"]


def _paired(result: ComparisonResult, shown: Mapping[str, str]) -> list[str]:
    """One candidate: versions and the test in one table, regressions first."""
    (candidate,) = result.candidates
    tables = _by_version(result)
    names = sorted(set().union(*(t.index for t in tables.values())))
    keyed = []
    for name in names:
        kind, support = _kind(tables, name)
        delta, cells = _test_cells(result, candidate, name, tables)
        versions = [_pct(_figure(tables[v], name)) for v in result.versions]
        keyed.append((delta, str(name), [str(name), kind, support, *versions, *cells]))
    header = ["field", "type", "support", *(shown[v] for v in result.versions), *_TEST_HEADER]
    return _lines(header, [row for _, _, row in sorted(keyed, key=lambda k: (k[0], k[1]))])


def _many(result: ComparisonResult, shown: Mapping[str, str]) -> list[str]:
    """Several candidates: every version side by side, then one table per candidate."""
    tables = _by_version(result)
    names = sorted(set().union(*(t.index for t in tables.values())))
    rows = [
        [str(n), *_kind(tables, n), *(_pct(_figure(tables[v], n)) for v in result.versions)]
        for n in names
    ]
    out = _lines(["field", "type", "support", *(shown[v] for v in result.versions)], rows)
    for candidate in result.candidates:
        keyed = []
        for name in names:
            delta, cells = _test_cells(result, candidate, name, tables)
            keyed.append((delta, str(name), [str(name), *cells]))
        out += ["", f"{shown[candidate]} vs {shown[result.baseline]}:"]
        out += _lines(
            ["field", *_TEST_HEADER], [r for _, _, r in sorted(keyed, key=lambda k: k[:2])]
        )
    return out


def render_table(result: ComparisonResult, labels: Mapping[str, str] | None = None) -> str:
    """Field accuracy per field and version, each candidate's test against the baseline
    (delta in pp, flips, Holm-adjusted McNemar p, MDE when not significant; regressions
    first), then the overall lines, list-field rows and warnings. ``*`` marks critical fields.
    ``labels`` names versions in the column headers (``published`` rather than its id; the
    overall lines give both) when no two versions share a label. Deterministic. Figures
    reduced from merged statistics (``--executor``) print the same way, without the list rows
    and the threshold that need every cell."""
    given = {v: (labels or {}).get(v, v) for v in result.versions}
    unique = len(set(given.values())) == len(given)
    shown = given if unique else {v: v for v in result.versions}

    def named(version: str) -> str:
        label = shown.get(version, version)
        return version if label == version else f"{label} ({version})"

    if not result.candidates:
        out = _single(result)
    elif len(result.candidates) == 1:
        out = _paired(result, shown)
    else:
        out = _many(result, shown)
    out.append("")
    order = {v: i for i, v in enumerate(result.versions)}

    def in_order(frame: pd.DataFrame) -> pd.DataFrame:
        """Baseline first, then the candidates in the order given."""
        key = frame["version"].map(lambda v: order.get(str(v), len(order)))
        return frame.assign(_order=key).sort_values(["_order", *frame.columns[:1]], kind="stable")

    for _, r in in_order(result.overall).iterrows():
        out.append(
            f"{named(str(r['version']))}: field accuracy {_pct(r['field_accuracy'])} "
            f"[{_pct(r['field_accuracy_low'])}, {_pct(r['field_accuracy_high'])}], "
            f"strict accuracy {_pct(r['strict_accuracy'])}, cell accuracy "
            f"{_pct(r['accuracy'])}, precision {_pct(r['precision'])}, recall "
            f"{_pct(r['recall'])}, F1 {_pct(r['f1'])}, all-fields-correct documents "
            f"{_pct(r['all_fields_correct_rate'])} of {int(r['documents'])}"
        )
    for _, r in in_order(result.lists).iterrows():
        out.append(
            f"{named(str(r['version']))} {r['field']}: row recall {_pct(r['row_recall'])}, "
            f"cardinality error {float(r['cardinality_error']):.2f}, truncation prefix "
            f"{_pct(r['truncation_prefix'])}, {int(r['short_documents'])} document(s) short"
        )
    for candidate in result.candidates:
        b = result.bootstraps.get(candidate)
        if b is not None:
            out.append(
                f"{named(candidate)}: cell accuracy delta {100 * b.delta:+.2f} pp, "
                f"{100 * b.confidence:.0f}% interval [{100 * b.low:+.2f}, {100 * b.high:+.2f}] pp "
                f"({b.n_resamples} document resamples, seed {b.seed})"
            )
    if result.recommended_threshold is not None:
        out.append(f"recommended confidence_threshold: {result.recommended_threshold:.3f}")
    out.extend(f"warning: {w}" for w in result.warnings)
    return "\n".join(out) + "\n"
