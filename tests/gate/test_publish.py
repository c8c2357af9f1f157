"""Publishing through the real local service only what passed; ``force`` is logged."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fieldwise.client import Client
from fieldwise.gate import Policy, PublishRefused, Verdict, decide, publish_if_passed
from tests.gate._build import scores


def drafted(client: Client) -> str:
    client.create_processor("inv")
    return client.create_version(
        "inv", {"fields": [{"name": "total", "type": "currency", "labels": ["Total"]}]}
    ).id


def verdict_for(version_id: str, *, passed: bool) -> Verdict:
    result = scores(9, 9, 10)
    verdict = decide(result, Policy(min_accuracy=0.5 if passed else 0.95))
    return replace(verdict, candidate=version_id)


def test_publishes_a_passed_version(client: Client) -> None:
    version_id = drafted(client)
    published = publish_if_passed(client, "inv", version_id, verdict_for(version_id, passed=True))
    assert published.status == "published"


def test_refuses_a_failed_version(client: Client) -> None:
    version_id = drafted(client)
    refused = r"the gate failed: overall field accuracy 90\.00%"
    with pytest.raises(PublishRefused, match=refused) as info:
        publish_if_passed(client, "inv", version_id, verdict_for(version_id, passed=False))
    assert info.value.exit_code == 1
    (version,) = client.list_versions("inv")
    assert version.status == "drafted"


def test_refuses_a_verdict_for_another_version(client: Client) -> None:
    version_id = drafted(client)
    with pytest.raises(PublishRefused, match="the verdict is for version 'ver_other'"):
        publish_if_passed(client, "inv", version_id, verdict_for("ver_other", passed=True))


def test_force_publishes_and_logs(client: Client) -> None:
    version_id = drafted(client)
    logged: list[str] = []
    verdict = verdict_for(version_id, passed=False)
    published = publish_if_passed(client, "inv", version_id, verdict, force=True, log=logged.append)
    assert published.status == "published"
    assert len(logged) == 1
    assert logged[0].startswith(f"FORCED publish of inv/{version_id} despite: the gate failed")


def test_force_default_log_goes_to_logging(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    version_id = drafted(client)
    with caplog.at_level("WARNING", logger="fieldwise.gate"):
        publish_if_passed(client, "inv", version_id, verdict_for("x", passed=True), force=True)
    assert "FORCED publish" in caplog.text
