"""Publish the version a run set's saved verdict passed: what ``fieldwise publish`` does; and
record the verdicts at the service, where the console checks them before a publish."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fieldwise._errors import PublishRefused
from fieldwise.client import Client, VerdictRecord, Version, record_verdicts
from fieldwise.evaluate._analysis import Analysis
from fieldwise.evaluate._regate import Regated
from fieldwise.gate import load_verdict, publish_if_passed
from fieldwise.runner import DEFAULT_RESULTS_DIR, load_runset, resolve_version, verdict_path

__all__ = ["publish_passed", "record_at_service"]


def record_at_service(
    decided: Analysis | Regated,
    *,
    identity: str,
    client: Callable[[], Client] | None,
    note: Callable[[str], None],
) -> list[Version]:
    """Send each candidate's verdict to the service whose versions the run set ran, so its
    console asks for a typed confirmation before publishing one that did not pass.

    ``identity`` names the service ``client`` (called only when needed) talks to; ``None``
    when no service is running to talk to (``gate`` does not start the embedded service only
    to record). A run set of imported predictions has no service version to record on; one
    run against another service than this command's, or with no service running, is told
    through ``note`` (and ``fieldwise publish`` still checks the saved verdict). See
    :func:`fieldwise.client.record_verdicts` for a service without the extension."""
    manifest = decided.runset.manifest
    if not manifest.processor_id or not decided.verdicts:
        return []
    if manifest.service_identity != identity:
        note(
            f"the verdict was not recorded at a service: run set {manifest.runset_id} ran on "
            f"{manifest.service_identity}, this command talks to {identity}"
        )
        return []
    if client is None:
        note(
            f"the verdict was saved with run set {manifest.runset_id}, not recorded at the "
            "embedded service, which is not running (it is not started only for this): "
            "`fieldwise evaluate` records verdicts, and `fieldwise publish` checks the saved one"
        )
        return []
    records = [
        VerdictRecord(
            version_id=verdict.candidate,
            outcome=verdict.status,
            reasons=verdict.reasons,
            runset_id=manifest.runset_id,
            policy=verdict.policy_source,
        )
        for verdict in decided.verdicts
    ]
    return record_verdicts(client(), manifest.processor_id, records, note)


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
