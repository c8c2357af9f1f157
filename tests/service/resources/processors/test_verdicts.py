"""Verdicts recorded on versions over real HTTP: the client's one place that sends them keeps
what the service accepts (at most 200 reasons of at most 10,000 characters), a version the
service does not have is one note, and bad input is a 422 naming the field, never a 500."""

from __future__ import annotations

import httpx
import pytest

from fieldwise._errors import UnprocessableError
from fieldwise.client import (
    MAX_REASON_CHARS,
    MAX_REASONS,
    Client,
    VerdictRecord,
    ops,
    record_verdicts,
)
from fieldwise.service import RunningService
from tests.service.resources.runs.conftest import CONFIG, make_processor


def test_many_and_long_reasons_are_kept_within_the_service_bounds(client: Client) -> None:
    processor_id = make_processor(client, "Invoices")
    version = client.create_version(processor_id, CONFIG)
    reasons = (("x" * (MAX_REASON_CHARS + 5)), *(f"field_{i}: worse" for i in range(249)))
    notes: list[str] = []
    (recorded,) = record_verdicts(
        client,
        processor_id,
        [VerdictRecord(version.id, "fail", reasons, runset_id="rs_1", policy="gate.toml")],
        notes.append,
    )
    assert notes == []
    verdict = recorded.verdict
    assert verdict is not None
    assert (verdict.outcome, verdict.runset_id, verdict.policy) == ("fail", "rs_1", "gate.toml")
    assert len(verdict.reasons) == MAX_REASONS
    assert len(verdict.reasons[0]) == MAX_REASON_CHARS
    assert verdict.reasons[0].endswith("…")
    assert verdict.reasons[-1] == "… and 51 more"
    assert client.call(ops.get_version(processor_id, version.id)).verdict == verdict


def test_a_version_the_service_lacks_is_one_note(client: Client) -> None:
    processor_id = make_processor(client, "Invoices")
    notes: list[str] = []
    made = record_verdicts(client, processor_id, [VerdictRecord("ver_gone", "pass")], notes.append)
    assert made == []
    (note,) = notes
    assert "answered 404" in note
    assert "ver_gone" in note


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"outcome": "maybe"}, "outcome"),
        ({}, "outcome"),
        ({"outcome": "fail", "reasons": ["r"] * 201}, "reasons"),
        ({"outcome": "fail", "reasons": ["r" * 10_001]}, "reasons"),
        ({"outcome": "fail", "reasons": "not a list"}, "reasons"),
    ],
)
def test_bad_verdicts_are_422(
    service: RunningService, client: Client, body: dict[str, object], param: str
) -> None:
    processor_id = make_processor(client, "Invoices")
    version = client.create_version(processor_id, CONFIG)
    response = httpx.put(
        f"{service.base_url}/processors/{processor_id}/versions/{version.id}/verdict",
        json=body,
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    assert response.status_code == 422, response.text
    assert str(response.json()["error"]["param"]).startswith(param)
    with pytest.raises(UnprocessableError):
        client.call(ops.record_verdict(processor_id, version.id, outcome="maybe"))


def test_publishing_through_the_api_over_a_failed_verdict_records_the_key(
    client: Client,
) -> None:
    """What ``fieldwise publish --force`` does: the service records the override as it does
    for the console, naming the key instead of a session."""
    processor_id = make_processor(client, "Invoices")
    version = client.create_version(processor_id, CONFIG)
    notes: list[str] = []
    (failed,) = record_verdicts(
        client,
        processor_id,
        [VerdictRecord(version.id, "inconclusive", ("too few",))],
        notes.append,
    )
    assert notes == []
    published = client.publish_version(processor_id, version.id)
    override = published.publish_override
    assert override is not None
    assert (override.by, override.at) == ("operator key", published.published_at)
    assert override.verdict == failed.verdict
