"""Answering a request once background work is done: poll without blocking the event loop."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi.concurrency import run_in_threadpool

from fieldwise.service.jobs.durable import TERMINAL

_POLL_SECONDS = 0.05


async def wait_terminal(load: Any, wait_seconds: float) -> Any:
    """Poll ``load()`` (run in a thread) until its status is terminal or time is up."""
    deadline = time.monotonic() + wait_seconds
    while True:
        row = await run_in_threadpool(load)
        if row is None or row.status in TERMINAL or time.monotonic() >= deadline:
            return row
        await asyncio.sleep(_POLL_SECONDS)
