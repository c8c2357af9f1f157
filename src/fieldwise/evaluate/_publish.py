"""Publish the version a run set's saved verdict passed: what ``fieldwise publish`` does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fieldwise._errors import PublishRefused
from fieldwise.client import Client, Version
from fieldwise.gate import load_verdict, publish_if_passed
from fieldwise.runner import DEFAULT_RESULTS_DIR, load_runset, resolve_version, verdict_path

__all__ = ["publish_passed"]


def publish_passed(
    client: Client,
    *,
    runset_id: str,
    version: str,
    processor_id: str | None = None,
    results_dir: Path = DEFAULT_RESULTS_DIR,
    force: bool = False,
    log: Callable[[str], None] | None = None,
) -> Version:
    """Publish ``version`` (an alias, ``vN`` or a ``ver_…`` id, read as ``run`` reads it) of
    ``processor_id`` (default: the run set's processor) if the verdict ``gate`` (or
    ``report``, ``evaluate``) saved with run set ``runset_id`` passed it. :class:`PublishRefused`
    when the verdict failed or is about another version (naming both), unless ``force`` (then
    ``log`` is told what was overridden)."""
    runset = load_runset(runset_id, results_dir)
    processor = client.get_processor(processor_id or runset.manifest.processor_id)
    wanted = resolve_version(
        processor.id,
        processor.default_version_id,
        list(client.list_versions(processor.id)),
        version,
    )
    verdict = load_verdict(
        verdict_path(runset.directory),
        runset_id=runset_id,
        processor_id=processor.id,
        version_id=wanted.version_id,
    )
    if verdict.candidate != wanted.version_id and not force:
        judged = next(
            (ref for ref in runset.manifest.versions if ref.version_id == verdict.candidate), None
        )
        about = (
            f"{judged.name} ({judged.version_id}, asked for as {judged.requested!r})"
            if judged is not None
            else repr(verdict.candidate)
        )
        typed = f"{version!r} is {wanted.name}" if version != wanted.name else wanted.name
        raise PublishRefused(
            f"not publishing: {typed} ({wanted.version_id}), but run set {runset_id}'s verdict "
            f"is about {about}; evaluate {wanted.name} first, or publish the version the "
            "verdict is about"
        )
    return publish_if_passed(client, processor.id, wanted.version_id, verdict, force=force, log=log)
