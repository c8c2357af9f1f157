"""Fit the engine's calibrated P(right) (``abstain_unlikely``) on the tune sets only.

Usage: python benchmarks/calibrate.py [--write] [--folds K]

Runs every config that reads a tune set of ``benchmarks/real/protocol.toml`` (its own configs,
and the out-of-set config the protocol names for it) over the set's tune documents (a split
set's tune half only; the judge sets and halves are never read), each with the uninformative
calibration so that every page-read field's metadata carries the engine's
:class:`~fieldwise.service.engines.extraction.calibration.Evidence`. Every top-level field the
engine gave where a value was expected is one example: right (the toolkit's comparator says
correct) or not (wrong). Candidate models (scikit-learn: logistic regressions on standardized
features, regularization among :data:`CS`; small gradient-boosted trees, :data:`BOOSTED`) are
compared by grouped cross-validated log loss and the best is fitted on them all.

Printed: the examples per run; out of fold (GroupKFold by document, so no document is scored
by a model that saw it) the log loss, Brier score and AUC, the reliability table (predicted
vs observed share right per bin) and, per run and threshold, the correct / wrong / missed
cells abstaining below that P(right) would give. With ``--write`` the model fitted on all
examples is written to ``src/fieldwise/service/engines/extraction/calibration.json`` (weights
on the raw features with the scaler folded in, or the trees' node arrays), after checking that
the engine's reading of it reproduces scikit-learn's probabilities, with the command, sets,
counts and the out-of-fold figures. Deterministic: GroupKFold in document order, the lbfgs
solver and the boosted trees without subsampling (``random_state=SEED``) give the same file.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import json
import sys
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from engine_accuracy import (
    PROTOCOL,
    REPO,
    CachedOcr,
    _parse,
    _rows,
    _set,
    field_specs,
    halves,
    scored_cells,
)
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss, log_loss, roc_auc_score
from sklearn.model_selection import GroupKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.extraction.calibration import (
    Calibration,
    Evidence,
    feature_names,
    features,
)

TARGET = REPO / "src" / "fieldwise" / "service" / "engines" / "extraction" / "calibration.json"
CS = (0.1, 0.3, 1.0, 3.0)  # inverse regularization strengths tried
BOOSTED = ((2, 100), (3, 100))  # (depth, trees) of the boosted models tried
LEARNING_RATE = 0.1
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
SEED = 0
BINS = 10
# a model that knows nothing: P = 0.5 for every value; used only to have the evidence reported
_BLANK = Calibration({}, 0.0)


@dataclass(frozen=True)
class Example:
    """One value the engine gave where one was expected, and whether it was right."""

    run: str  # "<set> <config>"
    document: str  # "<set>/<file>": the cross-validation group
    field: str
    evidence: Evidence
    right: bool


# What each set's fields mean, to read a tune set with a config written for another set (a
# config's field renamed to the set's field of the same meaning): the situation of the judge
# sets, on tune documents. Fields without a counterpart are not read.
MEANINGS: dict[str, dict[str, str]] = {
    "invoices": {
        "invoice_number": "invoice_number",
        "invoice_date": "issue_date",
        "due_date": "due_date",
        "vendor_name": "seller_name",
        "customer_name": "buyer_name",
        "currency": "currency",
        "subtotal": "net_total",
        "tax": "tax_total",
        "total": "grand_total",
        "po_number": "order_number",
    },
    "zugferd-dev": {
        "invoice_number": "invoice_number",
        "issue_date": "issue_date",
        "payment_due_date": "due_date",
        "seller_name": "seller_name",
        "buyer_name": "buyer_name",
        "currency": "currency",
        "tax_basis_total": "net_total",
        "tax_total": "tax_total",
        "grand_total": "grand_total",
        "buyer_order_number": "order_number",
    },
    "parsee-invoices-dev": {
        "seller_name": "seller_name",
        "issue_date": "issue_date",
        "currency": "currency",
        "grand_total": "grand_total",
    },
    "sroie-dev": {
        "company": "seller_name",
        "date": "issue_date",
        "total": "grand_total",
    },
}


def _configs() -> Iterator[tuple[str, str, Path]]:
    """(set, version, path) of every config written for a set."""
    for name in MEANINGS:
        for version, path in _set(name)[2].items():
            yield name, version, path


def _renamed(raw: dict[str, Any], source: str, target: str) -> dict[str, Any]:
    """Config ``raw`` (written for ``source``) with its fields named as set ``target`` names
    the same meanings; fields ``target`` has no counterpart for are dropped."""
    if source == target:
        return raw
    names = {meaning: field for field, meaning in MEANINGS[target].items()}
    fields = []
    for field in raw["fields"]:
        meaning = MEANINGS[source].get(field["name"])
        if meaning in names:
            fields.append({**field, "name": names[meaning]})
    return {**raw, "fields": fields}


def _tune_runs(protocol: Mapping[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(set, config label, raw config) of every config that can read a tune set."""
    for name in protocol["tune"]:
        for source, version, path in _configs():
            raw = _renamed(json.loads(path.read_text(encoding="utf-8")), source, name)
            if raw["fields"]:
                label = version if source == name else f"{source} {version}"
                yield name, label, raw


