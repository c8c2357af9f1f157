"""Line items: the trained column classifier vs the rule engine's table reader, per cell.

Usage: python benchmarks/line_items.py [--config v1|v2|names] [--seed N] [--unseen-layouts]
                                      [--show-errors]

On the bundled ``datasets/invoices`` (the only set here whose truth has line items:
zugferd-dev keeps only totals and parsee-invoices-dev five header fields), split 70/30 by
content hash exactly as ``benchmarks/training.py`` does. The column classifier is trained on
the train split with the chosen rules config's array field; both readers then read the test
documents. ``names`` is the v1 config with each column labelled by its name only
("unit price"), as a trained version's fields are when the processor has no version and
the fields come from the dataset. ``--unseen-layouts`` instead tests each of the generator's
layouts with a classifier trained on the other layouts only (a harder split: the 70/30 split
shares layouts between train and test).

Cell accuracy = truth cells (item i, property p) whose value the reader gives for item i,
property p (amounts within 0.005, text equal after case and space folding) / all
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
from training import in_train

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.extraction.order import document_date_order
from fieldwise.service.engines.extraction.output import Output
from fieldwise.service.engines.parsing import parse_document
from fieldwise.service.engines.training import TrainParams
from fieldwise.service.engines.training.line_items import put_line_items, train_line_models
from fieldwise.service.engines.training.truth import fold


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


Doc = tuple[str, Any, Any, dict[str, Any]]  # file, parsed document, its config, its truth


def _evaluate(
    train: list[Doc], test: list[Doc], config: Any, params: TrainParams, show_errors: bool
) -> tuple[dict[str, list[int]], float]:
    """Train on ``train``; per reader [right cells, truth cells, documents with the right
    item count] on ``test``; and the training time."""
    array = next(spec for spec in config.fields if spec.type == "array")
    props = [c.name for c in array.columns]
    start = time.perf_counter()
    models = train_line_models(
        [(doc, resolved) for _, doc, resolved, _ in train], [t for *_, t in train], config, params
    )
    trained_in = time.perf_counter() - start
    scores = {"rules": [0, 0, 0], "classifier": [0, 0, 0]}
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
            scores[name][2] += len(items or []) == len(want)
            if show_errors and right < total:
                print(f"{file} {name}: {right}/{total}\n  got  {items}\n  want {want}")
    return scores, trained_in


def _print(scores: dict[str, list[int]], documents: int) -> None:
    for name, (right, total, counted) in scores.items():
        print(
            f"  {name:<11} cell accuracy {right / max(total, 1):.3f} ({right}/{total}), "
            f"item count right on {counted}/{documents} documents"
        )


def main() -> None:
    parser = argparse.ArgumentParser(prog="line_items.py", description=__doc__.split("\n")[0])
    parser.add_argument("--config", choices=("v1", "v2", "names"), default="v2")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--unseen-layouts", action="store_true")
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args()
    root, _, configs = _set("invoices")
    raw = json.loads(configs["v1" if args.config == "names" else args.config].read_text())
    if args.config == "names":
        for field in raw["fields"]:
            if field["type"] == "array":
                field["columns"] = {c: [c.replace("_", " ")] for c in field["columns"]}
    config = validate_config(raw)
    params = TrainParams(seed=args.seed)
    generated = json.loads((root / "generator.json").read_text())["documents"]
    layouts = {d["file"]: d["layout"] for d in generated}
    ocr = CachedOcr()
    docs: list[tuple[bool, Doc]] = []
    for row in _rows(root):
        data = (root / row["file"]).read_bytes()
        doc = parse_document(data, ocr_engine=ocr)
        resolved = replace(config, date_order=document_date_order(doc, config))
        docs.append((in_train(data), (row["file"], doc, resolved, row["ground_truth"])))
    print(f"== invoices ({args.config} config, seed {args.seed})")
    if not args.unseen_layouts:
        train = [d for t, d in docs if t]
        test = [d for t, d in docs if not t]
        scores, trained_in = _evaluate(train, test, config, params, args.show_errors)
        print(
            f"train {len(train)}, test {len(test)} documents (split by content hash); "
            f"classifier trained in {trained_in:.1f} s"
        )
        _print(scores, len(test))
        return
    everything = {"rules": [0, 0, 0], "classifier": [0, 0, 0]}
    for layout in sorted(set(layouts.values())):
        train = [d for _, d in docs if layouts[d[0]] != layout]
        test = [d for _, d in docs if layouts[d[0]] == layout]
        scores, _ = _evaluate(train, test, config, params, args.show_errors)
        print(f"layout {layout}: train {len(train)} (other layouts), test {len(test)}")
        _print(scores, len(test))
        for name, counts in scores.items():
            everything[name] = [a + b for a, b in zip(everything[name], counts, strict=True)]
    print("all layouts, each unseen in its training:")
    _print(everything, len(docs))


if __name__ == "__main__":
    main()
