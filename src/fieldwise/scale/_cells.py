"""Cells as typed Parquet, partitioned by version and by a shard of each document's hash.

Layout of a cell store (``<root>`` is a local path or any fsspec URL all workers can read)::

    <root>/header.json                                 format, provenance, shards, versions
    <root>/version=<id>/shard=<kkkk>/part-<n>.parquet  item, field, expected*, predicted*,
                                                       confidence

Hive-style folders, so the store also opens as one dataset in pyarrow, pandas or
``dask.dataframe.read_parquet``. Raw values keep their types: ``expected`` holds strings (and
objects and arrays as JSON), ``expected_number`` floats, ``expected_integer`` integers,
``expected_boolean`` booleans, and ``expected_kind`` says which (null for no value); the same
for ``predicted``. Encoding and decoding are vectorized per kind, so a million cells take
about a second, not a Python loop per cell.
Every cell of a document lies in the same shard of every version, so a shard is a set of whole
documents: the unit a worker scores.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import fsspec
import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from fieldwise import __version__
from fieldwise._errors import CompareError
from fieldwise._shards import shard_of
from fieldwise.scale._parts import folder_parts

__all__ = [
    "CELLS_FORMAT",
    "HEADER",
    "decode_values",
    "encode_values",
    "read_header",
    "read_shard",
    "shard_folder",
    "shard_of",
    "write_cells",
    "write_header",
    "write_parts",
]

CELLS_FORMAT = "fieldwise-cells/1"
HEADER = "header.json"


_KINDS = {str: "string", float: "number", int: "integer", bool: "boolean", dict: "object"}
_VALUES = ("expected", "predicted")


def _encode(table: pd.DataFrame, col: str) -> None:
    """Replace the raw value column ``col`` by its typed columns (see the module docstring)."""
    raw = table[col].to_numpy(dtype=object)
    types = pd.Series(raw).map(type).to_numpy(dtype=object)
    kind = np.full(len(raw), None, dtype=object)
    text = np.full(len(raw), None, dtype=object)
    number = np.full(len(raw), np.nan)
    integer = pd.array(np.zeros(len(raw), dtype=np.int64), dtype="Int64")
    integer[:] = pd.NA
    boolean = pd.array(np.zeros(len(raw), dtype=bool), dtype="boolean")
    boolean[:] = pd.NA
    for found in set(types):
        mask = types == found
        name = _KINDS.get(found)
        if found is float or issubclass(found, np.floating):
            values = raw[mask].astype(np.float64)
            present = ~np.isnan(values)
            idx = np.flatnonzero(mask)[present]
            kind[idx], number[idx] = "number", values[present]
        elif found is int or (issubclass(found, np.integer) and found is not bool):
            kind[mask], integer[mask] = "integer", raw[mask].astype(np.int64)
        elif found is bool or found is np.bool_:
            kind[mask], boolean[mask] = "boolean", raw[mask].astype(bool)
        elif found is str:
            kind[mask], text[mask] = "string", raw[mask]
        elif name == "object" or issubclass(found, list | tuple | dict):
            kind[mask] = "object" if issubclass(found, dict) else "array"
            text[mask] = [json.dumps(v, ensure_ascii=False, sort_keys=True) for v in raw[mask]]
        elif found is not type(None):
            kind[mask], text[mask] = "string", [str(v) for v in raw[mask]]
    table[col] = pd.array(text, dtype="string")
    table[f"{col}_kind"] = pd.Categorical(
        kind, categories=["string", "number", "integer", "boolean", "object", "array"]
    )
    table[f"{col}_number"] = number
    table[f"{col}_integer"] = integer
    table[f"{col}_boolean"] = boolean


def _kind_masks(kind: pd.Series) -> dict[str, npt.NDArray[np.bool_]]:
    """Where each kind is, from the categorical codes (no string compared per cell)."""
    if not isinstance(kind.dtype, pd.CategoricalDtype):
        kind = kind.astype("category")
    codes = np.asarray(kind.cat.codes, dtype=np.int64)
    return {str(name): codes == k for k, name in enumerate(kind.cat.categories)}


def _decode(table: pd.DataFrame, col: str) -> None:
    """Undo :func:`_encode`: ``col`` holds Python values of their original types again."""
    masks = _kind_masks(table.pop(f"{col}_kind"))
    number = table.pop(f"{col}_number")
    integer = table.pop(f"{col}_integer")
    boolean = table.pop(f"{col}_boolean")
    out = np.full(len(table), None, dtype=object)
    text = masks.get("string")
    if text is not None and text.any():
        out[text] = table[col].to_numpy(dtype=object)[text]
    for name, source in (("number", number), ("integer", integer), ("boolean", boolean)):
        mask = masks.get(name)
        if mask is None or not mask.any():
            continue  # no cell of this kind: the column is not converted at all
        if name == "number":
            out[mask] = source.to_numpy(dtype=np.float64, na_value=np.nan)[mask].tolist()
        else:
            out[mask] = source.to_numpy(dtype=object)[mask]
    for name in ("object", "array"):
        mask = masks.get(name)
        if mask is not None and mask.any():
            texts = table[col].to_numpy(dtype=object)[mask]
            out[np.flatnonzero(mask)] = [json.loads(t) for t in texts]
    table[col] = pd.Series(out, index=table.index, dtype=object)


def encode_values(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its raw ``expected`` / ``predicted`` columns typed for Parquet (a copy)."""
    out = table.reset_index(drop=True)
    for col in _VALUES:
        if col in out.columns:
            _encode(out, col)
    return out