def _evidence(meta: Mapping[str, Any], field_type: str) -> Evidence:
    raw = meta["evidence"]
    return Evidence(
        strategy=raw["strategy"],
        field_type=field_type,
        confidence=float(meta["confidence"]),
        candidates=int(raw["candidates"]),
        values=int(raw["values"]),
        margin=float(raw["margin"]),
        doubted=bool(raw["doubted"]),
        has_role=bool(raw["has_role"]),
        scanned=bool(raw["scanned"]),
    )


def collect(protocol: Mapping[str, Any]) -> list[Example]:
    """The examples of every tune run (tune documents only)."""
    ocr = CachedOcr()
    examples: list[Example] = []
    for name, version, raw in _tune_runs(protocol):
        root, spec_dir, _ = _set(name)
        rows = _rows(root)
        tune = [h for h in halves(name, [r["file"] for r in rows], protocol) if not h.judged]
        rows = [r for r in rows if r["file"] in tune[0].files]
        config = validate_config({**raw, "abstain_unlikely": 0.0})
        types = {f.name: f.type for f in config.fields}
        specs = {k: v for k, v in field_specs(spec_dir).items() if k in types}
        docs = _parse(root, rows, ocr)
        outputs = {f: extract(doc, config, calibration=_BLANK) for f, doc in docs.items()}
        truth = {r["file"]: r["ground_truth"] for r in rows}
        cells = scored_cells(version, truth, outputs, specs)
        label = f"{name} {version}"
        for cell in cells.loc[cells["outcome"].isin(("correct", "wrong"))].itertuples():
            meta = outputs[cell.item]["metadata"].get(cell.field)
            if meta is None or "evidence" not in meta:
                continue  # a line-item cell: tables are not calibrated
            evidence = _evidence(meta, types[cell.field])
            right = cell.outcome == "correct"
            examples.append(Example(label, f"{name}/{cell.item}", cell.field, evidence, right))
    return examples


def _matrix(examples: list[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    names = feature_names()
    x = np.array([[features(e.evidence)[n] for n in names] for e in examples], dtype=float)
    y = np.array([e.right for e in examples], dtype=int)
    groups = np.array([e.document for e in examples])
    return x, y, groups


def _models() -> dict[str, Callable[[], Any]]:
    """The candidate models by name: logistic regressions and small boosted trees."""
    models: dict[str, Callable[[], Any]] = {}
    for c in CS:
        models[f"logistic C={c}"] = functools.partial(_logistic, c)
    for depth, trees in BOOSTED:
        models[f"boosted depth={depth} trees={trees}"] = functools.partial(
            GradientBoostingClassifier,
            n_estimators=trees,
            max_depth=depth,
            learning_rate=LEARNING_RATE,
            min_samples_leaf=20,
            init="zero",  # the trees carry everything: P = sigmoid(sum of the trees)
            random_state=SEED,
        )
    return models


def _logistic(c: float) -> Any:
    return make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))


def out_of_fold(
    x: np.ndarray, y: np.ndarray, groups: np.ndarray, model: Callable[[], Any], k: int
) -> Any:
    """P(right) of every example from a model fitted without its document."""
    p = np.zeros(len(y))
    for train, test in GroupKFold(n_splits=k).split(x, y, groups):
        p[test] = model().fit(x[train], y[train]).predict_proba(x[test])[:, 1]
    return p


def reliability(p: np.ndarray, y: np.ndarray) -> list[dict[str, Any]]:
    """Per bin of predicted P(right): the count, the mean prediction, the observed share."""
    rows = []
    for b in range(BINS):
        lo, hi = b / BINS, (b + 1) / BINS
        mine = (p >= lo) & ((p < hi) if b < BINS - 1 else (p <= hi))
        if mine.any():
            rows.append(
                {
                    "bin": f"{lo:.1f}-{hi:.1f}",
                    "n": int(mine.sum()),
                    "predicted": round(float(p[mine].mean()), 3),
                    "observed": round(float(y[mine].mean()), 3),
                }
            )
    return rows


