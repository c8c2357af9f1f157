"""Webhooks of the local service: endpoints, signed deliveries on a retry schedule, dead
letters e-mailed to the admins, and the SSRF guard in front of every send."""

from fieldwise.service.events.webhooks.dispatcher import (
    DueRun,
    WebhookWorker,
    run_due,
    webhook_worker,
)
from fieldwise.service.events.webhooks.schedule import MAX_ATTEMPTS, RETRY_DELAYS
from fieldwise.service.events.webhooks.signing import DEFAULT_GRACE, new_secret
from fieldwise.service.events.webhooks.ssrf import UnsafeUrl, check_url, resolve_target

__all__ = [
    "DEFAULT_GRACE",
    "MAX_ATTEMPTS",
    "RETRY_DELAYS",
    "DueRun",
    "UnsafeUrl",
    "WebhookWorker",
    "check_url",
    "new_secret",
    "resolve_target",
    "run_due",
    "webhook_worker",
]
