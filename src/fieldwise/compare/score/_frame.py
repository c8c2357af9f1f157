"""The comparison frame: one long table (item, field, version, expected, predicted, confidence)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from fieldwise._errors import CompareError

__all__ = ["FRAME_COLUMNS", "build_frame", "columns_frame", "flatten", "validate_frame"]

FRAME_COLUMNS = ("item", "field", "version", "expected", "predicted", "confidence")


def flatten(value: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested objects to dotted paths; arrays of objects stay one field (rows flattened too)."""
    out: dict[str, Any] = {}
    for key, item in value.items():
        path = f"{prefix}{key}"
        if isinstance(item, Mapping):
            out.update(flatten(item, f"{path}."))
        elif isinstance(item, list) and item and all(isinstance(r, Mapping) for r in item):
            out[path] = [flatten(r) for r in item]
        else:
            out[path] = item
    return out


def _confidence(metadata: Mapping[str, Any], path: str, value: Any) -> float:
    """The cell's confidence; for an array field the *minimum* over its cells.

    The minimum, not the mean: one doubtful cell makes the table doubtful, and the threshold
    recommended from these figures must be safe to auto-accept on.
    """

    def read(key: str) -> float | None:
        meta = metadata.get(key)
        if isinstance(meta, Mapping) and isinstance(meta.get("confidence"), int | float):
            return float(meta["confidence"])
        return None

    own = read(path)
    if own is not None or not isinstance(value, list):
        return math.nan if own is None else own
    found = [
        c
        for i, row in enumerate(value)
        if isinstance(row, Mapping)
        for col in row
        if (c := read(f"{path}.{i}.{col}")) is not None
    ]
    return min(found) if found else math.nan


def build_frame(
    truth: Mapping[str, Mapping[str, Any]],
    predictions: Mapping[str, Mapping[str, Mapping[str, Any]]],
) -> pd.DataFrame:
    """Flatten ground truth and run outputs into the long comparison frame.

    ``truth`` maps item id to its ground-truth object; ``predictions`` maps version to item id to
    a run output ``{"value": {...}, "metadata": {"<dotted path>": {"confidence": ...}}}``. Every
    version gets a row per (item, field) that either side has; an item a version has no output for
    gets rows with no prediction (its fields count as missed). Rows are sorted by version, item,
    field. Raises :class:`CompareError` for a prediction of an item that has no ground truth.
    """
    flat_truth = {str(item): flatten(gt) for item, gt in truth.items()}
    records: list[tuple[str, str, str, Any, Any, float]] = []
    for version in sorted(predictions):
        outputs = predictions[version]
        unknown = sorted(set(map(str, outputs)) - set(flat_truth))
        if unknown:
            raise CompareError(
                f"version {version!r}: prediction for {unknown[0]!r} has no ground truth"
            )
        by_item = {str(k): v for k, v in outputs.items()}
        for item in sorted(flat_truth):
            expected = flat_truth[item]
            output = by_item.get(item) or {}
            value = output.get("value") or {}
            metadata = output.get("metadata") or {}
            if not isinstance(value, Mapping) or not isinstance(metadata, Mapping):
                raise CompareError(f"version {version!r}, item {item!r}: malformed run output")
            predicted = flatten(value)
            for field in sorted(expected.keys() | predicted.keys()):
                got = predicted.get(field)
                records.append(
                    (
                        item,
                        field,
                        str(version),
                        expected.get(field),
                        got,
                        _confidence(metadata, field, got),
                    )
                )
    frame = pd.DataFrame.from_records(records, columns=list(FRAME_COLUMNS))
    for col in ("expected", "predicted"):
        frame[col] = frame[col].astype(object)
    frame["confidence"] = frame["confidence"].astype("float64")
    return frame


def columns_frame(columns: Mapping[str, Sequence[Any]]) -> pd.DataFrame:
    """The comparison frame of plain columns (name -> equally long list of values, as read
    from JSON or a pickle): ``pd.DataFrame(columns)``, except that ``item``, ``field`` and
    ``version`` of strings become categoricals (sorted categories, what
    :func:`~fieldwise.compare.score_cells` makes of them anyway) by one hash of each value,
    not through an Arrow string column first. Keys of other types take the DataFrame's way.
    When every column is a list (or tuple) of one length, other columns of mixed values
    (strings and numbers, say) or of only floats are read in one pass each (:func:`_plain`):
    the dtype the DataFrame would infer, without its second conversion of every value."""
    lists = all(isinstance(v, list | tuple) for v in columns.values())
    if lists and len({len(v) for v in columns.values()}) <= 1:  # our own arrays: no copies
        return pd.DataFrame(
            {name: _category(v) if name in _KEYS else _plain(v) for name, v in columns.items()},
            copy=False,
        )
    try:
        return pd.DataFrame(
            {name: _category(v) if name in _KEYS else v for name, v in columns.items()}
        )
    except ValueError as exc:  # columns of different lengths
        raise CompareError(f"comparison columns: {exc}") from exc


