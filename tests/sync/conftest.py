"""Fixtures of the sync tests: the real service with every request it receives logged."""

from __future__ import annotations

from typing import Any

import pytest

from fieldwise.service import RunningService
from tests.conftest import ServiceFactory
from tests.faults import RequestLog


@pytest.fixture
def logged(start_service: ServiceFactory) -> tuple[RunningService, RequestLog]:
    holder: dict[str, RequestLog] = {}

    def wrap(app: Any) -> RequestLog:
        holder["log"] = RequestLog(app)
        return holder["log"]

    service = start_service(wrap=wrap)
    return service, holder["log"]