def exported(model: Any) -> dict[str, Any]:
    """The fitted model as calibration.json holds it (see calibration.Calibration)."""
    names = feature_names()
    if isinstance(model, GradientBoostingClassifier):
        trees = []
        for estimator in model.estimators_[:, 0]:
            tree = estimator.tree_
            # a leaf adds learning_rate x its value (init="zero": no constant)
            leaves = tree.value[:, 0, 0] * model.learning_rate
            trees.append(
                {
                    "feature": [names[f] if f >= 0 else "" for f in tree.feature],
                    "threshold": [float(t) for t in tree.threshold],
                    "left": [int(i) for i in tree.children_left],
                    "right": [int(i) for i in tree.children_right],
                    "value": [round(float(v), 9) for v in leaves],
                }
            )
        return {"weights": {}, "intercept": 0.0, "trees": trees}
    scaler, logistic = model.named_steps["standardscaler"], model.named_steps["logisticregression"]
    w = logistic.coef_[0] / scaler.scale_  # the scaler folded into the weights
    intercept = float(logistic.intercept_[0] - np.sum(w * scaler.mean_))
    weights = {n: round(float(v), 9) for n, v in zip(names, w, strict=True) if v}
    return {"weights": dict(sorted(weights.items())), "intercept": round(intercept, 9)}


def _check(model: Any, raw: dict[str, Any], examples: list[Example], x: np.ndarray) -> float:
    """The largest difference between scikit-learn's P(right) and the engine's reading of
    the exported parameters, over every example (they must agree)."""
    mine = Calibration.from_json(raw)
    ours = np.array([mine.probability(e.evidence) for e in examples])
    return float(np.max(np.abs(ours - model.predict_proba(x)[:, 1])))


def _json(record: dict[str, Any]) -> str:
    """``record`` as JSON, one line per tree (the rest indented): small and diffable."""
    trees = record.pop("trees", [])
    text = json.dumps(record, indent=1, ensure_ascii=False)
    if not trees:
        return text + "\n"
    lines = ",\n".join("  " + json.dumps(t, separators=(",", ":")) for t in trees)
    return text[: text.rindex("}")].rstrip() + ',\n "trees": [\n' + lines + "\n ]\n}\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="calibrate.py", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {TARGET.name}")
    parser.add_argument("--folds", type=int, default=5, help="GroupKFold splits (documents)")
    args = parser.parse_args(argv)
    protocol = tomllib.loads(PROTOCOL.read_text(encoding="utf-8"))
    examples = collect(protocol)
    x, y, groups = _matrix(examples)
    runs = sorted({e.run for e in examples})
    print(f"examples: {len(y)} values given where one was expected, {int((y == 0).sum())} wrong")
    for run in runs:
        mine = [e for e in examples if e.run == run]
        print(f"  {run}: {len(mine)} ({sum(not e.right for e in mine)} wrong)")
    models = _models()
    oof = {name: out_of_fold(x, y, groups, make, args.folds) for name, make in models.items()}
    losses = {name: float(log_loss(y, p)) for name, p in oof.items()}
    best = min(models, key=lambda name: (losses[name], name))
    print("out-of-fold log loss: " + ", ".join(f"{n}: {v:.4f}" for n, v in losses.items()))
    p = oof[best]
    figures = {
        "log_loss": round(float(log_loss(y, p)), 4),
        "brier": round(float(brier_score_loss(y, p)), 4),
        "auc": round(float(roc_auc_score(y, p)), 4),
        "base_rate_right": round(float(y.mean()), 4),
    }
    print(f"out of fold ({best}): {figures}")
    table = reliability(p, y)
    print(f"reliability out of fold ({BINS} bins): bin, n, mean predicted, observed right")
    for row in table:
        print(f"  {row['bin']}  {row['n']:>5}  {row['predicted']:.3f}  {row['observed']:.3f}")
    print("abstaining below P(right), out of fold: values kept right / wrong, left out right")
    for run in runs:
        mine = np.array([e.run == run for e in examples])
        cells = []
        for t in THRESHOLDS:
            keep = mine & (p >= t)
            lost = int((mine & ~keep & (y == 1)).sum())
            cells.append(f"{t:.1f}: {int(y[keep].sum())}/{int((y[keep] == 0).sum())}/-{lost}")
        print(f"  {run}: " + "  ".join(cells))
    model = models[best]().fit(x, y)
    params = exported(model)
    gap = _check(model, params, examples, x)
    print(f"engine's reading of the exported model vs scikit-learn: max |dP| = {gap:.2e}")
    if gap > 1e-6:
        print("the exported model does not reproduce the fitted one", file=sys.stderr)
        return 1
    if args.write:
        record = {
            "model": best,
            **params,
            "fitted": {
                "command": "python benchmarks/calibrate.py --write"
                + (f" --folds {args.folds}" if args.folds != 5 else ""),
                "date": dt.date.today().isoformat(),
                "runs": runs,
                "examples": len(y),
                "wrong": int((y == 0).sum()),
                "seed": SEED,
                "folds": args.folds,
                "out_of_fold_log_loss": {n: round(v, 4) for n, v in losses.items()},
                "out_of_fold": figures,
                "reliability_out_of_fold": table,
            },
        }
        TARGET.write_text(_json(record))
        print(f"wrote {TARGET.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
