"""Background workers that live as long as the app (job workers, webhook dispatcher, sweeper).

Each subsystem contributes a factory to :data:`FACTORIES`; ``create_app`` builds them all
from the service state, starts them in the lifespan, and stops them in reverse order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from fieldwise.service.events.webhooks.dispatcher import webhook_worker
from fieldwise.service.resources.evaluation_runs import evaluation_services
from fieldwise.service.resources.runs.background import run_services
from fieldwise.service.state import ServiceState


class Background(Protocol):
    def start(self) -> None: ...

    def stop(self) -> None: ...


BackgroundFactory = Callable[[ServiceState], Background]

#: Append a subsystem's factory here (one line each).
FACTORIES: tuple[BackgroundFactory, ...] = (
    webhook_worker,
    run_services,
    evaluation_services,
)
