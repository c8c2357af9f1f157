"""Acceptance: ``fieldwise report`` on a run set of one million documents writes an HTML file
under 20 MB — the summary, the charts and the top disagreements per field — and links the
Parquet that holds every unit.

The run set (1M documents x 1 field x 2 versions) is written to disk directly in the
runner's format, in bulk (the runner's one-fsync-per-record writer would spend the test's
time on fsyncs), then read by the real command.

Marked ``slow``; nothing deselects the marker, so CI runs it: it only says so. Writing the run
set takes about 10 s; the rest is the command itself, a per-record pipeline over 3M JSON lines
with no one hot spot (profiled 2026-11-28: reading the run set about half, building and
comparing the frame most of the rest): about 160 s of CPU, 7 min on a loaded 2-core machine.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from fieldwise.cli import main
from fieldwise.runner import Manifest, VersionRef, create_runset

DOCUMENTS = 1_000_000
RESULTS = Path("results")
SPEC = {"date_order": "YMD", "fields": {"invoice_number": {"type": "string"}}}


def _write_million(results: Path) -> str:
    manifest = Manifest(
        runset_id="rs_million",
        service_identity="local",
        base_url="http://127.0.0.1:1",
        processor_id="proc",
        eval_set_id="es_1",
        eval_set_name="invoices",
        dataset="invoices",
        ground_truth_hash=None,
        versions=(VersionRef("v1", "v1"), VersionRef("v2", "v2")),
        item_count=DOCUMENTS,
        created_at="2026-03-01T12:00:00Z",
        arguments={"eval_set_metadata": {"compare_spec": SPEC}},
    )
    directory = create_runset(results, manifest, [])
    # the item snapshot and the records, written in bulk (same lines as the runner writes)
    with (directory / "items.jsonl").open("w") as items:
        for k in range(DOCUMENTS):
            items.write(
                f'{{"file": "documents/d{k:07d}.pdf", "file_id": "f{k}", '
                f'"file_sha256": "s{k}", "ground_truth": {{"invoice_number": "N{k}"}}, '
                f'"item_id": "it{k:07d}"}}\n'
            )
    with (directory / "records.jsonl").open("w") as records:
        for version, wrong_every in (("v1", 10), ("v2", 12)):
            records.writelines(
                f'{{"attempts": 1, "cached": false, "error": null, '
                f'"file": "documents/d{k:07d}.pdf", "file_sha256": "s{k}", '
                f'"finished_at": "2026-03-01T12:00:01Z", "item_id": "it{k:07d}", '
                f'"latency_ms": 1, "output": {{"value": {{"invoice_number": '
                f'"{"X" if k % wrong_every == 0 else f"N{k}"}"}}}}, "run_id": "r{version}{k}", '
                f'"status": "succeeded", "version_alias": null, "version_id": "{version}"}}\n'
                for k in range(DOCUMENTS)
            )
    return "rs_million"


@pytest.mark.slow
def test_a_million_document_report_stays_under_20_mb(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runset = _write_million(RESULTS)
    out = tmp_path / "report"
    with pytest.raises(SystemExit) as exited:
        main(
            [
                "report", runset, "--format", "html", "-o", str(out),
                "--results-dir", str(RESULTS),
            ]
        )  # fmt: skip
    assert exited.value.code in (0, 1, 3), capsys.readouterr().err
    html = out / "report.html"
    size = html.stat().st_size
    assert size < 20 * 1024 * 1024, f"{size / 1e6:.1f} MB"
    text = html.read_text(encoding="utf-8")
    assert "items.parquet" in text  # the link to every unit
    assert "1,000,000" in text  # the summary counts every document
    units = pq.ParquetFile(out / "items.parquet").metadata.num_rows
    assert units == DOCUMENTS  # every (document, field) unit is in the Parquet
