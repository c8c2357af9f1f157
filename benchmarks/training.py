"""Trained versions: field accuracy on held-out documents, training time and peak memory.

Usage: python benchmarks/training.py [SET ...] [--seed N] [--show-errors]
                                     [--cv K] [--grid KEY=V1,V2 ...]

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

With ``--cv K`` the params are chosen on the train split only: every combination of the
``--grid`` values (default :data:`DEFAULT_GRID`) is scored by K-fold cross-validation over the
train documents (each document is its own group: fold = its position in the train list mod K;
field accuracy of the held-out folds, the same comparison), the best one (ties: the earlier
combination, the defaults first) is trained on all of train, and test is measured once.
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
from collections.abc import Sequence
from itertools import product
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_accuracy import REAL_SETS, SHARED, CachedOcr, _accuracy, _rows, _set, _table

from fieldwise.compare import FieldSpec, build_frame, compare, mcnemar_exact, parse_field_specs
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
#: what --cv chooses from when no --grid is given: learned context words (0 = none) and the
#: longest multi-line block offered as a free-text candidate
DEFAULT_GRID: dict[str, list[Any]] = {"context_words": [0, 10], "max_lines": [5, 3]}

Labelled = tuple[str, Any, dict[str, Any]]  # file, parsed document, ground truth


def in_train(data: bytes, share: float = TRAIN_SHARE) -> bool:
    """The content-hash split: the SHA-256's first 16 hex digits as a fraction below share."""
    return int(hashlib.sha256(data).hexdigest()[:16], 16) / 16**16 < share


def cross_validate(
    docs: Sequence[Labelled],
    fields: Sequence[dict[str, Any]],
    specs: dict[str, FieldSpec],
    params: TrainParams,
    folds: int,
) -> tuple[int, int]:
    """Field accuracy (correct, expected) of ``params`` by K-fold cross-validation over
    ``docs`` (grouped by document: each held-out document is predicted by a model that never
    saw it). Calibration uses 2 folds here: it changes confidences, never the chosen value."""
    cv_params = TrainParams.from_mapping({**params.to_mapping(), "calibration_folds": 2})
    truth: dict[str, Any] = {}
    predicted: dict[str, Any] = {}
    for fold in range(folds):
        learn = [TrainingExample(doc, t) for i, (_, doc, t) in enumerate(docs) if i % folds != fold]
        model = load_model(train_model(learn, fields, cv_params))
        for i, (file, doc, t) in enumerate(docs):
            if i % folds == fold:
                truth[file], predicted[file] = t, extract_with_model(model, doc)
    result = compare(
        build_frame(truth, {"trained": predicted}), specs, baseline="trained", n_bootstrap=1
    )
    return _accuracy(result, "trained")


def select_params(
    docs: Sequence[Labelled],
    fields: Sequence[dict[str, Any]],
    specs: dict[str, FieldSpec],
    base: TrainParams,
    folds: int,
    grid: dict[str, list[Any]],
) -> TrainParams:
    """The grid's params with the best cross-validated field accuracy on ``docs``; prints each."""
    best: tuple[int, TrainParams] | None = None
    keys = sorted(grid)
    for values in product(*(grid[k] for k in keys)):
        varied = dict(zip(keys, values, strict=True))
        params = TrainParams.from_mapping({**base.to_mapping(), **varied})
        good, support = cross_validate(docs, fields, specs, params, folds)
        chosen = ", ".join(f"{k}={v}" for k, v in varied.items())
        print(f"  cv {folds}-fold on train: {chosen}: {good}/{support} = {good / support:.3f}")
        if best is None or good > best[0]:
            best = (good, params)
    assert best is not None
    return best[1]


def measure(
    name: str,
    seed: int,
    show_errors: bool,
    folds: int = 0,
    grid: dict[str, list[Any]] | None = None,
) -> None:
    """Train on the set's train split (params chosen by ``folds``-fold CV on it when folds > 1),
    score trained vs rules on its test split, print it."""
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
    print(f"== {name}: train {len(train)}, test {len(test)} documents (split by content hash)")
    if folds > 1:
        params = select_params(
            train, raw_config["fields"], specs, params, folds, grid or DEFAULT_GRID
        )
    chosen = {k: getattr(params, k) for k in sorted(grid or DEFAULT_GRID)}
    how = f"chosen by {folds}-fold CV on train" if folds > 1 else "(defaults)"
    print(f"params {how}: {chosen}")
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
        cols = ["field", "fixed", "regressed", "p_value", "p_holm", "significant"]
        print("McNemar per field, Holm-adjusted (the report's and the gate's test):")
        print(significance[cols].to_string(index=False))
        fixed, regressed = int(significance["fixed"].sum()), int(significance["regressed"].sum())
        p = mcnemar_exact(regressed, fixed)
        print(
            f"all fields pooled: {fixed} fixed, {regressed} regressed, exact McNemar p = {p:.2g} "
            "(cells of one document are not independent: a rough summary, not the gate's test)"
        )
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
    parser.add_argument(
        "--cv", type=int, default=0, metavar="K", help="choose params by K-fold CV on train"
    )
    parser.add_argument(
        "--grid", action="append", default=[], metavar="KEY=V1,V2",
        help=f"a training param and the values --cv tries (repeat; default: {DEFAULT_GRID})",
    )  # fmt: skip
    args = parser.parse_args(argv)
    grid: dict[str, list[Any]] = {}
    for item in args.grid:
        key, _, values = item.partition("=")
        grid[key] = [json.loads(v) for v in values.split(",")]
    unknown = sorted(set(args.sets) - {"invoices", *REAL_SETS})
    missing = [name for name in args.sets if name in REAL_SETS and not (SHARED / name).is_dir()]
    if unknown or missing:
        parser.error(f"unknown set(s) {unknown} or missing from {SHARED}: {missing}")
    for name in args.sets:
        measure(name, args.seed, args.show_errors, args.cv, grid or None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
