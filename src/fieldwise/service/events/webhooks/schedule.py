"""The retry schedule: after a failed automatic attempt, wait; after the last one, give up."""

from __future__ import annotations

from datetime import timedelta

#: Waits after the 1st, 2nd, … failed attempt: 9 retries, 23 h 51 min in all (within 24 h).
RETRY_DELAYS: tuple[timedelta, ...] = (
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=15),
    timedelta(minutes=30),
    timedelta(hours=1),
    timedelta(hours=2),
    timedelta(hours=4),
    timedelta(hours=8),
    timedelta(hours=8),
)
MAX_ATTEMPTS = 1 + len(RETRY_DELAYS)


def next_delay(failed_attempts: int) -> timedelta | None:
    """The wait after ``failed_attempts`` automatic failures, or None when the delivery is dead."""
    if failed_attempts < 1:
        raise ValueError("failed_attempts counts from 1")
    if failed_attempts > len(RETRY_DELAYS):
        return None
    return RETRY_DELAYS[failed_attempts - 1]
