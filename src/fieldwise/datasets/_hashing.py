"""Content hashes: files (with a persistent cache) and a dataset's ground truth."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any

from fieldwise._digest import truth_hash
from fieldwise.datasets._model import Dataset

__all__ = ["HashCache", "file_sha256", "ground_truth_hash"]

_CHUNK = 1 << 20
_CACHE_VERSION = 1


class HashCache:
    """SHA-256 of files, cached by (absolute path, size, mtime_ns) in a JSON file.

    A file whose size and modification time are unchanged is not read again, which makes a
    re-sync of an unchanged dataset cost one ``stat`` per file. Use as a context manager (or
    call :meth:`save`) to persist new entries; the file is replaced atomically.
    """

    def __init__(self, cache_file: str | Path) -> None:
        self.cache_file = Path(cache_file)
        self._entries: dict[str, list[Any]] = {}
        self._dirty = False
        self.hits = 0
        self.misses = 0
        try:
            data = json.loads(self.cache_file.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            return  # a missing or corrupt cache only costs re-hashing
        if isinstance(data, dict) and data.get("version") == _CACHE_VERSION:
            entries = data.get("entries")
            if isinstance(entries, dict):
                self._entries = entries

    def sha256(self, path: str | Path) -> str:
        """The hex SHA-256 of ``path``, read from disk only if size or mtime changed."""
        # abspath, not resolve(): no syscalls per file on a re-sync of many unchanged files.
        key = os.path.abspath(path)
        stat = os.stat(key)
        cached = self._entries.get(key)
        if (
            isinstance(cached, list)
            and len(cached) == 3
            and cached[0] == stat.st_size
            and cached[1] == stat.st_mtime_ns
        ):
            self.hits += 1
            return str(cached[2])
        self.misses += 1
        digest = _sha256_of(Path(key))
        self._entries[key] = [stat.st_size, stat.st_mtime_ns, digest]
        self._dirty = True
        return digest

    def save(self) -> None:
        """Write the cache if it changed (atomically, so a crash never leaves half a file)."""
        if not self._dirty:
            return
        self.cache_file.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps({"version": _CACHE_VERSION, "entries": self._entries}, sort_keys=True)
        fd, tmp = tempfile.mkstemp(dir=self.cache_file.parent, prefix=".hashes-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload)
            os.replace(tmp, self.cache_file)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._dirty = False

    def __enter__(self) -> HashCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.save()


def file_sha256(path: str | Path, cache: HashCache | None = None) -> str:
    """The hex SHA-256 of the file at ``path``; with ``cache``, unchanged files are not re-read."""
    if cache is not None:
        return cache.sha256(path)
    return _sha256_of(Path(path))


def ground_truth_hash(dataset: Dataset) -> str:
    """A stable hex SHA-256 over every item's file and ground truth (canonical JSON, sorted)."""
    return truth_hash((item.file, item.ground_truth) for item in dataset.items)


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
