"""The run cache: succeeded outputs keyed by (service, processor, version, file content hash).

A version's config never changes after it is created, so the same version on the same bytes
gives the same output; paying for that run twice is waste. Only succeeded outputs are cached.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_CACHE_PATH = Path(".fieldwise") / "cache" / "runs.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    service TEXT NOT NULL,
    processor_id TEXT NOT NULL,
    version_id TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    run_id TEXT,
    output TEXT NOT NULL,
    latency_ms INTEGER,
    stored_at TEXT NOT NULL,
    PRIMARY KEY (service, processor_id, version_id, sha256)
)
"""


@dataclass(frozen=True)
class CachedRun:
    run_id: str | None
    output: dict[str, Any]
    latency_ms: int | None


class RunCache:
    """A SQLite file shared by every run set (and every process) on this machine."""

    def __init__(self, path: Path = DEFAULT_CACHE_PATH) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # One connection per cache, used from the event loop thread only; writers in other
        # processes wait on the lock rather than fail.
        self._db = sqlite3.connect(path, timeout=30.0, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # No fsync per stored output: WAL survives a killed process as it is, and a power cut
        # can only lose the newest entries of a cache, which are computed again when missed.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)

    def get(
        self, service: str, processor_id: str, version_id: str, sha256: str
    ) -> CachedRun | None:
        row = self._db.execute(
            "SELECT run_id, output, latency_ms FROM runs "
            "WHERE service = ? AND processor_id = ? AND version_id = ? AND sha256 = ?",
            (service, processor_id, version_id, sha256),
        ).fetchone()
        if row is None:
            return None
        try:
            output = json.loads(row[1])
        except json.JSONDecodeError:
            return None
        return CachedRun(row[0], output, row[2]) if isinstance(output, dict) else None

    def put(
        self,
        service: str,
        processor_id: str,
        version_id: str,
        sha256: str,
        *,
        run_id: str | None,
        output: dict[str, Any],
        latency_ms: int | None,
        stored_at: str,
    ) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                service,
                processor_id,
                version_id,
                sha256,
                run_id,
                json.dumps(output, sort_keys=True, ensure_ascii=False),
                latency_ms,
                stored_at,
            ),
        )

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> RunCache:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
