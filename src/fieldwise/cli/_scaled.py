"""What ``fieldwise compare --executor`` prints: the figures reduced from merged statistics."""

from __future__ import annotations

from fieldwise.compare._stats import format_p
from fieldwise.evaluate import ScaledScore


def _executor_line(scaled: ScaledScore) -> str:
    result = scaled.result
    where = ""
    if result.executor == "dask":
        where = f" on {scaled.scheduler}" if scaled.scheduler else " on a local cluster"
    plural = "" if result.partitions == 1 else "s"
    return f"executor: {result.executor}{where}, {result.partitions} partition{plural}"


def render_scaled(scaled: ScaledScore) -> str:
    """Field accuracy per field and version, each candidate's flips and McNemar p, the
    overall accuracy with the bootstrap interval of its delta, and which executor ran."""
    result = scaled.result
    versions = (result.baseline, *result.candidates)
    lines = [f"{'field':<28}" + "".join(f"{v[:14]:>16}" for v in versions)]
    accuracy = {
        (str(r["version"]), str(r["field"])): r["field_accuracy"]
        for r in result.fields.to_dict(orient="records")
    }
    for name in sorted({str(f) for f in result.fields["field"]}):
        cells = [accuracy.get((v, name)) for v in versions]
        shown = "".join(f"{'-' if a is None or a != a else f'{100 * a:.2f}%':>16}" for a in cells)
        lines.append(f"{name[:28]:<28}{shown}")
    overall = {str(r["version"]): r for r in result.overall.to_dict(orient="records")}
    shown = "".join(f"{100 * overall[v]['field_accuracy']:>15.2f}%" for v in versions)
    lines.append(f"{'overall':<28}{shown}")
    for row in result.significance.to_dict(orient="records"):
        lines.append(
            f"{row['candidate']} {row['field']}: fixed {row['fixed']}, regressed "
            f"{row['regressed']}, McNemar p {format_p(row['p_value'])}, Holm p "
            f"{format_p(row['p_holm'])}"
        )
    for candidate, boot in sorted(result.bootstraps.items()):
        lines.append(
            f"{candidate} vs {result.baseline}: delta {100 * boot.delta:+.2f} pp, "
            f"{boot.confidence:.0%} Poisson-bootstrap interval {100 * boot.low:+.2f} to "
            f"{100 * boot.high:+.2f} pp over {boot.documents} documents"
        )
    if scaled.failed_runs:
        lines.append(f"{len(scaled.failed_runs)} failed or missing run(s) counted as missed values")
    lines.append(f"cells: {scaled.cells}")
    lines.append(_executor_line(scaled))
    return "\n".join(lines)
