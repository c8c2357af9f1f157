"""The process's job workers, started once this process may claim jobs.

On PostgreSQL any number of processes claim side by side (``FOR UPDATE SKIP LOCKED``, leases).
On SQLite one process at a time may claim: it holds an exclusive lock on a file beside the
database (released by the kernel when the process dies, even by SIGKILL). A second process on
the same file says so, serves requests, runs no jobs, and takes over when the first one stops;
since only the lock holder ever claims, the jobs it finds held by other processes at that
moment are orphans and are recovered at once, whatever their leases say.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Protocol

from sqlalchemy.engine import make_url

log = logging.getLogger("fieldwise.service.jobs")

_STANDBY_POLL_SECONDS = 1.0


class Pool(Protocol):
    def start(self, *, every_other_owner: bool = False) -> None: ...

    def stop(self) -> None: ...


def claim_lock_path(database_url: str) -> Path | None:
    """The lock file of a SQLite database (None for servers such as PostgreSQL)."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(f"{url.database}.claims.lock")


class ClaimLock:
    """An exclusive, non-blocking ``flock`` on ``path``; the holder's pid is written in it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def acquire(self) -> bool:
        handle = self.path.open("a+")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle
        return True

    def holder(self) -> str:
        try:
            return self.path.read_text().strip() or "unknown"
        except OSError:
            return "unknown"

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None


class JobWorkers:
    """Starts ``pools`` now (PostgreSQL, or the SQLite lock taken) or once the lock frees."""

    def __init__(
        self, database_url: str, pools: Sequence[Pool], announce: Callable[[str], None]
    ) -> None:
        path = claim_lock_path(database_url)
        self.lock = ClaimLock(path) if path else None
        self.pools = list(pools)
        self.announce = announce
        self.claiming = threading.Event()
        self._stop = threading.Event()
        self._standby: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        if self.lock is None:
            self._start_pools(every_other_owner=False)
        elif self.lock.acquire():
            self._start_pools(every_other_owner=True)
        else:
            self.announce(
                f"fieldwise: another process (pid {self.lock.holder()}) runs the jobs of this "
                "SQLite database; this one answers requests but runs no jobs until that one "
                "stops. To share the work between processes, use PostgreSQL "
                "(FIELDWISE_DATABASE_URL)."
            )
            self._standby = threading.Thread(
                target=self._wait_for_lock, name="fieldwise-standby", daemon=True
            )
            self._standby.start()

    def _start_pools(self, *, every_other_owner: bool) -> None:
        for pool in self.pools:
            pool.start(every_other_owner=every_other_owner)
        self.claiming.set()

    def _wait_for_lock(self) -> None:
        assert self.lock is not None
        while not self._stop.wait(_STANDBY_POLL_SECONDS):
            if self.lock.acquire():
                log.warning("took over the jobs of %s", self.lock.path)
                self._start_pools(every_other_owner=True)
                return

    def stop(self) -> None:
        self._stop.set()
        if self._standby is not None:
            self._standby.join(timeout=30)
        if self.claiming.is_set():
            for pool in reversed(self.pools):
                pool.stop()
            self.claiming.clear()
        if self.lock is not None:
            self.lock.release()
