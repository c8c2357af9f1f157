"""Field accuracy of the local rules engine on the bundled and the real dataset, per field.

Usage: python benchmarks/engine_accuracy.py [SET ...] [--show-errors] [--no-cache]

SET is ``invoices`` (datasets/invoices: its baseline v1 and candidate v2) or one of the real
development sets, ``zugferd-dev``, ``sroie-dev`` and ``parsee-invoices-dev``: their documents
and ground truth stay in ``../shared/datasets/<set>`` (never copied here), their field types
and the one generic processor config a user would write live in ``benchmarks/real/<set>/``.
Without SET, all four are measured.

Every document is parsed with the real parser; OCR regions are cached on disk under
``benchmarks/.cache/`` (git-ignored) keyed by the image's pixels, so iterations on the parser
and the engine skip the slow OCR but still run everything after it. Outputs are scored by the
toolkit's own comparators (:func:`fieldwise.compare.compare` with the set's field specs):
field accuracy = correct / expected, as in the report.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from _shared import SHARED_DATASETS
from PIL import Image

from fieldwise.compare import build_frame, compare, parse_field_specs
from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import OcrEngine, ParsedDocument, parse_document
from fieldwise.service.engines.parsing.ocr import Region

REPO = Path(__file__).resolve().parent.parent
SHARED = SHARED_DATASETS
CACHE = REPO / "benchmarks" / ".cache"
REAL_SETS = ("zugferd-dev", "parsee-invoices-dev", "sroie-dev")


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
    """(documents root, folder of dataset.toml, version label -> processor config)."""
    if name == "invoices":
        root = REPO / "datasets" / "invoices"
        return root, root, {v: root / "processor" / f"{v}.json" for v in ("v1", "v2")}
    here = REPO / "benchmarks" / "real" / name
    return SHARED / name, here, {"config": here / "processor.json"}


def _parse(root: Path, rows: list[dict[str, Any]], ocr: OcrEngine) -> dict[str, ParsedDocument]:
    docs = {}
    for row in rows:
        docs[row["file"]] = parse_document((root / row["file"]).read_bytes(), ocr_engine=ocr)
    return docs


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


def measure(name: str, ocr: OcrEngine, show_errors: bool) -> None:
    """Print the per-field table and the field accuracy of each version config on set ``name``."""
    root, spec_dir, configs = _set(name)
    spec = tomllib.loads((spec_dir / "dataset.toml").read_text(encoding="utf-8"))
    specs = parse_field_specs(
        spec.get("fields", {}), date_order=spec.get("dataset", {}).get("date_order", "YMD")
    )
    rows = _rows(root)
    start = time.perf_counter()
    docs = _parse(root, rows, ocr)
    parsed_in = time.perf_counter() - start
    truth = {row["file"]: row["ground_truth"] for row in rows}
    predictions: dict[str, dict[str, Mapping[str, Any]]] = {}
    start = time.perf_counter()
    for version, path in configs.items():
        config = validate_config(json.loads(path.read_text(encoding="utf-8")))
        predictions[version] = {file: extract(doc, config) for file, doc in docs.items()}
    extracted_in = time.perf_counter() - start
    frame = build_frame(truth, predictions)
    versions = list(configs)
    result = compare(frame, specs, baseline=versions[0], candidate=[*versions, None][1])
    timing = f"parse {parsed_in:.1f} s, extract {extracted_in:.1f} s"
    print(f"== {name}: {len(rows)} documents ({timing})")
    print("\n".join(_table(result, versions)))
    for version in versions:
        good, support = _accuracy(result, version)
        print(f"{name} {version}: field accuracy {good}/{support} = {good / support:.3f}")
    if show_errors:
        cells = result.cells
        bad = cells.loc[cells["outcome"].isin(["wrong", "missed"])]
        for _, cell in bad.sort_values(["version", "field", "item"]).iterrows():
            print(
                f"  {cell['version']} {cell['field']}: {cell['item']}: "
                f"got {cell['predicted']!r} want {cell['expected']!r}"
            )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="engine_accuracy.py", description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", default=["invoices", *REAL_SETS])
    parser.add_argument("--show-errors", action="store_true", help="list wrong and missed values")
    parser.add_argument("--no-cache", action="store_true", help="run OCR without the disk cache")
    args = parser.parse_args(argv)
    for name in args.sets:
        if name != "invoices" and name not in REAL_SETS:
            parser.error(f"unknown set {name!r} (invoices, {', '.join(REAL_SETS)})")
        if name != "invoices" and not (SHARED / name).is_dir():
            parser.error(f"{SHARED / name} is missing: the real sets live in ../shared/datasets")
    ocr = OcrEngine() if args.no_cache else CachedOcr()
    for name in args.sets:
        measure(name, ocr, args.show_errors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
