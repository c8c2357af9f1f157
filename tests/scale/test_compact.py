"""Compaction: a store written chunk by chunk keeps the same cells and figures with one part per
shard folder; compacting again changes nothing; a compaction stopped at any step (on real
files) neither loses nor doubles a cell, and compacting again finishes it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import fsspec
import pandas as pd
import pytest

from fieldwise._errors import CompareError
from fieldwise.scale import compact_shard, compact_store, write_header, write_parts
from fieldwise.scale._cells import read_shard, shard_folder
from fieldwise.scale._compact import compact_folder
from fieldwise.scale._execute import score_store
from tests.scale._data import SPECS, figures_of, generated_frame

SHARDS = 3
VERSIONS = ["v1", "v2"]


def _chunked_store(root: Path, chunks: int = 4, frame: pd.DataFrame | None = None) -> None:
    frame = generated_frame(240, seed=5) if frame is None else frame
    documents = frame["item"].nunique()
    items = sorted(frame["item"].unique())
    size = -(-documents // chunks)
    counts: dict[str, int] = {}
    for part in range(chunks):
        chunk = items[part * size : (part + 1) * size]
        written = write_parts(
            frame.loc[frame["item"].isin(chunk)], str(root), shards=SHARDS, part=part
        )
        counts = {v: counts.get(v, 0) + n for v, n in written.items()}
    write_header(str(root), shards=SHARDS, versions=VERSIONS, documents=documents, cells=counts)


def _cells(root: Path) -> list[pd.DataFrame]:
    return [read_shard(str(root), k, VERSIONS) for k in range(SHARDS)]


def _figures(root: Path) -> dict[str, Any]:
    result = score_store(str(root), SPECS, baseline="v1", candidates=["v2"], n_resamples=200)
    return figures_of(result)


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "header.json"
    }


def _assert_same(before: list[pd.DataFrame], root: Path) -> None:
    for old, new in zip(before, _cells(root), strict=True):
        pd.testing.assert_frame_equal(old, new)


def test_compaction_keeps_every_cell_and_figure_in_one_file_per_folder(tmp_path: Path) -> None:
    root = tmp_path / "store"
    _chunked_store(root)
    before, figures = _cells(root), _figures(root)
    folders = sorted(root.glob("version=*/shard=*"))
    assert len(folders) == SHARDS * len(VERSIONS)
    assert all(len(list(f.glob("part-*.parquet"))) == 4 for f in folders)

    assert compact_store(str(root)) == len(folders)

    for folder in folders:
        assert next(p.name for p in folder.iterdir()).startswith("part-c")
        assert len(list(folder.iterdir())) == 1
    _assert_same(before, root)
    assert _figures(root) == figures


def test_compacting_again_changes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "store"
    _chunked_store(root)
    compact_store(str(root))
    files = _files(root)
    assert compact_store(str(root)) == 0
    assert compact_shard(str(root), 1) == 0
    assert _files(root) == files


def test_parts_written_after_a_compaction_are_read_and_compacted_in(tmp_path: Path) -> None:
    root = tmp_path / "store"
    frame = generated_frame(130, seed=5)
    later = (frame["item"] >= "d0000100").to_numpy()
    _chunked_store(root, chunks=2, frame=frame.loc[~later])
    compact_store(str(root))
    # more documents, under a part name the compaction replaced (part-0): read, not hidden
    write_parts(frame.loc[later], str(root), shards=SHARDS, part=0)
    write_header(str(root), shards=SHARDS, versions=VERSIONS, documents=130, cells={})
    full = tmp_path / "full"
    _chunked_store(full, chunks=1, frame=frame)
    assert sum(len(f) for f in _cells(root)) == sum(len(f) for f in _cells(full))
    assert _figures(root) == _figures(full)
    compact_store(str(root))
    assert _figures(root) == _figures(full)
    assert all(len(list(f.iterdir())) == 1 for f in root.glob("version=*/shard=*"))


class _Stop(Exception):
    """The compaction's process dies here."""


class _Torn:
    """A file handle that writes the first bytes it is given, then dies."""

    def __init__(self, handle: Any) -> None:
        self._handle = handle

    def __enter__(self) -> _Torn:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()

    def write(self, data: bytes) -> int:
        self._handle.write(bytes(data)[:16])
        raise _Stop

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)


class _DiesAtStep:
    """The local file system, except that the ``step``-th change (a file opened for writing,
    a rename, a removal) is where the process dies: a write tears, a rename or removal does
    not happen."""

    def __init__(self, step: int) -> None:
        self._fs = fsspec.filesystem("file")
        self._step = step
        self.changes = 0

    def _change(self) -> bool:
        self.changes += 1
        return self.changes == self._step

    def open(self, path: str, mode: str = "rb", **kwargs: Any) -> Any:
        handle = self._fs.open(path, mode, **kwargs)
        if "w" in mode and self._change():
            return _Torn(handle)
        return handle

    def mv(self, source: str, target: str) -> None:
        if self._change():
            raise _Stop
        self._fs.mv(source, target)

    def rm(self, path: str) -> None:
        if self._change():
            raise _Stop
        self._fs.rm(path)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fs, name)


def test_a_compaction_stopped_at_any_step_loses_and_doubles_nothing(tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    _chunked_store(reference)
    before, figures = _cells(reference), _figures(reference)
    folder = shard_folder(str(tmp_path / "store"), "v2", 1)
    # a full compaction of one folder of 4 parts: write, commit, 4 removals, final rename
    steps = 1 + 1 + 4 + 1
    dead = 0
    for step in range(1, steps + 2):
        root = tmp_path / "store"
        _chunked_store(root)
        dying = _DiesAtStep(step)
        try:
            compact_folder(dying, folder)
        except _Stop:
            dead += 1
            _assert_same(before, root)  # a reader sees every cell once
            assert _figures(root) == figures
        else:
            assert dying.changes == steps  # the last step ran: no step was left untried
        compact_store(str(root))  # finishes what was stopped
        assert next(p.name for p in Path(folder).iterdir()).startswith("part-c")
        assert all(len(list(f.iterdir())) == 1 for f in root.glob("version=*/shard=*"))
        _assert_same(before, root)
        assert _figures(root) == figures
        shutil.rmtree(root)
    assert dead == steps


def test_compacting_a_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CompareError, match="no cell store"):
        compact_store(str(tmp_path / "nothing"))
