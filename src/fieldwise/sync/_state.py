"""Local sync state under ``.fieldwise/sync/``: which evaluation set a dataset maps to, per
service (so one dataset can be synced to several services), and what the last sync left."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path


class SyncState:
    """Evaluation-set ids by set name, for one service identity, and per set the fingerprint
    of the last completed sync (see :mod:`fieldwise.sync._unchanged`)."""

    def __init__(self, root: Path, service: str) -> None:
        key = hashlib.sha256(service.encode()).hexdigest()[:16]
        self.path = root / "sync" / f"{key}.json"
        self.service = service
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            data = {}
        data = data if isinstance(data, dict) else {}
        sets = data.get("eval_sets")
        self._sets: dict[str, str] = dict(sets) if isinstance(sets, dict) else {}
        last = data.get("last_sync")
        self._last: dict[str, str] = dict(last) if isinstance(last, dict) else {}

    def eval_set_id(self, name: str) -> str | None:
        return self._sets.get(name)

    def last_sync(self, name: str) -> str | None:
        """The fingerprint recorded when the last sync of set ``name`` completed."""
        return self._last.get(name)

    def remember(self, name: str, eval_set_id: str) -> None:
        if self._sets.get(name) == eval_set_id:
            return
        self._sets[name] = eval_set_id
        self._last.pop(name, None)
        self._write()

    def record_sync(self, name: str, fingerprint: str | None) -> None:
        """Record (or, with None, forget) the fingerprint of a completed sync of ``name``."""
        if self._last.get(name) == fingerprint:
            return
        if fingerprint is None:
            self._last.pop(name, None)
        else:
            self._last[name] = fingerprint
        self._write()

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps(
            {"service": self.service, "eval_sets": self._sets, "last_sync": self._last},
            indent=2,
            sort_keys=True,
        )
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(payload)
        os.replace(tmp, self.path)
