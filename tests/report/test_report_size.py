"""``fieldwise report`` on a large run set writes an HTML file whose size does not grow with the
number of documents — the summary, the charts and the top disagreements per field — and links
the Parquet that holds every unit.

The promise is "a million-document report stays under 20 MB". This test holds its cause rather
than one point: the HTML of 25,000 and of 100,000 documents differ by a few bytes (the counts
printed), so the page is bounded whatever the size, while ``items.parquet`` grows with every
unit. Running the million itself cost about 160 s of CPU per CI run (a per-record pipeline over
3M JSON lines), a ninth of the whole suite, and proved no more than this.

Each run set (N documents x 1 field x 2 versions) is written to disk directly in the runner's
format, in bulk (the runner's one-fsync-per-record writer would spend the test's time on
fsyncs), then read by the real command.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from fieldwise.cli import main
from fieldwise.runner import Manifest, VersionRef, create_runset

# both past the 20,000 units a page shows in full (below that the page holds every unit)
SMALL, LARGE = 25_000, 100_000
RESULTS = Path("results")
SPEC = {"date_order": "YMD", "fields": {"invoice_number": {"type": "string"}}}


def _write_runset(results: Path, documents: int) -> str:
    manifest = Manifest(
        runset_id=f"rs_{documents}",
        service_identity="local",
        base_url="http://127.0.0.1:1",
        processor_id="proc",
        eval_set_id="es_1",
        eval_set_name="invoices",
        dataset="invoices",
        ground_truth_hash=None,
        versions=(VersionRef("v1", "v1"), VersionRef("v2", "v2")),
        item_count=documents,
        created_at="2026-03-01T12:00:00Z",
        arguments={"eval_set_metadata": {"compare_spec": SPEC}},
    )
    directory = create_runset(results, manifest, [])
    # the item snapshot and the records, written in bulk (same lines as the runner writes)
    with (directory / "items.jsonl").open("w") as items:
        for k in range(documents):
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
                for k in range(documents)
            )
    return f"rs_{documents}"


def _report(runset: str, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        main(
            [
                "report", runset, "--format", "html", "-o", str(out),
                "--results-dir", str(RESULTS),
            ]
        )  # fmt: skip
    assert exited.value.code in (0, 1, 3), capsys.readouterr().err
    return (out / "report.html").read_text(encoding="utf-8")


def test_the_report_page_does_not_grow_with_the_documents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pages = {}
    for documents in (SMALL, LARGE):
        out = tmp_path / f"report-{documents}"
        text = _report(_write_runset(RESULTS, documents), out, capsys)
        assert "items.parquet" in text  # the link to every unit
        assert f"{documents} documents evaluated" in text  # the gate counts every document
        units = pq.ParquetFile(out / "items.parquet").metadata.num_rows
        assert units == documents  # every (document, field) unit is in the Parquet
        pages[documents] = len(text.encode("utf-8"))
    # four times the documents, the same page: only printed counts and ids may differ in length
    assert abs(pages[LARGE] - pages[SMALL]) < 0.01 * pages[SMALL], pages
    assert pages[LARGE] < 20 * 1024 * 1024
