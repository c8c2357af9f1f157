"""Publishing through the real local service only what passed; ``force`` is logged."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from fieldwise._errors import ConfigError
from fieldwise.client import Client
from fieldwise.gate import (
    Policy,
    PublishRefused,
    Verdict,
    decide,
    load_verdict,
    publish_if_passed,
    save_verdict,
)
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


def test_a_saved_verdict_loads_back_for_each_candidate(tmp_path: Path) -> None:
    passed, failed = verdict_for("ver_b", passed=True), verdict_for("ver_c", passed=False)
    path = save_verdict(tmp_path / "v.json", [passed, failed], runset_id="rs_1", processor_id="p")
    for version, wanted in (("ver_b", passed), ("ver_c", failed)):
        loaded = load_verdict(path, runset_id="rs_1", processor_id="p", version_id=version)
        assert (loaded.candidate, loaded.status, loaded.reasons, loaded.baseline) == (
            wanted.candidate,
            wanted.status,
            wanted.reasons,
            wanted.baseline,
        )
    # a version the run set did not judge gets the first verdict, which publish then refuses
    other = load_verdict(path, runset_id="rs_1", processor_id="p", version_id="ver_x")
    assert other.candidate == "ver_b"
    with pytest.raises(ConfigError, match="evaluated processor 'p', not 'q'"):
        load_verdict(path, runset_id="rs_1", processor_id="q", version_id="ver_b")
    with pytest.raises(ConfigError, match="run `fieldwise gate rs_2` first"):
        load_verdict(tmp_path / "none.json", runset_id="rs_2", processor_id="p", version_id="b")