def decode_values(table: pd.DataFrame) -> pd.DataFrame:
    """Undo :func:`encode_values` in place; returns ``table``."""
    for col in _VALUES:
        if f"{col}_kind" in table.columns:
            _decode(table, col)
    return table


def shard_folder(root: str, version: str, shard: int) -> str:
    """The folder of shard ``shard`` of ``version`` in the store at ``root``."""
    return f"{root.rstrip('/')}/version={version}/shard={shard:04d}"


def write_parts(
    frame: pd.DataFrame,
    root: str,
    *,
    shards: int,
    part: int = 0,
    document_hashes: Mapping[str, str] | None = None,
) -> dict[str, int]:
    """Write ``frame``'s cells into file ``part-<part>.parquet`` of each shard folder (so
    chunks of documents can be written one after another without holding them all); returns
    the cells written per version. The store is complete once :func:`write_header` ran."""
    if shards < 1:
        raise CompareError("a cell store needs at least one shard")
    fs, base = fsspec.core.url_to_fs(root)
    hashes = document_hashes or {}
    items = pd.Index(frame["item"].astype(str).unique())
    shard_by_item = pd.Series(
        [shard_of(hashes.get(i, i), shards) for i in items], index=items, dtype=np.int64
    )
    shard = shard_by_item.reindex(frame["item"].astype(str)).to_numpy()
    counts: dict[str, int] = {}
    try:
        for version in sorted(str(v) for v in frame["version"].unique()):
            mask = (frame["version"].astype(str) == version).to_numpy()
            cells = frame.loc[mask, ["item", "field", "expected", "predicted", "confidence"]]
            cells = cells.assign(
                item=cells["item"].astype(str),
                field=cells["field"].astype(str),
                confidence=cells["confidence"].astype("float64"),
            )
            counts[version] = int(mask.sum())
            for k, rows in cells.groupby(shard[mask], sort=True):
                folder = shard_folder(base, version, int(str(k)))
                fs.makedirs(folder, exist_ok=True)
                table = rows.reset_index(drop=True)
                for col in _VALUES:
                    _encode(table, col)
                with fs.open(f"{folder}/part-{part}.parquet", "wb") as handle:
                    table.to_parquet(handle, index=False)
    except (OSError, ValueError, TypeError) as exc:
        raise CompareError(f"cannot write the cell store at {root}: {exc}") from exc
    return counts


