"""Line items: the trained column classifier vs the rule engine's table reader, per cell.

Usage: python benchmarks/line_items.py [--config v1|v2] [--seed N] [--show-errors]

On the bundled ``datasets/invoices`` (the only set here whose truth has line items:
zugferd-dev keeps only totals and parsee-invoices-dev five header fields), split 70/30 by
content hash exactly as ``benchmarks/training.py`` does. The column classifier is trained on
the train split with the chosen rules config's array field; both readers then read the test
documents. Cell accuracy = truth cells (item i, property p) whose value the reader gives for
item i, property p (amounts within 0.005, text equal after case and space folding) / all
truth cells; rows exact = documents whose item count is right. Parsing uses the OCR cache of
``benchmarks/engine_accuracy.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_accuracy import CachedOcr, _rows, _set

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.extraction.dates import document_date_order
from fieldwise.service.engines.extraction.output import Output
from fieldwise.service.engines.parsing import parse_document
from fieldwise.service.engines.training import TrainParams
from fieldwise.service.engines.training.line_items import put_line_items, train_line_models
from fieldwise.service.engines.training.truth import fold
from training import in_train


def _right(got: Any, want: Any) -> bool:
    if isinstance(want, int | float) and not isinstance(want, bool):
        return isinstance(got, int | float) and abs(float(got) - float(want)) < 0.005
    return got is not None and fold(str(got)) == fold(str(want))


def _score(items: Any, truth: list[dict[str, Any]], props: list[str]) -> tuple[int, int]:
    items = items if isinstance(items, list) else []
    right = total = 0
    for i, want in enumerate(truth):
        got = items[i] if i < len(items) and isinstance(items[i], dict) else {}
        for prop in props:
            if want.get(prop) is None:
                continue
            total += 1
            right += _right(got.get(prop), want[prop])
    return right, total


def main() -> None:
    parser = argparse.ArgumentParser(prog="line_items.py", description=__doc__.split("\n")[0])
    parser.add_argument("--config", choices=("v1", "v2"), default="v2")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args()
    root, _, configs = _set("invoices")
    raw = json.loads(configs[args.config].read_text(encoding="utf-8"))
    config = validate_config(raw)
    array = next(spec for spec in config.fields if spec.type == "array")
    props = [c.name for c in array.columns]
    params = TrainParams(seed=args.seed)
    ocr = CachedOcr()
    train, test = [], []
    for row in _rows(root):
        data = (root / row["file"]).read_bytes()
        doc = parse_document(data, ocr_engine=ocr)
        resolved = replace(config, date_order=document_date_order(doc, config.date_order))
        (train if in_train(data) else test).append(
            (row["file"], doc, resolved, row["ground_truth"])
        )
    start = time.perf_counter()
    models = train_line_models(
        [(doc, resolved) for _, doc, resolved, _ in train], [t for *_, t in train], config, params
    )
    trained_in = time.perf_counter() - start
    scores = {"rules": [0, 0], "classifier": [0, 0]}
    rows_exact = {"rules": 0, "classifier": 0}
    for file, doc, resolved, truth in test:
        want = truth.get(array.name) or []
        rule = extract(doc, resolved)
        out = Output(None)
        put_line_items(out, models[array.name], doc, array, resolved, rule)
        got = {"rules": rule["value"].get(array.name), "classifier": out.value.get(array.name)}
        for name, items in got.items():
            right, total = _score(items, want, props)
            scores[name][0] += right
            scores[name][1] += total
            rows_exact[name] += len(items or []) == len(want)
            if args.show_errors and right < total:
                print(f"{file} {name}: {right}/{total}\n  got  {items}\n  want {want}")
    print(
        f"== invoices ({args.config} config, seed {args.seed}): train {len(train)}, "
        f"test {len(test)} documents (split by content hash); classifier trained in "
        f"{trained_in:.1f} s"
    )
    for name, (right, total) in scores.items():
        print(
            f"{name:<11} cell accuracy {right / max(total, 1):.3f} ({right}/{total}), "
            f"item count right on {rows_exact[name]}/{len(test)} documents"
        )


if __name__ == "__main__":
    main()
