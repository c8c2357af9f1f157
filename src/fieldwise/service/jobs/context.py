"""What the job machinery needs of the service it runs in, named here so that ``jobs/`` does
not import the service's state (which is built from ``jobs/``, among others): any object with
these attributes will do, and ``ServiceState`` is one."""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import Engine

from fieldwise._config import ServiceSettings
from fieldwise.service.clock import Clock
from fieldwise.service.jobs.leases import LeaseKeeper


class Wakes(Protocol):
    """Who is told that work on a target ended (the requests held on it)."""

    def notify(self, target_id: str) -> None: ...


class JobContext(Protocol):
    """The database, clock, leases and settings a worker pool and a job's handler use."""

    @property
    def settings(self) -> ServiceSettings: ...

    @property
    def engine(self) -> Engine: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def leases(self) -> LeaseKeeper: ...

    @property
    def waiters(self) -> Wakes: ...
