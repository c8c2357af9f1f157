"""Trained versions: field accuracy on held-out documents, training time and peak memory.

Usage: python benchmarks/training.py [SET ...] [--seed N] [--show-errors]

SET is ``invoices`` (datasets/invoices, its v2 rules config) or one of the real development
sets ``sroie-dev``, ``zugferd-dev``, ``parsee-invoices-dev`` (documents and truth stay in
``../shared/datasets``; field types and the rules config a user would write are in
``benchmarks/real/<set>/``). Default: sroie-dev and zugferd-dev.

Each set is split 70/30 by content hash: a document is in train when the first 16 hex digits
of the SHA-256 of its file bytes, read as a fraction of 16**16, are below 0.7. A model is
trained on train with the rules config's fields (the rules engine is one of its features and
its fallback), then the trained and the rules version extract the test documents and the
toolkit's own comparison (:func:`fieldwise.compare.compare`, the set's field specs) scores
both: field accuracy = correct / expected, with McNemar's test per field as in the report.
Parsing uses the OCR cache of ``benchmarks/engine_accuracy.py`` (``benchmarks/.cache``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import sys
import time
import tomllib
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_accuracy import REAL_SETS, SHARED, CachedOcr, _accuracy, _rows, _set, _table

from fieldwise.compare import build_frame, compare, parse_field_specs
from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import parse_document
from fieldwise.service.engines.training import (
    TrainingExample,
    TrainParams,
    extract_with_model,
    load_model,
    train_model,
)

TRAIN_SHARE = 0.7


def in_train(data: bytes, share: float = TRAIN_SHARE) -> bool:
    """The content-hash split: the SHA-256's first 16 hex digits as a fraction below share."""
    return int(hashlib.sha256(data).hexdigest()[:16], 16) / 16**16 < share


def measure(name: str, seed: int, show_errors: bool) -> None:
    """Train on the set's train split, score trained vs rules on its test split, print it."""
    root, spec_dir, configs = _set(name)
    config_path = configs["v2"] if name == "invoices" else configs["config"]
    raw_config = json.loads(config_path.read_text(encoding="utf-8"))
    spec = tomllib.loads((spec_dir / "dataset.toml").read_text(encoding="utf-8"))
    specs = parse_field_specs(
        spec.get("fields", {}), date_order=spec.get("dataset", {}).get("date_order", "YMD")
    )
    ocr = CachedOcr()
    rows = _rows(root)
    train, test = [], []
    for row in rows:
        data = (root / row["file"]).read_bytes()
        doc = parse_document(data, ocr_engine=ocr)
        (train if in_train(data) else test).append((row["file"], doc, row["ground_truth"]))
    params = TrainParams.from_mapping(
        {
            "seed": seed,
            "date_order": raw_config.get("date_order", "auto"),
            "lenient_dates": raw_config.get("lenient_dates", True),
        }
    )
    examples = [TrainingExample(doc, truth) for _, doc, truth in train]
    tracemalloc.start()
    start, cpu = time.perf_counter(), time.process_time()
    blob = train_model(examples, raw_config["fields"], params)
    trained_in, cpu = time.perf_counter() - start, time.process_time() - cpu
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    again = train_model(examples, raw_config["fields"], params)
    model = load_model(blob)
    config = validate_config(raw_config)
    truth = {file: t for file, _, t in test}
    predictions: dict[str, dict[str, Any]] = {"rules": {}, "trained": {}}
    start = time.perf_counter()
    for file, doc, _ in test:
        predictions["rules"][file] = extract(doc, config)
        predictions["trained"][file] = extract_with_model(model, doc)
    extracted_in = time.perf_counter() - start
    result = compare(build_frame(truth, predictions), specs, baseline="rules", candidate="trained")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"== {name}: train {len(train)}, test {len(test)} documents (split by content hash)")
    print(
        f"training {trained_in:.1f} s wall ({cpu:.1f} s CPU, one thread), "
        f"peak traced memory {peak / 2**20:.0f} MiB "
        f"(process max RSS {rss:.0f} MiB), model {len(blob) / 1024:.0f} KiB, "
        f"sha256 {hashlib.sha256(blob).hexdigest()[:16]}, "
        f"retrained identical: {again == blob}; extract both on test {extracted_in:.1f} s"
    )
    print("\n".join(_table(result, ["rules", "trained"])))
    significance = result.significance
    for version in ("rules", "trained"):
        good, support = _accuracy(result, version)
        print(f"{name} {version}: field accuracy {good}/{support} = {good / support:.3f}")
    if len(significance):
        cols = [c for c in ("field", "p_value", "p_holm", "significant") if c in significance]
        print(significance[cols].to_string(index=False))
    if show_errors:
        cells = result.cells
        bad = cells.loc[cells["outcome"].isin(["wrong", "missed"])].sort_values(["field", "item"])
        for row in bad.itertuples():
            got, want = row.predicted, row.expected
            print(f"  {row.version} {row.field} {row.item}: {got!r} (truth {want!r})")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="training.py", description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", default=["sroie-dev", "zugferd-dev"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show-errors", action="store_true", help="list wrong and missed values")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.sets) - {"invoices", *REAL_SETS})
    missing = [name for name in args.sets if name in REAL_SETS and not (SHARED / name).is_dir()]
    if unknown or missing:
        parser.error(f"unknown set(s) {unknown} or missing from {SHARED}: {missing}")
    for name in args.sets:
        measure(name, args.seed, args.show_errors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
