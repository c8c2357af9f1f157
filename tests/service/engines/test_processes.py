"""Parsing and extraction run on worker processes; a dying worker fails only its own run.

``EnginePool`` pickles each function by name, so the children run whatever
``fieldwise.service.engines.processes._parse`` names at submit time: the tests point it at
:func:`parse_or_die` below, which ends its process (``os._exit``) on a document carrying
``POISON`` and parses anything else as usual. A child's kept documents are tested in this
process, through the same task functions.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fieldwise.client import Client, ops
from fieldwise.service.engines import processes
from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import ParsedDocument, ParseLimits, parse_document
from fieldwise.service.engines.parsing.stored import StoredDocument, decode_document
from tests.service.resources.runs.conftest import CONFIG, invoice, make_processor, wait_run

INVOICES = Path(__file__).resolve().parents[3] / "datasets" / "invoices"

POISON = b"KILL-THE-WORKER"


def parse_or_die(
    key: str, data: bytes, filename: str | None, content_type: str | None, limits: ParseLimits
) -> Any:
    """In a worker process: die on the poison document, else parse as the pool does."""
    if POISON in data:
        os._exit(3)
    return processes._parse(key, data, filename, content_type, limits)


def _parse(pool: processes.EnginePool, data: bytes, key: str = "k") -> ParsedDocument:
    stored = pool.parse(data, key=key, filename="a.txt", content_type=None, limits=ParseLimits())
    return decode_document(stored)


def test_the_pool_parses_and_extracts_as_in_process() -> None:
    pool = processes.EnginePool(2)
    try:
        data = invoice(7)
        doc = _parse(pool, data)
        assert doc == parse_document(data, filename="a.txt")
        config = validate_config(CONFIG)
        expected = extract(doc, config, confidence_threshold=0.5)
        # Kept by the process that parsed it, decoded from the bytes by any other: the same.
        for _ in range(4):
            assert pool.extract(StoredDocument.of("k", doc), config, 0.5) == expected
        # A key no process has seen: decoded from the bytes sent.
        assert pool.extract(StoredDocument.of("new", doc), config, 0.5) == expected
    finally:
        pool.close()


def child_ocr_threads() -> int | None:
    """In a worker process: the threads its OCR engine was made with."""
    return processes._ocr.threads if processes._ocr is not None else None


def test_ocr_threads_share_the_cores_out() -> None:
    cores = os.cpu_count() or 1
    assert processes.ocr_threads(1) == cores
    assert processes.ocr_threads(cores) == 1
    assert processes.ocr_threads(cores * 4) == 1  # never none
    assert processes.ocr_threads(0) == cores


def test_the_pool_ocrs_on_its_share_of_the_cores_and_reads_the_same_text() -> None:
    scan = json.loads((INVOICES / "generator.json").read_text())["documents"]
    data = (INVOICES / next(d["file"] for d in scan if d["scanned"])).read_bytes()
    pool = processes.EnginePool(2)
    try:
        assert pool._call(child_ocr_threads) == processes.ocr_threads(2)
        doc = decode_document(
            pool.parse(data, key="s", filename="s.pdf", content_type=None, limits=ParseLimits())
        )
    finally:
        pool.close()
    assert doc.pages[0].source == "ocr"
    assert doc == parse_document(data, filename="s.pdf")  # ONNX Runtime's threads here


def test_a_process_keeps_what_it_parsed_and_decoded_within_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Run here, as a child would: the initializer's store, then its tasks.
    monkeypatch.setattr(processes, "_kept", processes._Kept())
    monkeypatch.setattr(processes, "KEPT", 2)
    config = validate_config(CONFIG)
    stored = processes._parse("a", invoice(1), "a.txt", None, ParseLimits())
    kept = processes._kept
    assert kept is not None
    first = kept.get("a")
    assert first is not None
    assert first == decode_document(stored)
    # A kept document is used as is; the bytes sent are not read again.
    assert processes._extract("a", b"not json", config, None, None) == extract(first, config)
    processes._extract(
        "b", StoredDocument.of("b", parse_document(invoice(2))).data, config, None, None
    )
    assert kept.get("b") is not None
    processes._parse("c", invoice(3), "c.txt", None, ParseLimits())  # a, least recent, goes
    assert kept.get("a") is None
    assert kept.get("c") is not None
    monkeypatch.setattr(processes, "KEPT_BYTES", 10)  # past the bound alone: not kept
    processes._parse("d", invoice(4), "d.txt", None, ParseLimits())
    assert kept.get("d") is None


def test_a_crashed_worker_is_replaced_and_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processes, "_parse", parse_or_die)
    pool = processes.EnginePool(1)
    try:
        with pytest.raises(processes.WorkerCrashed, match="stopped unexpectedly"):
            _parse(pool, POISON)
        assert "INV-0003" in _parse(pool, invoice(3)).text
    finally:
        pool.close()


def test_a_run_whose_worker_dies_fails_and_the_others_succeed(
    monkeypatch: pytest.MonkeyPatch, client: Client, upload: Callable[[bytes, str], str]
) -> None:
    monkeypatch.setattr(processes, "_parse", parse_or_die)
    pid = make_processor(client)
    poison = upload(b"Invoice No: INV-0666\n" + POISON + b"\n", "poison.txt")
    good = [upload(invoice(n), f"{n}.txt") for n in (1, 2, 3)]
    runs = [client.call(ops.create_run(pid, f)).id for f in (poison, *good)]
    finished = [wait_run(client, pid, run_id, timeout=120) for run_id in runs]
    assert finished[0].status == "failed"
    assert finished[0].failure_reason == "worker_crashed"
    for n, run in zip((1, 2, 3), finished[1:], strict=True):
        assert run.status == "succeeded", run.failure_message
        assert run.output["value"]["invoice_number"] == f"INV-{n:04d}"
    again = client.call(ops.create_run(pid, good[0])).id
    assert wait_run(client, pid, again, timeout=120).status == "succeeded"


def test_warm_starts_every_process_before_the_first_task() -> None:
    pool = processes.EnginePool(2)
    try:
        pool.warm()
        executor = pool._executor
        assert executor is not None
        assert len(executor._processes) == min(2, os.cpu_count() or 1)
        pool.warm()  # once is enough: no more processes
        assert len(executor._processes) == min(2, os.cpu_count() or 1)
        data = invoice(5)
        assert _parse(pool, data) == parse_document(data, filename="a.txt")
        assert pool._executor is executor  # the warmed processes did the work
    finally:
        pool.close()
    pool.warm()  # once closed, warming starts nothing (and does not raise)
    assert pool._executor is None


def test_no_more_processes_than_cores() -> None:
    assert processes.EnginePool(64).workers == (os.cpu_count() or 1)
    assert processes.EnginePool(0).workers == 1


def _watch_then_wait(parent: int) -> None:
    """In a child: watch ``parent`` as the pool's initializer does, then idle as a worker
    waiting for tasks would (an hour: only the watcher can end it)."""
    processes._watch_parent(parent)
    time.sleep(3600)


def test_a_child_whose_parent_died_before_it_started_watching_exits() -> None:
    # The parent the pool names (its own pid, taken when it made the child) is not this child's
    # parent any more, as when the service died while the child was still starting: the
    # watcher must see that at once, not watch whichever process inherited the child.
    gone = multiprocessing.get_context("spawn").Process(target=os.getpid)
    gone.start()
    gone.join()
    child = multiprocessing.get_context("spawn").Process(target=_watch_then_wait, args=(gone.pid,))
    child.start()
    child.join(timeout=60)  # only a guard against a hang; the child exits as it starts
    try:
        assert child.exitcode == 0
    finally:
        if child.exitcode is None:
            child.kill()
            child.join()