def _plain(values: Sequence[Any]) -> Any:
    """``values`` as ``pd.DataFrame`` would make them a column: when they are of mixed
    types (not counting missing ones), an object Series of the values themselves; when
    every value is a float, float64; else ``values`` (for the DataFrame to infer)."""
    array = np.fromiter(values, dtype=object, count=len(values))
    kind = pd.api.types.infer_dtype(array, skipna=True)
    if kind == "mixed":
        return pd.Series(array, dtype=object, copy=False)
    if kind == "floating" and pd.api.types.infer_dtype(array, skipna=False) == "floating":
        return array.astype(np.float64)
    return values


_KEYS = ("item", "field", "version")


def _category(values: Sequence[Any]) -> pd.Categorical:
    """``pd.Series(values).astype("category")``'s values, by ``pd.factorize`` when every value
    is a string (sorting the distinct strings then gives the categorical's order). Strings in
    long runs of equal values (the version and field of a frame ordered by them) are
    factorized one run at a time: comparing neighbours costs a fraction of hashing each."""
    # one pass, each value one object (a list stays a list: no nested array)
    array = np.fromiter(values, dtype=object, count=len(values))
    runs = _string_runs(array)
    if runs is not None:  # each run's first value stands for the run
        codes, uniques = pd.factorize(array[runs[0]])
    else:
        codes, uniques = pd.factorize(array)
    if len(uniques) and all(type(u) is str for u in uniques) and not (codes < 0).any():
        distinct = np.asarray(uniques, dtype=object)
        order = np.argsort(distinct)
        # the rank in the codes' own width (int8 for a few categories): the gather writes the
        # categorical's codes at once, no int64 copy of every row to narrow again
        rank = np.empty(len(order), dtype=np.min_scalar_type(-len(order)))
        rank[order] = np.arange(len(order))
        ranked = rank[codes] if runs is None else np.repeat(rank[codes], runs[1])
        return pd.Categorical.from_codes(
            ranked, categories=pd.Index(distinct[order]), validate=False
        )
    return pd.Categorical(pd.Series(array).astype("category"))


#: Values per run of equal neighbours, on average, from which keys are factorized by run.
_RUN = 16
#: Leading values that tell whether runs may be that long before the whole column is read.
_RUN_SAMPLE = 4096


def _string_runs(
    array: npt.NDArray[np.object_],
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None:
    """Where each run of equal neighbours starts and how long it is, when every value is a
    string (no missing one) and runs are :data:`_RUN` long on average, else ``None``."""
    n = len(array)
    sample = array[:_RUN_SAMPLE]
    # strings first: != of other objects may mean anything (or raise)
    if n < 2 * _RUN or pd.api.types.infer_dtype(sample, skipna=False) != "string":
        return None
    if np.count_nonzero(sample[1:] != sample[:-1]) * _RUN > len(sample):
        return None
    if pd.api.types.infer_dtype(array, skipna=False) != "string":
        return None
    change = np.flatnonzero(array[1:] != array[:-1]) + 1
    if len(change) * _RUN > n:
        return None
    starts = np.concatenate([np.zeros(1, dtype=np.intp), change])
    return starts, np.diff(np.append(starts, n))


def validate_frame(frame: pd.DataFrame) -> None:
    """Raise :class:`CompareError` unless ``frame`` has the comparison columns."""
    missing = [c for c in FRAME_COLUMNS if c not in frame.columns]
    if missing:
        raise CompareError(f"comparison frame lacks column(s): {', '.join(missing)}")
    keys = [_codes(frame[c]) for c in ("item", "field", "version")]
    sizes = [int(k.max()) + 2 if len(k) else 1 for k in keys]
    # one int64 per row (codes are -1 for a missing key, hence the +1): duplicates in C speed;
    # built in place from the narrow codes: the only full-length temporary (fresh pages cost
    # more than the arithmetic in a new process)
    combined = keys[0].astype(np.int64)
    for k, size in zip(keys[1:], sizes[1:], strict=True):
        combined += 1
        combined *= size
        combined += k
    combined += 1
    span = sizes[0] * sizes[1] * sizes[2]
    if span <= 8 * len(combined) + 1_000_000:  # dense enough: mark each key, no hashing
        seen = np.zeros(span, dtype=np.bool_)
        seen[combined] = True
        duplicated = int(np.count_nonzero(seen)) < len(combined)
    else:
        duplicated = not pd.Index(combined).is_unique
    if duplicated:
        raise CompareError("comparison frame has duplicate (item, field, version) rows")


def _codes(column: pd.Series[Any]) -> npt.NDArray[np.signedinteger[Any]]:
    """The key's codes, as narrow as the categorical keeps them (-1 for a missing key)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return np.asarray(column.cat.codes.to_numpy())
    return np.asarray(pd.Categorical(column).codes)
