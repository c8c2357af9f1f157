"""Ground truth and predictions as people hold them: pandas DataFrames, long or wide.

:func:`truth_from_frame` and :func:`outputs_from_frame` turn a DataFrame into the nested
mappings :func:`~fieldwise.compare.build_frame` reads:

- **long**: one row per document and field, columns ``document``, ``field``, ``value`` (and,
  for predictions, an optional ``confidence``);
- **wide**: one row per document, a ``document`` column and one column per field.

``item_id`` may stand for ``document``. Dotted field names (``seller.name``) become nested
objects. A missing cell (None, NaN, NA) means the document has no value for that field. List
fields (``line_items[]``) need nested dicts: a DataFrame holds one value per cell.
Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from fieldwise._errors import CompareError

__all__ = ["as_outputs", "as_truth", "outputs_from_frame", "truth_from_frame"]

_KEYS = ("document", "item_id")
_LONG = {"field", "value"}


def _missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return bool(value is pd.NA or value is pd.NaT)


def _plain(value: Any) -> Any:
    """numpy scalars to Python values (int64 -> int), so comparators see plain types."""
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        try:
            return value.item()
        except (ValueError, AttributeError):
            return value
    return value


def _key(frame: pd.DataFrame, what: str) -> str:
    for name in _KEYS:
        if name in frame.columns:
            return name
    raise CompareError(
        f"{what} DataFrame needs a 'document' (or 'item_id') column; it has "
        f"{', '.join(map(str, frame.columns)) or 'no columns'}"
    )


def _put(target: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    for part in parts[:-1]:
        child = target.setdefault(part, {})
        if not isinstance(child, dict):
            raise CompareError(f"field {dotted!r} nests under {part!r}, which has a value")
        target = child
    target[parts[-1]] = value


def _rows(frame: pd.DataFrame, what: str) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """document -> (nested value, {dotted field: {"confidence": c}})."""
    key = _key(frame, what)
    out: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    if set(frame.columns) >= _LONG:
        has_conf = "confidence" in frame.columns
        seen: set[tuple[str, str]] = set()
        for record in frame.to_dict(orient="records"):
            document, field = str(record[key]), str(record["field"])
            if (document, field) in seen:
                raise CompareError(f"{what}: document {document!r} has field {field!r} twice")
            seen.add((document, field))
            value, meta = out.setdefault(document, ({}, {}))
            if not _missing(record["value"]):
                _put(value, field, _plain(record["value"]))
            if has_conf and not _missing(record["confidence"]):
                meta[field] = {"confidence": float(record["confidence"])}
        return out
    fields = [str(c) for c in frame.columns if c != key]
    if frame[key].duplicated().any():
        raise CompareError(f"{what}: a document appears in more than one row of a wide DataFrame")
    for record in frame.to_dict(orient="records"):
        value, _meta = out.setdefault(str(record[key]), ({}, {}))
        for field in fields:
            if not _missing(record[field]):
                _put(value, field, _plain(record[field]))
    return out


def truth_from_frame(frame: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """Ground truth by document from a long or wide DataFrame (see the module docstring)."""
    return {document: value for document, (value, _meta) in _rows(frame, "ground truth").items()}


def outputs_from_frame(frame: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """Run outputs by document (``{"value": ..., "metadata": ...}``) from one version's
    long or wide DataFrame."""
    return {
        document: {"value": value, "metadata": meta}
        for document, (value, meta) in _rows(frame, "predictions").items()
    }


def as_truth(truth: pd.DataFrame | Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Ground truth from a DataFrame or a mapping of document -> object."""
    if isinstance(truth, pd.DataFrame):
        return truth_from_frame(truth)
    return {str(k): v for k, v in truth.items()}


def as_outputs(
    predictions: pd.DataFrame | Mapping[str, Any],
) -> dict[str, dict[str, Any]]:
    """One version's outputs from a DataFrame or a mapping of document -> value.

    In a mapping, a value with a ``"value"`` key is taken as a run output as the service
    returns it; any other mapping is the extracted value itself."""
    if isinstance(predictions, pd.DataFrame):
        return outputs_from_frame(predictions)
    out: dict[str, dict[str, Any]] = {}
    for document, output in predictions.items():
        if isinstance(output, Mapping) and "value" in output:
            out[str(document)] = dict(output)
        elif isinstance(output, Mapping):
            out[str(document)] = {"value": dict(output), "metadata": {}}
        else:
            raise CompareError(f"prediction for {document!r} is not an object")
    return out
