"""Field accuracy of the rules engine in-set and out-of-set on every development set, per field.

Usage: python benchmarks/engine_accuracy.py [SET ...] [--show-errors] [--no-cache] [--trained]
                                            [--sweep] [--first N]

SET is ``invoices`` (datasets/invoices: its baseline v1 and candidate v2) or one of the real
development sets in ``../shared/datasets`` (``zugferd-dev``, ``einvoice-layouts-dev``,
``parsee-invoices-dev``, ``sroie-dev``): their documents and ground truth stay there (never
copied here), their field types and the one generic processor config a user would write live in
``benchmarks/real/<set>/``. Without SET, all five are measured.

The protocol (``benchmarks/real/protocol.toml``, issue #40): a set's **in-set** figure comes from
the config written looking at it; its **out-of-set** figure from the config written for another
set of the same kind, on the fields both share by name. The rules engine is shared by every
config, so the protocol also records which sets each rule or vocabulary change was made for,
and which sets are for tuning and which only for judging; both are printed. A set that is the
only one of its kind is split by position (``[split.<set>]``, its first ``tune_first``
documents): the tune half is its in-set figure, the judge half is measured "out-of-set within
the set" and its errors are never shown. For sets whose PDFs
carry an embedded e-invoice XML, each config also runs with the ``e_invoice`` option on.
With ``--trained``, leave-one-set-out for trained versions: a model trained on every document
of the out-of-set config's set reads this set (the rules engine is its fallback).

``--first N`` measures only the first N documents of each set (ground-truth order): a
partial figure, printed as such, for iterating before a cold OCR of a whole set is done.
With ``--sweep``, each config's outputs are also scored as if it abstained below each
confidence of :data:`_abstaining.SWEEP` (the ``abstain_below`` option), run again abstaining
where its candidates disagreed (``abstain_doubted``), and run again with the calibrated
P(right) of each value (``abstain_unlikely``, fitted on the tune sets by
``benchmarks/calibrate.py``) scored as if it abstained below each value of
:data:`_abstaining.UNLIKELY_SWEEP`: the wrong / missed trade-off.

Correct, wrong and missed cells are counted apart (the goal: wrong <= 5 % of expected).
Every document is parsed with the real parser; OCR regions are cached on disk under
``benchmarks/.cache/`` (git-ignored) keyed by the image's pixels, so iterations on the parser
skip the slow OCR but still run everything after it; whole parsed documents are cached under
``/tmp/fieldwise-parse-cache/`` keyed by the file's SHA-256 and the parser's version (a digest
of the parsing package's source), so iterations on the engine parse nothing twice. Outputs
are scored by the toolkit's own comparators (:func:`fieldwise.compare.compare` with the set's
field specs): field accuracy = correct / expected, as in the report.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import sys
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from _abstaining import sweep_abstaining
from _shared import SHARED_DATASETS
from PIL import Image

from fieldwise.compare import build_frame, compare, parse_field_specs
from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import OcrEngine, ParsedDocument, parse_document
from fieldwise.service.engines.parsing.ocr import Region
from fieldwise.service.engines.parsing.stored import decode_document, encode_document

REPO = Path(__file__).resolve().parent.parent
SHARED = SHARED_DATASETS
CACHE = REPO / "benchmarks" / ".cache"
PARSED = Path("/tmp/fieldwise-parse-cache")
PROTOCOL = REPO / "benchmarks" / "real" / "protocol.toml"
REAL_SETS = ("zugferd-dev", "einvoice-layouts-dev", "parsee-invoices-dev", "sroie-dev")
BAD = ("wrong", "missed")
WRONG_GOAL = 0.05  # wrong cells at most this share of the expected ones


class CachedOcr(OcrEngine):
    """The real OCR engine, with its raw regions remembered on disk by image content."""

    def regions(self, image: Image.Image) -> list[Region]:
        rgb = image.convert("RGB")
        key = hashlib.sha256(f"{rgb.size}".encode() + rgb.tobytes()).hexdigest()
        path = CACHE / "ocr" / f"{key}.json"
        if path.exists():
            raw = json.loads(path.read_text())
            return [([(x, y) for x, y in pts], text, score) for pts, text, score in raw]
        found = super().regions(image)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(found))
        return found


def _rows(root: Path) -> list[dict[str, Any]]:
    lines = (root / "ground_truth.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _set(name: str) -> tuple[Path, Path, dict[str, Path]]:
    """(documents root, folder of dataset.toml, version label -> processor config); a set
    nobody wrote a config for (one kept for judging only) has none."""
    if name == "invoices":
        root = REPO / "datasets" / "invoices"
        return root, root, {v: root / "processor" / f"{v}.json" for v in ("v1", "v2")}
    here = REPO / "benchmarks" / "real" / name
    own = here / "processor.json"
    return SHARED / name, here, ({"config": own} if own.exists() else {})


def _own_config(name: str) -> Path | None:
    """The config written looking at set ``name`` (its in-set config), if any."""
    configs = _set(name)[2]
    return configs.get("v2") or configs.get("config")


@functools.cache
def _parser_version() -> str:
    """A digest of the parsing package's source: a parser change invalidates the cache."""
    import fieldwise.service.engines.parsing as parsing

    digest = hashlib.sha256()
    for path in sorted(Path(parsing.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _parse_one(data: bytes, ocr: OcrEngine, cached: bool) -> ParsedDocument:
    if not cached:
        return parse_document(data, ocr_engine=ocr)
    path = PARSED / _parser_version() / f"{hashlib.sha256(data).hexdigest()}.json"
    if path.exists():
        return decode_document(path.read_bytes())
    doc = parse_document(data, ocr_engine=ocr)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(encode_document(doc))
    return doc


def field_specs(spec_dir: Path) -> dict[str, Any]:
    """The compare specs of the fields a set's ``dataset.toml`` declares."""
    spec = tomllib.loads((spec_dir / "dataset.toml").read_text(encoding="utf-8"))
    return dict(
        parse_field_specs(
            spec.get("fields", {}), date_order=spec.get("dataset", {}).get("date_order", "YMD")
        )
    )


def _parse(
    root: Path, rows: list[dict[str, Any]], ocr: OcrEngine, cached: bool = True
) -> dict[str, ParsedDocument]:
    return {row["file"]: _parse_one((root / row["file"]).read_bytes(), ocr, cached) for row in rows}


def _table(result: Any, versions: list[str]) -> list[str]:
    fields = result.fields
    names = sorted(set(fields["field"]))
    out = [f"{'field':<20}" + "".join(f"{v:>14}" for v in versions)]
    for name in names:
        cells = []
        for version in versions:
            row = fields.loc[(fields["field"] == name) & (fields["version"] == version)]
            if row.empty:
                cells.append("-")
                continue
            good, support = int(row["correct"].iloc[0]), int(row["support"].iloc[0])
            cells.append(f"{good}/{support}" if support else "-")
        out.append(f"{name:<20}" + "".join(f"{c:>14}" for c in cells))
    return out


def _accuracy(result: Any, version: str) -> tuple[int, int]:
    fields = result.fields
    chosen = fields.loc[fields["version"] == version]
    return int(chosen["correct"].sum()), int(chosen["support"].sum())


@dataclass(frozen=True)
class Score:
    """Cells of one config on one set (or one field of it)."""

    correct: int = 0
    wrong: int = 0
    missed: int = 0
    expected: int = 0

    def __add__(self, other: Score) -> Score:
        return Score(
            self.correct + other.correct,
            self.wrong + other.wrong,
            self.missed + other.missed,
            self.expected + other.expected,
        )

    def cell(self) -> str:
        if not self.expected:
            return "-"
        return f"{self.correct}/{self.expected} w{self.wrong} m{self.missed}"

    def summary(self) -> str:
        if not self.expected:
            return "-"
        share = self.wrong / self.expected
        return (
            f"{self.correct / self.expected:.3f} ({self.correct}/{self.expected}; "
            f"wrong {self.wrong} = {share:.1%}, missed {self.missed})"
        )


@dataclass(frozen=True)
class Run:
    """One config (or model) over one set: its label, per-field scores and bad cells."""

    label: str
    fields: dict[str, Score]
    errors: list[str]
    judged: bool = False  # a split set's judge half: out-of-set within the set

    @property
    def total(self) -> Score:
        return sum(self.fields.values(), Score())


def scored_cells(
    label: str,
    truth: Mapping[str, Mapping[str, Any]],
    predicted: Mapping[str, Mapping[str, Any]],
    specs: Mapping[str, Any],
) -> Any:
    """The toolkit's cells frame (``item``, ``field``, ``outcome``, ...) of ``predicted``
    against ``truth`` on the fields of ``specs`` only."""
    shared = {f: {k: v for k, v in t.items() if k in specs} for f, t in truth.items()}
    return compare(build_frame(shared, {label: predicted}), dict(specs), baseline=label).cells


def _score(label: str, cells: Any) -> Run:
    """The run ``label`` of a cells frame (see :func:`scored_cells`): per-field correct /
    wrong / missed counts and its bad cells."""
    fields: dict[str, Score] = {}
    for name in sorted(set(cells["field"])):
        mine = cells.loc[cells["field"] == name]
        counts = mine["outcome"].value_counts()
        correct, wrong, missed = (int(counts.get(k, 0)) for k in ("correct", "wrong", "missed"))
        expected = correct + wrong + missed
        if expected:
            fields[name] = Score(correct, wrong, missed, expected)
    bad = cells.loc[cells["outcome"].isin(BAD)].sort_values(["field", "item"])
    errors = [
        f"  {label} {row.field} {row.item}: {row.outcome}: got {row.predicted!r} "
        f"want {row.expected!r}"
        for row in bad.itertuples()
    ]
    return Run(label, fields, errors)


def _rescore(label: str, truth: Any, specs: Any, predicted: Any) -> Run:
    """:func:`_score` of other outputs on the same truth (the sweep's abstaining variants)."""
    return _score(label, scored_cells(label, truth, predicted, specs))


def _config_runs(raw: dict[str, Any], e_invoice: bool) -> list[tuple[str, dict[str, Any]]]:
    """The config as written, and with the e_invoice option on where the set carries XML."""
    runs = [("", raw)]
    if e_invoice:
        runs.append((" +xml", {**raw, "e_invoice": True}))
    return runs


def _rules(raw: dict[str, Any], docs: Mapping[str, ParsedDocument]) -> dict[str, dict[str, Any]]:
    config = validate_config(raw)
    return {file: extract(doc, config) for file, doc in docs.items()}


def _trained(
    source: str, raw: dict[str, Any], ocr: OcrEngine
) -> Callable[[ParsedDocument], dict[str, Any]]:
    """A model trained on every document of set ``source`` with config ``raw``'s fields."""
    from fieldwise.service.engines.training import (
        TrainingExample,
        TrainParams,
        extract_with_model,
        load_model,
        train_model,
    )

    root = _set(source)[0]
    examples = [
        TrainingExample(
            _parse_one((root / row["file"]).read_bytes(), ocr, True), row["ground_truth"]
        )
        for row in _rows(root)
    ]
    params = TrainParams.from_mapping(
        {
            "date_order": raw.get("date_order", "auto"),
            "lenient_dates": raw.get("lenient_dates", True),
        }
    )
    model = load_model(train_model(examples, raw["fields"], params))
    return lambda doc: extract_with_model(model, doc)


@dataclass(frozen=True)
class Half:
    """The documents of a set scored together: the whole set, or one half of a split set."""

    label: str  # appended to the config's label ("" for the whole set)
    files: frozenset[str]
    judged: bool  # only measured: its errors are never shown


def halves(name: str, files: list[str], protocol: Mapping[str, Any]) -> list[Half]:
    """The whole set, or its tune and judge halves when the protocol splits it by position."""
    split = protocol.get("split", {}).get(name)
    if split is None:
        return [Half("", frozenset(files), False)]
    cut = int(split["tune_first"])
    if cut <= 0:
        raise ValueError(f"protocol: split.{name}.tune_first must be positive, not {cut}")
    if cut >= len(files):
        # a partial run (--first) that holds no judged document measures the tune half only
        return [Half(" tune", frozenset(files), False)]
    return [
        Half(" tune", frozenset(files[:cut]), False),
        Half(" judge", frozenset(files[cut:]), True),
    ]


def _subset(mapping: Mapping[str, Any], files: frozenset[str]) -> dict[str, Any]:
    return {file: value for file, value in mapping.items() if file in files}


def _changes(protocol: Mapping[str, Any], name: str) -> list[str]:
    return [c["id"] for c in protocol.get("change", []) if name in c.get("sets", [])]


def measure(
    name: str,
    ocr: OcrEngine,
    protocol: Mapping[str, Any],
    show_errors: bool,
    trained: bool,
    sweep: bool = False,
    first: int | None = None,
) -> dict[str, Run]:
    """Print the per-field in-set / out-of-set table of set ``name``; return its runs."""
    root, spec_dir, configs = _set(name)
    specs = field_specs(spec_dir)
    rows = _rows(root)[:first]
    start = time.perf_counter()
    docs = _parse(root, rows, ocr, isinstance(ocr, CachedOcr))
    parsed_in = time.perf_counter() - start
    truth = {row["file"]: row["ground_truth"] for row in rows}
    e_invoice = name in protocol.get("e_invoice", [])
    parts = halves(name, [row["file"] for row in rows], protocol)
    runs: dict[str, Run] = {}
    sweeps: list[tuple[str, dict[str, Any], dict[str, dict[str, Any]], Mapping[str, Any]]] = []

    def score(label: str, outputs: dict[str, Any], fields: Mapping[str, Any], raw: Any) -> None:
        """Score ``outputs`` on each half of the set (the whole set when it is not split)."""
        for half in parts:
            key = label + half.label
            mine = _score(
                key,
                scored_cells(key, _subset(truth, half.files), _subset(outputs, half.files), fields),
            )
            runs[key] = replace(mine, judged=half.judged)
            if raw is not None:
                sweeps.append((key, raw, _subset(outputs, half.files), fields))

    start = time.perf_counter()
    for version, path in configs.items():
        raw = json.loads(path.read_text(encoding="utf-8"))
        for suffix, variant in _config_runs(raw, e_invoice):
            score(f"in:{version}{suffix}", _rules(variant, docs), specs, variant)
    source = protocol.get("out_of_set", {}).get(name)
    other = _own_config(source) if source else None
    if other is not None:
        raw = json.loads(other.read_text(encoding="utf-8"))
        names = {f["name"] for f in raw["fields"]}
        shared = {k: v for k, v in specs.items() if k in names}
        for suffix, variant in _config_runs(raw, e_invoice):
            score(f"out:{source}{suffix}", _rules(variant, docs), shared, variant)
        if trained:
            model = _trained(source, raw, ocr)
            predicted = {file: model(doc) for file, doc in docs.items()}
            score(f"out:trained on {source}", predicted, shared, None)
    extracted_in = time.perf_counter() - start
    changes = _changes(protocol, name)
    role = "tune" if name in protocol.get("tune", []) else "judge"
    part = f" (the first {len(rows)} only)" if first is not None else ""
    print(
        f"== {name} ({protocol['kind'][name]}, {role}): {len(rows)} documents{part} "
        f"(parse {parsed_in:.1f} s, extract {extracted_in:.1f} s); engine changes made for it: "
        f"{', '.join(changes) or 'none'}"
    )
    if len(parts) > 1 or parts[0].label:
        split = protocol["split"][name]
        print(
            f"   split by position since {split.get('since', '?')}: tune = its first "
            f"{split['tune_first']} documents (in-set), judge = the rest (out-of-set within the "
            "set: only measured); rules made before the split looked at the whole set"
        )
    labels = list(runs)
    width = max(24, *(len(label) + 2 for label in labels))
    print(f"{'field':<22}" + "".join(f"{label:>{width}}" for label in labels))
    for field in sorted({f for run in runs.values() for f in run.fields}):
        cells = [runs[label].fields.get(field, Score()).cell() for label in labels]
        print(f"{field:<22}" + "".join(f"{c:>{width}}" for c in cells))
    for label in labels:
        print(f"{name} {label}: field accuracy {runs[label].total.summary()}")
    if sweep:
        for label, variant, outputs, fields in sweeps:
            if "+xml" not in label:  # the XML's values are certain: nothing to trade
                files = frozenset(outputs)  # the half these outputs were scored on
                scorer = functools.partial(_rescore, label, _subset(truth, files), fields)
                sweep_abstaining(label, outputs, scorer)
                run = scorer(_rules({**variant, "abstain_doubted": True}, _subset(docs, files)))
                print(f"  sweep {label} abstain_doubted: {run.total.summary()}")
                calibrated = _rules({**variant, "abstain_unlikely": 0.0}, _subset(docs, files))
                sweep_abstaining(label, calibrated, scorer, "p_right")
    if show_errors and role == "judge":
        print(f"  (errors of {name} not shown: a judge set's documents are only measured)")
    elif show_errors:
        for label in labels:
            if runs[label].judged:
                print(f"  (errors of {label} not shown: the judge half is only measured)")
            else:
                print("\n".join(runs[label].errors))
    return runs


def _closing(results: Mapping[str, dict[str, Run]], protocol: Mapping[str, Any]) -> None:
    """The closing table: per set, in-set beside out-of-set, and the engine's record."""
    print("\n== closing table (field accuracy; wrong share of expected; missed)")
    print(f"tune on: {', '.join(protocol['tune'])}; judge on: {', '.join(protocol['judge'])}")
    for name, runs in results.items():
        engine = "engine tuned on it" if _changes(protocol, name) else "engine never tuned on it"
        print(f"{name} [{protocol['kind'][name]}; {engine}]")
        for label, run in runs.items():
            inside = label.startswith("in:") and not run.judged
            where = "in-set " if inside else "out-of-set "
            flag = "" if run.total.wrong <= WRONG_GOAL * run.total.expected else "  (wrong > 5 %)"
            print(f"  {where + label.split(':', 1)[1]:<44} {run.total.summary()}{flag}")
    print("\n== rule and vocabulary changes, and the sets that motivated them")
    for change in protocol.get("change", []):
        seen = f" (also known: {change['seen']})" if change.get("seen") else ""
        print(f"  {change['id']}: {change['what']} -- for {', '.join(change['sets'])}{seen}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="engine_accuracy.py", description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", default=["invoices", *REAL_SETS])
    parser.add_argument("--show-errors", action="store_true", help="list wrong and missed values")
    parser.add_argument(
        "--no-cache", action="store_true", help="parse and run OCR without the disk caches"
    )
    parser.add_argument(
        "--trained", action="store_true", help="also leave-one-set-out trained versions"
    )
    parser.add_argument(
        "--sweep", action="store_true", help="score each config abstaining below confidences"
    )
    parser.add_argument(
        "--first", type=int, metavar="N", help="only the first N documents of each set"
    )
    args = parser.parse_args(argv)
    for name in args.sets:
        if name != "invoices" and name not in REAL_SETS:
            parser.error(f"unknown set {name!r} (invoices, {', '.join(REAL_SETS)})")
        if name != "invoices" and not (SHARED / name).is_dir():
            parser.error(f"{SHARED / name} is missing: the real sets live in ../shared/datasets")
    protocol = tomllib.loads(PROTOCOL.read_text(encoding="utf-8"))
    ocr = OcrEngine() if args.no_cache else CachedOcr()
    results = {
        name: measure(name, ocr, protocol, args.show_errors, args.trained, args.sweep, args.first)
        for name in args.sets
    }
    _closing(results, protocol)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
