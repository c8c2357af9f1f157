"""The run-set store: the only module that knows the layout of a run set's folder.

``<results_dir>/<runset_id>/`` holds the manifest (``runset.json``), the item snapshot
(``items.jsonl``) and the append-only records (``records.jsonl``): what the runner wrote. What
analysis keeps beside them goes through here too, so no other module names a file in the
folder: the saved verdicts (:func:`verdict_path`), the merged statistics
(:func:`read_statistics` / :func:`write_statistics`: a cache, written whole or not at all and
best effort, so a read-only run set is scored again next time and nothing fails) and the
optional partitioned cell store (:func:`cells_path`).

A run set made whole at once (an import) is written by :func:`write_whole_runset`: staged in
a hidden folder beside the others and renamed into place, so an interrupted write leaves no
half run set (at worst, after a kill, a hidden ``.staging-*`` folder that no listing reads).

``records.jsonl`` is written one line per finished pair and flushed at once, so a killed
process loses nothing; it is fsynced at most every :data:`SYNC_SECONDS` (and when the writer
closes), so a power cut loses at most the last moments' lines, whose pairs a resume runs again.
A crash can at worst leave a torn last line, which loading ignores (and the next writer starts
on a fresh line). When a pair has several records (a retried failure on resume), the
last one wins.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from fieldwise._errors import RunnerError
from fieldwise.runner._model import ItemSnapshot, LoadedRunSet, Manifest, RunRecord

DEFAULT_RESULTS_DIR = Path(".fieldwise") / "results"

MANIFEST = "runset.json"
ITEMS = "items.jsonl"
RECORDS = "records.jsonl"
VERDICT = "verdict.json"
STATISTICS = "statistics.json"
CELLS = "cells"  # a folder: the partitioned cell store (``fieldwise.scale``)
#: Every name the store gives to an entry of a run-set folder.
RUNSET_ENTRIES = (MANIFEST, ITEMS, RECORDS, VERDICT, STATISTICS, CELLS)


def new_runset_id(now: datetime) -> str:
    """``rs_<UTC timestamp>_<random>``: sortable by creation time, unique across machines."""
    return f"rs_{now.strftime('%Y%m%dT%H%M%S')}_{secrets.token_hex(3)}"


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def _jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)


#: ``records.jsonl`` is fsynced at most this often while records come in (one fsync per
#: record held back the runner's event loop by a disk flush per finished run).
SYNC_SECONDS = 0.25


class RecordWriter:
    """Appends records to one run set's ``records.jsonl``, one flushed line at a time."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / RECORDS
        self._handle: IO[str] = self.path.open("a+", encoding="utf-8")
        self._synced_at = time.monotonic()
        self._unsynced = False
        self._repair_torn_tail()

    def _repair_torn_tail(self) -> None:
        size = self._handle.seek(0, os.SEEK_END)
        if size == 0:
            return
        with self.path.open("rb") as raw:
            raw.seek(size - 1)
            last = raw.read(1)
        if last != b"\n":
            self._handle.write("\n")  # the torn line stays unparseable; new lines stay whole
            self._sync()

    def _sync(self) -> None:
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self._synced_at = time.monotonic()
        self._unsynced = False

    def append(self, record: RunRecord, *, durable: bool = True) -> None:
        """Write one record, flushed; fsynced too when the last fsync is :data:`SYNC_SECONDS`
        old. ``durable=False`` (cache hits, cheap to redo) leaves even the flush to a later
        :meth:`sync` or :meth:`close`."""
        self._handle.write(json.dumps(record.to_json(), sort_keys=True, ensure_ascii=False) + "\n")
        self._unsynced = True
        if not durable:
            return
        if time.monotonic() - self._synced_at >= SYNC_SECONDS:
            self._sync()
        else:
            self._handle.flush()

    def sync(self) -> None:
        self._sync()

    def close(self) -> None:
        if self._unsynced and not self._handle.closed:
            self._sync()
        self._handle.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def create_runset(results_dir: Path, manifest: Manifest, items: list[ItemSnapshot]) -> Path:
    """Write a new run set's manifest and item snapshot; return its folder."""
    directory = results_dir / manifest.runset_id
    directory.mkdir(parents=True, exist_ok=False)
    _write_atomic(directory / ITEMS, _jsonl([i.to_json() for i in items]))
    # The manifest goes last: a folder with a manifest always has its items.
    _write_atomic(
        directory / MANIFEST,
        json.dumps(manifest.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n",
    )
    (directory / RECORDS).touch()
    return directory


def write_whole_runset(
    results_dir: Path,
    manifest: Manifest,
    items: list[ItemSnapshot],
    records: Iterable[RunRecord],
) -> LoadedRunSet:
    """Write a complete run set (manifest, items, ``records`` in their order) atomically:
    staged in a hidden folder under ``results_dir``, then renamed to its id. Whatever stops the
    write (an error, an exception from ``records``, an interrupt) leaves no run set behind.

    :class:`RunnerError` when ``results_dir`` cannot hold it."""
    try:
        results_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=results_dir))
    except OSError as exc:
        raise RunnerError(f"cannot write a run set under {results_dir}: {exc}") from None
    final = results_dir / manifest.runset_id
    try:
        directory = create_runset(staging, manifest, items)
        written = []
        with RecordWriter(directory) as writer:
            for record in records:
                writer.append(record, durable=False)
                written.append(record)
            writer.sync()
        directory.rename(final)
    except OSError as exc:
        raise RunnerError(f"cannot write run set {manifest.runset_id}: {exc}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return LoadedRunSet(final, manifest, tuple(items), tuple(written))


def _read_lines(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSONL file, one line at a time.

    Lines end at ``\n`` only: the writer keeps non-ASCII characters as they are
    (``ensure_ascii=False``), and ``str.splitlines`` also breaks at U+2028, U+0085 and the
    other Unicode line boundaries, which cut such a record in two and dropped it as torn.
    Streamed, so a million records are never all held as text and as dicts at once.
    """
    if not path.exists():
        return
    with path.open(encoding="utf-8", errors="replace", newline="\n") as lines:
        for line in lines:
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line torn by a crash mid-write
            if isinstance(data, dict):
                yield data


def read_records(directory: Path) -> list[RunRecord]:
    """The records of a run set, the last one per (item, version) pair, in write order."""
    latest: dict[tuple[str, str], RunRecord] = {}
    for row in _read_lines(directory / RECORDS):
        try:
            record = RunRecord.from_json(row)
        except (KeyError, TypeError, ValueError):
            continue
        latest.pop(record.pair, None)
        latest[record.pair] = record
    return list(latest.values())


def read_runset(directory: Path) -> LoadedRunSet:
    """Read a run set folder; :class:`RunnerError` when it is not one."""
    manifest_path = directory / MANIFEST
    if not manifest_path.is_file():
        raise RunnerError(f"no run set at {directory} (missing {MANIFEST})")
    try:
        manifest = Manifest.from_json(json.loads(manifest_path.read_text(encoding="utf-8")))
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise RunnerError(f"{manifest_path}: unreadable manifest: {exc}") from exc
    items = tuple(ItemSnapshot.from_json(row) for row in _read_lines(directory / ITEMS))
    if len(items) != manifest.item_count:
        raise RunnerError(
            f"{directory / ITEMS}: {len(items)} items, the manifest says {manifest.item_count}"
        )
    return LoadedRunSet(directory, manifest, items, tuple(read_records(directory)))


def load_runset(runset_id: str, results_dir: Path = DEFAULT_RESULTS_DIR) -> LoadedRunSet:
    """The manifest, item snapshot and records of run set ``runset_id``."""
    return read_runset(Path(results_dir) / runset_id)


def list_runsets(results_dir: Path = DEFAULT_RESULTS_DIR) -> list[LoadedRunSet]:
    """Every readable run set under ``results_dir``, newest first (ids sort by time);
    folders that are not run sets are skipped."""
    if not Path(results_dir).is_dir():
        return []
    found = []
    for directory in sorted(Path(results_dir).glob("rs_*"), reverse=True):
        try:
            found.append(read_runset(directory))
        except RunnerError:
            continue
    return found


def find_incomplete(
    results_dir: Path, match: dict[str, Any], *, keys: tuple[str, ...]
) -> LoadedRunSet | None:
    """The newest run set under ``results_dir`` whose manifest arguments equal ``match`` on
    ``keys`` and that is missing pairs (what a restarted interrupted command resumes)."""
    if not results_dir.is_dir():
        return None
    for directory in sorted(results_dir.glob("rs_*"), reverse=True):
        try:
            loaded = read_runset(directory)
        except RunnerError:
            continue
        args = loaded.manifest.arguments
        if all(args.get(k) == match.get(k) for k in keys) and not loaded.complete:
            return loaded
    return None


def verdict_path(directory: Path) -> Path:
    """Where the run set's verdicts are saved (see :func:`fieldwise.gate.save_verdict`)."""
    return directory / VERDICT


def cells_path(directory: Path) -> Path:
    """The folder of the run set's partitioned cell store (written by ``fieldwise.scale``)."""
    return directory / CELLS


def records_stamp(directory: Path) -> list[int] | None:
    """Size and modification time (ns) of the records file: what a cache scored from the
    records must match to be reused (None when there are no records)."""
    try:
        stat = (directory / RECORDS).stat()
    except FileNotFoundError:
        return None
    return [stat.st_size, stat.st_mtime_ns]


def read_statistics(directory: Path) -> dict[str, Any] | None:
    """The statistics document saved with the run set; None when absent or unreadable."""
    try:
        data = json.loads((directory / STATISTICS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_statistics(directory: Path, document: dict[str, Any]) -> None:
    """Save the statistics document whole (best effort: nothing fails on a read-only set)."""
    try:
        tmp = directory / f".{STATISTICS}.tmp"
        tmp.write_text(json.dumps(document, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, directory / STATISTICS)
    except (OSError, ValueError, TypeError):
        return
