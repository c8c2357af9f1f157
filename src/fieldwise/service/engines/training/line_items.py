"""Line items by a classifier: rows from the table detector, columns assigned by a model.

Per array field, one multi-class gradient-boosted classifier takes each detected table
column (see :mod:`.line_table`: header words in any of the engine's languages, the cells'
format, the column's position, quantity x unit price = amount on the row) to one of the
field's item properties, or to none (class 0). It learns from the training documents'
line items: a column is a property when at least half of its cells match that property's
truth in some item of the document (amounts and counts by value, text by similarity).

Reading a document, each property takes the most probable unused column at or above
:data:`MIN_CONFIDENCE`. With no model, no table, or no confident column, the array field is
read by the rule engine's table reader, as an untrained version reads it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fieldwise.service.engines.extraction import ColumnSpec, ExtractionConfig, FieldSpec
from fieldwise.service.engines.extraction.normalize import Parsed
from fieldwise.service.engines.extraction.output import Output, metadata_entry
from fieldwise.service.engines.extraction.typed import parse_typed
from fieldwise.service.engines.parsing import ParsedDocument
from fieldwise.service.engines.training.line_table import (
    GENERIC_FEATURES,
    LineTable,
    column_features,
    read,
)
from fieldwise.service.engines.training.params import ModelError, TrainParams
from fieldwise.service.engines.training.ranker import fit_classifier
from fieldwise.service.engines.training.truth import lookup, similarity, truth_value

__all__ = [
    "MIN_CONFIDENCE",
    "LineModel",
    "classify",
    "column_labels",
    "line_payload",
    "load_line_models",
    "put_line_items",
    "train_line_models",
]

#: A column is taken for a property only when the classifier is at least this sure.
MIN_CONFIDENCE = 0.5


@dataclass(frozen=True)
class LineModel:
    """An array field's column classifier (None: the rule reader answers); class k > 0 is
    the field's k-th item property."""

    classifier: Any | None
    properties: tuple[str, ...]


def _columns(spec: FieldSpec, properties: Sequence[str]) -> list[ColumnSpec]:
    """The field's columns in ``properties`` order (a stored config may list them sorted)."""
    by_name = {column.name: column for column in spec.columns}
    return [by_name[name] for name in properties]


def _own_labels(columns: Sequence[ColumnSpec]) -> list[tuple[str, ...]]:
    return [column.labels or (column.name.replace("_", " "),) for column in columns]


def _parse(text: str, column: ColumnSpec, config: ExtractionConfig) -> Parsed | None:
    if not text:
        return None
    return parse_typed(
        text, column.type, date_order=config.date_order, lenient_dates=config.lenient_dates
    )


def _same(
    text: str, truth: Any, column: ColumnSpec, config: ExtractionConfig, match: float
) -> bool:
    if column.type in ("number", "currency"):
        parsed = _parse(text, column, config)
        return parsed is not None and abs(float(parsed.value) - float(truth)) < 0.005
    if column.type in ("date", "boolean"):
        parsed = _parse(text, column, config)
        return parsed is not None and parsed.value == truth
    return similarity(text, str(truth)) >= match


def column_labels(
    table: LineTable,
    items: Any,
    columns: Sequence[ColumnSpec],
    config: ExtractionConfig,
    match: float,
) -> list[int]:
    """Each column's class: the item property (1-based, in ``columns`` order) most of its
    cells are, else 0."""
    rows = [row for row in items if isinstance(row, Mapping)] if isinstance(items, list) else []
    out = []
    for column in table.columns:
        filled = [text for text in column.cells if text]
        need = max(1, math.ceil(len(filled) / 2))
        best, best_hits = 0, 0
        for k, prop in enumerate(columns, start=1):
            as_field = FieldSpec(prop.name, prop.type)
            wanted = [truth_value(row.get(prop.name), as_field, config) for row in rows]
            wanted = [w for w in wanted if w is not None]
            hits = sum(any(_same(t, w, prop, config, match) for w in wanted) for t in filled)
            if hits >= need and hits > best_hits:
                best, best_hits = k, hits
        out.append(best)
    return out


def train_line_models(
    documents: Sequence[tuple[ParsedDocument, ExtractionConfig]],
    truths: Sequence[Mapping[str, Any]],
    config: ExtractionConfig,
    params: TrainParams,
) -> dict[str, LineModel]:
    """One column classifier per array field of ``config``, from the documents' line items
    (``documents`` pairs each parsed document with its date-resolved config)."""
    models = {}
    for spec in config.fields:
        if spec.type != "array":
            continue
        xs, ys = [], []
        columns = list(spec.columns)
        for (doc, resolved), truth in zip(documents, truths, strict=True):
            table = read(doc, spec, resolved)
            items = lookup(truth, spec.name)
            if table is None or not items:
                continue
            xs.append(column_features(table, _own_labels(columns)))
            ys.extend(column_labels(table, items, columns, resolved, params.text_match))
        classifier = None
        if xs:
            classifier = fit_classifier(np.vstack(xs), np.asarray(ys, dtype=np.int64), params)
        models[spec.name] = LineModel(classifier, tuple(c.name for c in spec.columns))
    return models


