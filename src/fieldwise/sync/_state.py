"""Local sync state under ``.fieldwise/sync/``: which evaluation set a dataset maps to, per
service (so one dataset can be synced to several services)."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path


class SyncState:
    """Evaluation-set ids by set name, for one service identity."""

    def __init__(self, root: Path, service: str) -> None:
        key = hashlib.sha256(service.encode()).hexdigest()[:16]
        self.path = root / "sync" / f"{key}.json"
        self.service = service
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            data = {}
        sets = data.get("eval_sets") if isinstance(data, dict) else None
        self._sets: dict[str, str] = dict(sets) if isinstance(sets, dict) else {}

    def eval_set_id(self, name: str) -> str | None:
        return self._sets.get(name)

    def remember(self, name: str, eval_set_id: str) -> None:
        if self._sets.get(name) == eval_set_id:
            return
        self._sets[name] = eval_set_id
        self.path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps(
            {"service": self.service, "eval_sets": self._sets}, indent=2, sort_keys=True
        )
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(payload)
        os.replace(tmp, self.path)
