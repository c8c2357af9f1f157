"""The webhook fixtures of the service's delivery tests (tests/service/events/webhooks), for the
receiving side's tests here: they drive the same service on a virtual clock."""

from tests.service.events.webhooks.conftest import (  # noqa: F401
    clock,
    hooks,
    receivers,
    smtp,
    start_webhooks,
)
