"""Publish a drafted version only when its verdict passed (``force`` overrides, and is logged)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol, TypeVar

from fieldwise._errors import PublishRefused
from fieldwise.gate._verdict import Verdict

__all__ = ["Publisher", "publish_if_passed"]

T_co = TypeVar("T_co", covariant=True)


class Publisher(Protocol[T_co]):
    """What publishing needs of :class:`fieldwise.client.Client` (kept structural so the gate
    does not import httpx)."""

    def publish_version(self, processor_id: str, version_id: str) -> T_co: ...


def _warn(message: str) -> None:
    logging.getLogger("fieldwise.gate").warning(message)


def publish_if_passed(
    client: Publisher[T_co],
    processor_id: str,
    version_id: str,
    verdict: Verdict,
    force: bool = False,
    log: Callable[[str], None] | None = None,
) -> T_co:
    """Publish ``version_id`` of ``processor_id`` through ``client`` if ``verdict`` passed and
    is the verdict *for* that version; returns what ``client.publish_version`` returned.

    Raises :class:`PublishRefused` otherwise. ``force=True`` publishes anyway and reports the
    override through ``log`` (default: the ``fieldwise.gate`` logger).
    """
    problems = []
    if verdict.candidate != version_id:
        problems.append(f"the verdict is for version {verdict.candidate!r}, not {version_id!r}")
    if not verdict.passed:
        outcome = "was inconclusive" if verdict.status == "inconclusive" else "failed"
        problems.append(f"the gate {outcome}: " + "; ".join(verdict.reasons))
    if problems:
        if not force:
            raise PublishRefused(
                f"not publishing {processor_id}/{version_id}: " + "; ".join(problems)
            )
        told = log or _warn
        told(f"FORCED publish of {processor_id}/{version_id} despite: " + "; ".join(problems))
    return client.publish_version(processor_id, version_id)