def line_payload(models: Mapping[str, LineModel]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the model blob stores: (JSON meta, classifiers by field name)."""
    meta = {
        "features": list(GENERIC_FEATURES),
        "fields": {name: list(m.properties) for name, m in sorted(models.items())},
    }
    classifiers = {n: m.classifier for n, m in sorted(models.items()) if m.classifier is not None}
    return meta, classifiers


def load_line_models(meta: Any, classifiers: Any) -> dict[str, LineModel]:
    """The column classifiers stored by :func:`line_payload` (none in older blobs)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    if meta is None:
        return {}
    if not isinstance(meta, Mapping) or not isinstance(classifiers, Mapping):
        raise ModelError("model blob: malformed line-item models")
    if meta.get("features") != list(GENERIC_FEATURES):
        raise ModelError("model blob: line items trained with other features (retrain)")
    models = {}
    for name, properties in dict(meta.get("fields", {})).items():
        classifier = classifiers.get(name)
        if classifier is not None and not isinstance(classifier, HistGradientBoostingClassifier):
            raise ModelError(f"model blob: field {name!r} holds no column classifier")
        models[str(name)] = LineModel(classifier, tuple(str(p) for p in properties))
    return models


def _assign(proba: np.ndarray, classes: Sequence[int]) -> dict[int, tuple[int, float]]:
    """Property (class) → (column, probability): the most probable pairs first, each column
    and property used once."""
    pairs = sorted(
        ((-float(proba[j, i]), j, int(c)) for j in range(len(proba)) for i, c in enumerate(classes))
    )
    taken: dict[int, tuple[int, float]] = {}
    used: set[int] = set()
    for negative, j, cls in pairs:
        if -negative < MIN_CONFIDENCE:
            break
        if cls == 0 or cls in taken or j in used:
            continue
        taken[cls] = (j, -negative)
        used.add(j)
    return taken


def classify(
    model: LineModel, doc: ParsedDocument, spec: FieldSpec, config: ExtractionConfig
) -> tuple[LineTable, list[dict[str, tuple[Parsed, float]]]] | None:
    """The table's rows as property → (value, confidence), or None when there is no model,
    no table, or no confident column."""
    if model.classifier is None or sorted(model.properties) != sorted(c.name for c in spec.columns):
        return None
    table = read(doc, spec, config)
    if table is None:
        return None
    columns = _columns(spec, model.properties)
    proba = model.classifier.predict_proba(column_features(table, _own_labels(columns)))
    taken = _assign(np.asarray(proba), list(model.classifier.classes_))
    if not taken:
        return None
    rows = []
    for r in range(len(table.rows)):
        cells = {}
        for cls, (j, p) in sorted(taken.items()):
            prop = columns[cls - 1]
            parsed = _parse(table.columns[j].cells[r], prop, config)
            if parsed is not None:
                cells[prop.name] = (parsed, p)
        if cells:
            rows.append(cells)
    return (table, rows) if rows else None


def _copy_rule(out: Output, rule: Mapping[str, Any], name: str) -> None:
    """An array field as the rule engine's table reader read it."""
    value = lookup(rule["value"], name)
    meta = rule["metadata"].get(name)
    if value is None or meta is None:
        return
    out.put(name, value, meta["confidence"], meta["page"], meta["text"])
    for path, entry in rule["metadata"].items():
        if path.startswith(f"{name}."):
            out.metadata[path] = metadata_entry(
                entry["confidence"], entry["page"], entry["text"], out.threshold
            )


def put_line_items(
    out: Output,
    model: LineModel | None,
    doc: ParsedDocument,
    spec: FieldSpec,
    config: ExtractionConfig,
    rule: Mapping[str, Any],
) -> None:
    """Put an array field's rows in ``out``: read by the column classifier, else (no model,
    no table, nothing confident) as the rule engine's output ``rule`` read them."""
    found = classify(model, doc, spec, config) if model is not None else None
    if found is None:
        _copy_rule(out, rule, spec.name)
        return
    table, rows = found
    values = []
    for index, cells in enumerate(rows):
        values.append({name: parsed.value for name, (parsed, _) in cells.items()})
        for name, (parsed, confidence) in cells.items():
            out.meta(f"{spec.name}.{index}.{name}", confidence, table.page + 1, parsed.text)
    filled = sum(len(c) for c in rows) / (len(rows) * max(len(spec.columns), 1))
    sure = float(np.mean([p for cells in rows for _, p in cells.values()]))
    out.put(spec.name, values, sure * filled, table.page + 1, table.header_text)
