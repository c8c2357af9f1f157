"""Per-field accuracy of two processor version configs on a dataset, and confidence calibration.

Usage: python benchmarks/engine_accuracy.py [datasets/invoices] [--show-errors]
       [--config LABEL=PATH ...] [--cache parsed.pickle]   (see --help)

Parses every document once (OCR for scans), runs processor/v1.json and processor/v2.json (and
any ``--config``) with the local rules engine, and prints per-field accuracy (correct /
documents whose truth has the field), then, over all predicted values, the accuracy of those
with confidence >= 0.9 and < 0.5.
A compact stand-in for the compare package, so the engine can be tuned without the service.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import ParsedDocument, parse_document

TEXT_FIELDS = {"vendor_name", "customer_name"}


def _same(field: str, got: Any, want: Any) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return got == want
    if isinstance(want, int | float):
        return isinstance(got, int | float) and abs(got - want) <= 0.005
    if field == "line_items":
        if not isinstance(got, list) or len(got) != len(want):
            return False
        return all(
            set(g) >= set(w) and all(_same(k if k == "description" else "", g[k], w[k]) for k in w)
            for g, w in zip(got, want, strict=True)
        )
    if not isinstance(got, str):
        return False
    a, b = " ".join(got.split()).lower(), " ".join(str(want).split()).lower()
    if field in TEXT_FIELDS or field == "description":
        return fuzz.ratio(a, b) >= 90
    return a == b


def evaluate(
    docs: list[tuple[ParsedDocument, dict[str, Any]]], config: dict[str, Any]
) -> tuple[dict[str, tuple[int, int]], list[tuple[float, bool]], dict[str, list[str]]]:
    cfg = validate_config(config)
    per_field: dict[str, tuple[int, int]] = {}
    scored: list[tuple[float, bool]] = []
    errors: dict[str, list[str]] = {}
    for index, (doc, truth) in enumerate(docs):
        out = extract(doc, cfg)
        for field, want in truth.items():
            got = out["value"].get(field)
            ok = got is not None and _same(field, got, want)
            good, total = per_field.get(field, (0, 0))
            per_field[field] = (good + ok, total + 1)
            if got is not None:
                scored.append((out["metadata"][field]["confidence"], ok))
            if not ok:
                errors.setdefault(field, []).append(f"#{index + 1}: got {got!r} want {want!r}")
        for field in out["value"]:
            if field not in truth:  # spurious: a value where none was expected
                scored.append((out["metadata"][field]["confidence"], False))
    return per_field, scored, errors


def _bucket(scored: list[tuple[float, bool]], test: Any) -> str:
    chosen = [ok for conf, ok in scored if test(conf)]
    if not chosen:
        return "n=0"
    return f"{sum(chosen) / len(chosen):.3f} (n={len(chosen)})"


def _parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="engine_accuracy.py",
        description="Per-field accuracy of processor version configs on a dataset, "
        "and accuracy by confidence bucket.",
    )
    parser.add_argument("dataset", nargs="?", default="datasets/invoices", type=Path)
    parser.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="LABEL=PATH",
        help="an extra version config to score (repeatable), e.g. old-v2=/tmp/v2.json",
    )
    parser.add_argument("--show-errors", action="store_true", help="list wrong values")
    parser.add_argument(
        "--cache",
        type=Path,
        help="pickle of the parsed documents: written when missing, read when present "
        "(skips the ~1 min of OCR on re-runs; delete it when the documents change)",
    )
    return parser.parse_args(argv)


def _load(root: Path, cache: Path | None) -> list[tuple[ParsedDocument, dict[str, Any]]]:
    rows = [json.loads(x) for x in (root / "ground_truth.jsonl").read_text().splitlines() if x]
    if cache is not None and cache.exists():
        docs: list[tuple[ParsedDocument, dict[str, Any]]] = pickle.loads(cache.read_bytes())
        print(f"read {len(docs)} parsed documents from {cache}")
        return docs
    start = time.perf_counter()
    docs = [(parse_document((root / r["file"]).read_bytes()), r["ground_truth"]) for r in rows]
    print(f"parsed {len(docs)} documents in {time.perf_counter() - start:.1f} s")
    if cache is not None:
        cache.write_bytes(pickle.dumps(docs))
    return docs


def main(argv: list[str]) -> int:
    args = _parse_args(argv)
    root: Path = args.dataset
    docs = _load(root, args.cache)
    configs = {v: root / "processor" / f"{v}.json" for v in ("v1", "v2")}
    for item in args.config:
        label, _, path = item.partition("=")
        configs[label] = Path(path)
    results = {}
    for version, path in configs.items():
        results[version] = evaluate(docs, json.loads(path.read_text()))
    fields = sorted(results["v1"][0])
    print(f"{'field':<16}" + "".join(f"{v:>10}" for v in configs))
    for field in fields:
        cells = []
        for version in configs:
            good, total = results[version][0].get(field, (0, 0))
            cells.append(f"{good}/{total}")
        print(f"{field:<16}" + "".join(f"{c:>10}" for c in cells))
    for version in configs:
        per_field, scored, errors = results[version]
        good = sum(g for g, _ in per_field.values())
        total = sum(t for _, t in per_field.values())
        print(
            f"{version}: accuracy {good / total:.3f}; "
            f"conf>=0.9 acc {_bucket(scored, lambda c: c >= 0.9)}; "
            f"0.5<=conf<0.9 acc {_bucket(scored, lambda c: 0.5 <= c < 0.9)}; "
            f"conf<0.5 acc {_bucket(scored, lambda c: c < 0.5)}"
        )
        if args.show_errors:
            for field, items in sorted(errors.items()):
                for item in items[:6]:
                    print(f"  {version} {field}: {item}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
