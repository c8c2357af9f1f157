"""Publish the version a run set's saved verdict passed: what ``fieldwise publish`` does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fieldwise.client import Client, Version
from fieldwise.gate import load_verdict, publish_if_passed
from fieldwise.runner import DEFAULT_RESULTS_DIR, load_runset, verdict_path

__all__ = ["publish_passed"]


def publish_passed(
    client: Client,
    *,
    runset_id: str,
    processor_id: str,
    version_id: str,
    results_dir: Path = DEFAULT_RESULTS_DIR,
    force: bool = False,
    log: Callable[[str], None] | None = None,
) -> Version:
    """Publish ``version_id`` of ``processor_id`` if the verdict ``gate`` (or ``report``,
    ``evaluate``) saved with run set ``runset_id`` passed it; :class:`PublishRefused`
    otherwise, unless ``force`` (then ``log`` is told what was overridden)."""
    runset = load_runset(runset_id, results_dir)
    verdict = load_verdict(
        verdict_path(runset.directory),
        runset_id=runset_id,
        processor_id=processor_id,
        version_id=version_id,
    )
    return publish_if_passed(client, processor_id, version_id, verdict, force=force, log=log)
