"""The train → evaluate loop on a real set through the CLI and the embedded service.

Usage: python benchmarks/training_cli.py [SET] [--work DIR] [--param KEY=VALUE ...]

SET (default ``sroie-dev``) stays in ``../shared/datasets``: this builds a fieldwise dataset
under DIR (default: a new temporary folder) whose ``documents`` and ``ground_truth.jsonl`` are
symlinks to it, with the field types and rules config of ``benchmarks/real/<SET>/`` as the
published version and a ``[splits]`` of train 0.7 / test 0.3 by content hash (the split
``benchmarks/training.py`` uses). Then, each a whole process timed from the outside:

    fieldwise train DIR --split train --json
    fieldwise evaluate DIR --candidate trained:latest --split test --json

and prints the drafted version, its model hash, each version's field accuracy on test and the
report's per-field McNemar tests (read from the report's ``report.json``). The service OCRs
scanned documents itself (the benchmarks' OCR cache does not apply), which dominates the time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_accuracy import REAL_SETS, SHARED, _set

SPLITS = "\n[splits]\ntrain = 0.7\ntest = 0.3\n"


def layout(name: str, work: Path) -> Path:
    """A dataset folder for set ``name`` under ``work``: symlinked data, the rules version."""
    root, spec_dir, configs = _set(name)
    target = work / name
    (target / "processor").mkdir(parents=True, exist_ok=True)
    for entry in ("documents", "ground_truth.jsonl"):
        link = target / entry
        if not link.is_symlink():
            link.symlink_to(root / entry)
    rules = configs["config"].read_text(encoding="utf-8")
    (target / "processor" / "rules.json").write_text(rules, encoding="utf-8")
    spec = (spec_dir / "dataset.toml").read_text(encoding="utf-8")
    # the documents and ground truth are links into ../shared: the shared-storage case
    spec = spec.replace("[dataset]\n", "[dataset]\nfollow_symlinks = true\n", 1)
    processor = (
        f'\n[processor]\nname = "{name}-fields"\ntype = "extraction"\n'
        'description = "Rules version of benchmarks/real."\nbaseline = "processor/rules.json"\n'
    )
    (target / "dataset.toml").write_text(spec + processor + SPLITS, encoding="utf-8")
    return target


def _fieldwise(args: list[str], cwd: Path) -> tuple[dict[str, Any], float, float]:
    """Run ``fieldwise ARGS --json`` (nice 19); its JSON, wall seconds and children's max RSS."""
    command = ["nice", "-n", "19", str(Path(sys.executable).parent / "fieldwise"), *args]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=os.environ)
    wall = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if done.returncode not in (0, 1, 3):  # 1 and 3: the gate's verdict, still a result
        raise SystemExit(f"fieldwise {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return json.loads(done.stdout), wall, rss


def print_tests(report: dict[str, Any]) -> None:
    """Per field: each version's correct / support and the report's McNemar test."""
    for row in report["fields"]:
        base, cand = row["baseline"], row["candidate"]
        print(
            f"  {row['field']}: {base['correct']}/{row['support']} -> "
            f"{cand['correct']}/{row['support']}, fixed {row['fixed']}, regressed "
            f"{row['regressed']}, McNemar p {row['p_value']:.2g}, Holm p {row['p_holm']:.2g}, "
            f"significant {row['significant']}"
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="training_cli.py", description=__doc__.split("\n")[0])
    parser.add_argument("set", nargs="?", default="sroie-dev", choices=REAL_SETS)
    parser.add_argument("--work", type=Path, help="folder for the dataset and its state")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    if not (SHARED / args.set).is_dir():
        parser.error(f"{args.set} is missing from {SHARED}")
    work = args.work or Path(tempfile.mkdtemp(prefix="fieldwise-training-cli-"))
    dataset = layout(args.set, work.resolve())
    params = [x for p in args.param for x in ("--param", p)]
    trained, train_s, rss = _fieldwise(
        ["train", ".", "--split", "train", *params, "--json"], dataset
    )
    print(f"== {args.set} at {dataset}")
    print(
        f"fieldwise train . --split train: {train_s:.0f} s wall (sync, OCR and training; "
        f"max RSS {rss:.0f} MiB), {trained['items']} documents, version "
        f"{trained['version']['id']}, model sha256 {trained['model']['sha256'][:16]}"
    )
    report_dir = work / "report"
    evaluated, eval_s, rss = _fieldwise(
        ["evaluate", ".", "--candidate", "trained:latest", "--split", "test",
         "--format", "json,md", "-o", str(report_dir), "--json"],
        dataset,
    )  # fmt: skip
    print(
        f"fieldwise evaluate . --candidate trained:latest --split test: {eval_s:.0f} s wall "
        f"(max RSS {rss:.0f} MiB), verdict {evaluated['status']} (exit {evaluated['exit_code']})"
    )
    for version in evaluated["versions"]:
        print(
            f"  {version['label']}: field accuracy {version['field_accuracy']:.3f} "
            f"[{version['field_accuracy_low']:.3f}, {version['field_accuracy_high']:.3f}]"
        )
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    print_tests(report)
    print(f"report: {report_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
