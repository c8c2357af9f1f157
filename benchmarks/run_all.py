"""Run every benchmark and print the table of issue 21: each row with today's figure, the
alternative, the ratio, the goal and whether it is met, with the machine's load average
before and after (the machine is shared; a loaded run reads slower on both sides).

Each script runs as its own process with ``--json`` and prints one JSON object per line per
row: ``{"row", "fieldwise", "alternative", "unit", "ratio", "goal", "met", "exponent",
"peak_rss_mb"}`` (other keys are kept but not shown). A script that fails, a row of the table
that no script produced, or a row whose exponent shows growth worse than linear (above 1.05)
is printed as not met.

Run: .venv/bin/python benchmarks/run_all.py [--quick] [--only NAME ...] [--timeout SECONDS]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

# script -> (the table rows it must produce, by prefix; whether it takes --quick)
SCRIPTS: dict[str, tuple[tuple[str, ...], bool]] = {
    "compare.py": (("B1a", "B1b"), True),
    "run.py": (("B2",), False),
    "parse.py": (("B3 parse in-process", "B3 parse over HTTP"), False),
    "sync.py": (("B4",), False),
    "cli_help.py": (("fieldwise --help",), True),
}
HEADERS = ("row", "fieldwise", "alternative", "ratio", "goal", "met", "exponent", "peak RSS")


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min; {os.cpu_count()} cores)"


def run_script(
    name: str, quick: bool, timeout: float
) -> tuple[list[dict[str, Any]], str | None, float]:
    """The rows ``name`` printed, its error (None when it succeeded) and its wall time."""
    _, takes_quick = SCRIPTS[name]
    argv = [
        sys.executable,
        str(HERE / name),
        "--json",
        *(["--quick"] if quick and takes_quick else []),
    ]
    start = time.perf_counter()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return [], f"timed out after {timeout:.0f} s", time.perf_counter() - start
    elapsed = time.perf_counter() - start
    rows, junk = [], []
    for line in proc.stdout.splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            junk.append(line)
            continue
        if isinstance(row, dict) and "row" in row:
            rows.append(row)
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or junk or ["no output"])[-1]
        return rows, f"exit {proc.returncode}: {tail[:160]}", elapsed
    if not rows:
        return rows, "printed no JSON row (does it take --json?)", elapsed
    return rows, None, elapsed


def _number(value: Any, unit: str = "") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    text = f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"
    return f"{text} {unit}".strip()


# growth worse than linear fails a row whatever its ratio (issue 21: none may be worse than
# linear); a little slack for timing noise between sizes
LINEAR = 1.05


def _verdict(row: dict[str, Any]) -> str:
    growth = row.get("exponent")
    if isinstance(growth, int | float) and growth > LINEAR:
        return f"NOT met (grows as n^{growth:.2f})"
    return "met" if row.get("met") is True else "NOT met"


def table_rows(
    results: dict[str, tuple[list[dict[str, Any]], str | None, float]],
) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for name, (rows, error, _) in results.items():
        expected, _ = SCRIPTS[name]
        for row in rows:
            unit = str(row.get("unit", ""))
            ratio = row.get("ratio")
            out.append(
                (
                    str(row["row"]),
                    _number(row.get("fieldwise"), unit),
                    _number(row.get("alternative"), unit)
                    + (f" ({row['alternative_name']})" if row.get("alternative_name") else ""),
                    "-" if ratio is None else f"{_number(ratio)}x",
                    str(row.get("goal", "-")),
                    _verdict(row),
                    _number(row.get("exponent")),
                    _number(row.get("peak_rss_mb"), "MB"),
                )
            )
        for prefix in expected:
            if not any(str(r["row"]).startswith(prefix) for r in rows):
                why = error or "the script printed no such row"
                out.append((prefix, "-", "-", "-", "-", f"NOT met ({name}: {why})", "-", "-"))
    return out


def render(lines: list[tuple[str, ...]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in lines)) for i, h in enumerate(HEADERS)]
    fmt = " | ".join(f"{{:<{w}}}" for w in widths)
    rule = "-+-".join("-" * w for w in widths)
    return "\n".join([fmt.format(*HEADERS), rule, *(fmt.format(*r) for r in lines)])


def beside_lines(
    results: dict[str, tuple[list[dict[str, Any]], str | None, float]],
) -> list[str]:
    """The reference figures rows carry beside them (``beside``: label, figure, ratio against
    the row's alternative), one line each under the row's name: what bounds a row that its
    alternative alone does not show."""
    out: list[str] = []
    for rows, _, _ in results.values():
        for row in rows:
            entries = row.get("beside") or []
            if not entries:
                continue
            unit = str(row.get("unit", ""))
            out.append(f"{row['row']}, beside it (against the alternative; fieldwise against it):")
            ours = row.get("fieldwise")
            for entry in entries:
                figure = entry["figure"]
                versus = (
                    f"; fieldwise {_number(ours / figure)}x"
                    if isinstance(ours, int | float) and figure
                    else ""
                )
                out.append(
                    f"  {entry['label']}: {_number(figure, unit)}, "
                    f"{_number(entry['ratio'])}x{versus}"
                )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="smaller sizes where a script has them"
    )
    parser.add_argument("--only", nargs="+", choices=sorted(SCRIPTS), help="these scripts only")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds per script")
    args = parser.parse_args()
    names = args.only or list(SCRIPTS)
    print(f"load average before: {_load()}", flush=True)
    results = {}
    for name in names:
        results[name] = run_script(name, args.quick, args.timeout)
        rows, error, elapsed = results[name]
        state = "ok" if error is None else error
        print(f"  {name}: {len(rows)} row(s) in {elapsed:.0f} s, {state}", flush=True)
    print(f"load average after:  {_load()}\n", flush=True)
    lines = table_rows(results)
    print(render(lines))
    notes = beside_lines(results)
    if notes:
        print("\n" + "\n".join(notes))
    unmet = sum(1 for line in lines if line[5] != "met")  # superlinear growth counts as unmet
    print(f"\n{len(lines) - unmet} of {len(lines)} rows meet their goal.")
    return 0 if unmet == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
