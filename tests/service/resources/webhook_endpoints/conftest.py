"""The endpoints' routes are tested on the delivery tests' service (virtual clock, receivers)."""

from tests.service.events.webhooks.conftest import (  # noqa: F401
    clock,
    hooks,
    receivers,
    smtp,
    start_webhooks,
)
