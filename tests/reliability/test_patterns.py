"""A version's field ``pattern`` is user input: a catastrophically backtracking one must fail
its own run with a clear error, never freeze the service.

With Python's ``re`` the pattern below holds the GIL for longer than the universe's age on
the document's long line, so the service (a child process here, so a frozen one cannot take
the test down with it) stops answering and the run never ends. Every wait is bounded.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from fieldwise._errors import UnprocessableError
from fieldwise.client import Client, ops
from tests.conftest import TEST_KEY
from tests.reliability.conftest import CONFIG, TERMINAL, invoice, make_processor, wait_for
from tests.service.jobs.test_crash_recovery import _serve

EVIL = {"fields": [{"name": "code", "type": "string", "pattern": "(a|aa)+$"}]}
# A long line the pattern almost matches: each extra "a" multiplies re's work by ~1.6.
LONG_LINE = ("Reference: " + "a" * 5000 + "!\n").encode()
GUARD = 120.0  # seconds: only guards against a hang


def test_a_backtracking_pattern_fails_its_run_and_the_service_keeps_answering(
    tmp_path: Path,
) -> None:
    extra = {"FIELDWISE_MAX_PATTERN_SECONDS": "3"}
    with (
        _serve(tmp_path / "svc", tmp_path / "log", extra) as (_proc, base_url),
        Client(base_url, TEST_KEY, timeout=GUARD, max_retries=0) as client,
    ):
        good, _ = make_processor(client, "good", CONFIG)
        processor = client.create_processor("evil")
        drafted = client.create_version(processor.id, EVIL)
        long_file = client.upload_file(LONG_LINE, filename="long.txt").id
        run = client.call(ops.create_run(processor.id, long_file, version_id=drafted.id))
        wait_for(
            lambda: client.call(ops.get_run(processor.id, run.id)).status != "queued",
            timeout=GUARD,
        )
        # While the pattern backtracks, the API answers and other runs go through.
        answered = [client.call(ops.list_files()).data for _ in range(10)]
        assert all(answered)
        normal_file = client.upload_file(invoice(7), filename="ok.txt").id
        normal = client.call(ops.create_run(good, normal_file))
        done = wait_for(lambda: _terminal(client, good, normal.id), timeout=GUARD)
        assert done.status == "succeeded"
        assert done.output is not None
        assert done.output["value"]["invoice_number"] == "INV-0007"

        failed = wait_for(lambda: _terminal(client, processor.id, run.id), timeout=GUARD)
        assert failed.status == "failed"
        assert failed.failure_reason == "pattern_timeout"
        message = failed.failure_message or ""
        assert "'code'" in message
        assert "(a|aa)+$" in message
        assert "max_pattern_seconds" in message


def _terminal(client: Client, processor_id: str, run_id: str) -> object:
    run = client.call(ops.get_run(processor_id, run_id))
    return run if run.status in TERMINAL else None


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [("(a", "invalid regular expression"), ("a" * 1001, "longer than 1000 characters")],
)
def test_a_pattern_the_engine_cannot_run_is_refused_at_creation(
    client: Client, pattern: str, problem: str
) -> None:
    processor = client.create_processor("refused")
    config = {"fields": [{"name": "code", "type": "string", "pattern": pattern}]}
    with pytest.raises(UnprocessableError) as caught:
        client.create_version(processor.id, config)
    assert caught.value.status_code == 422
    assert "fields[0].pattern" in str(caught.value)
    assert problem in str(caught.value)
    with httpx.Client(
        base_url=client.base_url, headers={"x-api-key": TEST_KEY}, timeout=GUARD
    ) as http:
        listed = http.get(f"/processors/{processor.id}/versions")
    assert listed.status_code == 200
    assert listed.json()["data"] == []
