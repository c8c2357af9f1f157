"""Recording the toolkit's gate verdicts at the service: the one place that sends them.

``PUT /processors/{id}/versions/{vid}/verdict`` is an extension of the service (docs/service.md):
the console asks for a typed confirmation before publishing a version whose last verdict is
not a pass, and records the override. A remote service may not implement it, so a 404 or 405
is told in one line and never fails the command: the verdict is still saved with the run set,
where ``fieldwise publish`` checks it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fieldwise._errors import APIStatusError
from fieldwise.client import _ops as ops
from fieldwise.client._client import Client
from fieldwise.client._models import Version

__all__ = ["MAX_REASONS", "MAX_REASON_CHARS", "VerdictRecord", "record_verdicts"]

#: The service keeps at most this many reasons per verdict, of at most ``MAX_REASON_CHARS``
#: each; past them the last reason says how many more there were, and a longer reason ends in
#: "…" (the report and the run set's verdict.json keep them all, whole).
MAX_REASONS = 200
MAX_REASON_CHARS = 10_000
#: What a service answers for a route it does not have.
_NOT_IMPLEMENTED = (404, 405)


@dataclass(frozen=True)
class VerdictRecord:
    """One candidate's verdict, as the service records it."""

    version_id: str
    outcome: str  # pass, fail or inconclusive
    reasons: tuple[str, ...] = ()
    runset_id: str | None = None
    policy: str | None = None


def _kept(reasons: tuple[str, ...]) -> list[str]:
    cut = [r if len(r) <= MAX_REASON_CHARS else r[: MAX_REASON_CHARS - 1] + "…" for r in reasons]
    if len(cut) <= MAX_REASONS:
        return cut
    return [*cut[: MAX_REASONS - 1], f"… and {len(cut) - MAX_REASONS + 1} more"]


def record_verdicts(
    client: Client,
    processor_id: str,
    records: Sequence[VerdictRecord],
    note: Callable[[str], None],
) -> list[Version]:
    """Record each verdict on its version; the versions as the service now has them.

    A service that answers 404 or 405 (no such route, or that version is not on it) gets one
    line through ``note`` and nothing more is sent; every other error is raised."""
    recorded: list[Version] = []
    for record in records:
        op = ops.record_verdict(
            processor_id,
            record.version_id,
            outcome=record.outcome,
            runset_id=record.runset_id,
            policy=record.policy,
            reasons=_kept(record.reasons),
        )
        try:
            recorded.append(client.call(op))
        except APIStatusError as exc:
            if exc.status_code not in _NOT_IMPLEMENTED:
                raise
            note(
                f"the verdict was not recorded at {client.base_url} ({op.describe()} answered "
                f"{exc.status_code}: {exc.message}); the service's console cannot show it, "
                "`fieldwise publish` still checks the run set's saved verdict"
            )
            return recorded
    return recorded