def write_header(
    root: str,
    *,
    shards: int,
    versions: list[str],
    documents: int,
    cells: Mapping[str, int],
    provenance: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write the header that makes the store at ``root`` complete; returns it."""
    fs, base = fsspec.core.url_to_fs(root)
    header = {
        "format": CELLS_FORMAT,
        "fieldwise_version": __version__,
        "shards": shards,
        "versions": sorted(versions),
        "documents": documents,
        "cells": dict(cells),
        "provenance": dict(provenance or {}),
    }
    try:
        with fs.open(f"{base.rstrip('/')}/{HEADER}", "w") as handle:
            handle.write(json.dumps(header, indent=2, sort_keys=True) + "\n")
    except OSError as exc:
        raise CompareError(f"cannot write the cell store at {root}: {exc}") from exc
    return header


def write_cells(
    frame: pd.DataFrame,
    root: str,
    *,
    shards: int,
    provenance: Mapping[str, Any] | None = None,
    document_hashes: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Write ``frame`` (:data:`~fieldwise.compare.FRAME_COLUMNS`) as a cell store at ``root``
    in ``shards`` shards per version, replacing what was there; ``document_hashes`` (item ->
    content hash) decides the shard, else the item id. Returns the header, written last (a
    store with a header is complete)."""
    fs, base = fsspec.core.url_to_fs(root)
    try:
        # the header first (the store is incomplete from here on), then every version folder:
        # no stale shard of an earlier layout survives
        if fs.exists(f"{base.rstrip('/')}/{HEADER}"):
            fs.rm(f"{base.rstrip('/')}/{HEADER}")
        for folder in fs.glob(f"{base.rstrip('/')}/version=*"):
            fs.rm(folder, recursive=True)
    except OSError as exc:
        raise CompareError(f"cannot replace the cell store at {root}: {exc}") from exc
    counts = write_parts(frame, root, shards=shards, document_hashes=document_hashes)
    return write_header(
        root,
        shards=shards,
        versions=[str(v) for v in frame["version"].unique()],
        documents=int(frame["item"].nunique()),
        cells=counts,
        provenance=provenance,
    )


def read_header(root: str) -> dict[str, Any]:
    """The header of the cell store at ``root``; :class:`CompareError` when there is none or it
    has another format (a run set written before cell stores: compare it once to convert)."""
    fs, base = fsspec.core.url_to_fs(root)
    path = f"{base.rstrip('/')}/{HEADER}"
    try:
        with fs.open(path, "r") as handle:
            header: dict[str, Any] = json.loads(handle.read())
    except FileNotFoundError as exc:
        raise CompareError(f"no cell store at {root} (missing {HEADER})") from exc
    except (OSError, json.JSONDecodeError) as exc:
        raise CompareError(f"{path}: unreadable cell store header: {exc}") from exc
    if header.get("format") != CELLS_FORMAT:
        raise CompareError(
            f"{path}: cell store format {header.get('format')!r}, this fieldwise reads "
            f"{CELLS_FORMAT!r}"
        )
    return header


def read_shard(root: str, shard: int, versions: list[str]) -> pd.DataFrame:
    """Every cell of shard ``shard`` in ``versions``, as a comparison frame (values typed back).
    The parts of every version are concatenated as Arrow tables and decoded once: a shard
    written chunk by chunk has a part per chunk, and decoding each alone cost more than
    reading it. Parts a compaction replaced are skipped (see :mod:`fieldwise.scale._parts`)."""
    fs, base = fsspec.core.url_to_fs(root)
    tables = []
    for version in versions:
        for path in folder_parts(fs, shard_folder(base, version, shard)).live:
            with fs.open(path, "rb") as handle:
                part = pq.read_table(handle)
            tables.append(part.append_column("version", pa.array([version] * part.num_rows)))
    columns = ["item", "field", "version", "expected", "predicted", "confidence"]
    if not tables:
        return pd.DataFrame(columns=columns)
    table: pd.DataFrame = pa.concat_tables(tables, promote_options="permissive").to_pandas()
    for col in _VALUES:
        _decode(table, col)
    return table.loc[:, columns]
