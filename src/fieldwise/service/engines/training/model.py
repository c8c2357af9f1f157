"""Train a model from labelled documents, store it as a blob, and extract with it.

Per scalar field, a ranker (see :mod:`.ranker`) scores the field's candidates (see
:mod:`.candidates`, :mod:`.features`); the best candidate is the value and its calibrated
score the confidence. Fields without a ranker (no right candidate in the training data) and
documents without candidates fall back to the rule engine, run with the same field specs;
array fields (line items) are read by a column classifier (see :mod:`.line_items`), else by
the rule engine's table reader.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from fieldwise._errors import ConfigError
from fieldwise.service.engines.extraction import (
    ExtractionConfig,
    FieldSpec,
    extract,
    validate_config,
)
from fieldwise.service.engines.extraction.labels import find_labels
from fieldwise.service.engines.extraction.order import document_date_order
from fieldwise.service.engines.extraction.output import Output
from fieldwise.service.engines.parsing import ParsedDocument
from fieldwise.service.engines.training.blob import check_json, dump_payload, load_payload
from fieldwise.service.engines.training.candidates import (
    Cand,
    base_candidates,
    candidates,
    is_free_text,
    locate_lines,
)
from fieldwise.service.engines.training.features import (
    BASE_FEATURES,
    DocInfo,
    context_tokens,
    feature_matrix,
    inside_tokens,
    width,
)
from fieldwise.service.engines.training.line_items import (
    LineModel,
    line_payload,
    load_line_models,
    put_line_items,
    train_line_models,
)
from fieldwise.service.engines.training.params import (
    MODEL_FORMAT,
    ModelError,
    TrainingError,
    TrainingExample,
    TrainParams,
)
from fieldwise.service.engines.training.ranker import (
    Calibration,
    FieldData,
    calibrate,
    fit_classifier,
    learn_vocab,
    scores,
    top,
)
from fieldwise.service.engines.training.steps import Steps
from fieldwise.service.engines.training.truth import labels, lookup, truth_value

__all__ = ["FieldModel", "TrainedModel", "extract_with_model", "load_model", "train_model"]

#: a calibrated probability below this is more likely wrong than right: where the rules
#: engine has a value, it is used instead (issue #40: trained versions on unseen layouts)
UNSURE = 0.5

_AMOUNT = FieldSpec("_amount", "currency")


@dataclass(frozen=True)
class FieldModel:
    """One field's ranker: its classifier (None: the rule engine answers), context words,
    confidence calibration, and whether values are printed without spaces in the truth."""

    classifier: Any | None
    vocab: tuple[str, ...]
    calibration: Calibration
    strip_spaces: bool = False
    inside: tuple[str, ...] = ()


@dataclass(frozen=True)
class TrainedModel:
    """A loaded model: the field specs it was trained for, its params and per-field rankers."""

    fields: tuple[Mapping[str, Any], ...]
    params: TrainParams
    config: ExtractionConfig
    rankers: Mapping[str, FieldModel]
    line_items: Mapping[str, LineModel] = field(default_factory=dict)

    @property
    def field_names(self) -> tuple[str, ...]:
        """The fields the model extracts, in config order."""
        return tuple(spec.name for spec in self.config.fields)


@dataclass
class _Prepared:
    """A document with everything its fields' candidates need, computed once."""

    doc: ParsedDocument
    config: ExtractionConfig  # date order resolved for this document
    rule: dict[str, Any]
    rule_where: dict[str, tuple[Any, int, str]]
    info: DocInfo
    base: dict[tuple[Any, ...], list[Cand]]


def _config(fields: Sequence[Mapping[str, Any]], params: TrainParams) -> ExtractionConfig:
    raw = {
        "fields": [dict(f) for f in fields],
        "date_order": params.date_order,
        "lenient_dates": params.lenient_dates,
        "label_threshold": params.label_threshold,
    }
    try:
        return validate_config(raw)
    except ConfigError as exc:
        raise TrainingError(f"fields: {exc}") from exc


def _scalar_names(config: ExtractionConfig) -> list[str]:
    return [s.name for s in config.fields if s.type != "array"]


def _base_key(spec: FieldSpec) -> tuple[Any, ...]:
    return (is_free_text(spec), spec.type, spec.pattern, spec.values, spec.percent)


def _prepare(doc: ParsedDocument, config: ExtractionConfig, max_lines: int) -> _Prepared:
    resolved = replace(config, date_order=document_date_order(doc, config))
    rule = extract(doc, resolved)
    where: dict[str, tuple[Any, int, str]] = {}
    values: dict[str, Any] = {}
    confidence: dict[str, float] = {}
    for spec in config.fields:
        value = lookup(rule["value"], spec.name)
        meta = rule["metadata"].get(spec.name)
        if value is None or meta is None or spec.type == "array":
            continue
        values[spec.name] = value
        confidence[spec.name] = float(meta["confidence"])
        where[spec.name] = (value, int(meta["page"]) - 1, str(meta["text"]))
    hits = {
        spec.name: find_labels(doc, spec.labels, config.label_threshold)
        for spec in config.fields
        if spec.labels and spec.type != "array"
    }
    amounts = base_candidates(doc, _AMOUNT, resolved, max_lines)
    located = {name: locate_lines(doc, page, text) for name, (_, page, text) in where.items()}
    lines = {name: found for name, found in located.items() if found is not None}
    info = DocInfo(doc, values, confidence, hits, [float(c.value) for c in amounts], lines)
    return _Prepared(doc, resolved, rule, where, info, {_base_key(_AMOUNT): amounts})


def _candidates(prep: _Prepared, spec: FieldSpec, max_lines: int) -> list[Cand]:
    key = _base_key(spec)
    if key not in prep.base:
        prep.base[key] = base_candidates(prep.doc, spec, prep.config, max_lines)
    hits = prep.info.hits.get(spec.name, ())
    rule = prep.rule_where.get(spec.name)
    return candidates(prep.doc, spec, prep.config, hits, rule, prep.base[key])


def _strips_spaces(truths: Sequence[Any], spec: FieldSpec) -> bool:
    """Identifiers the truth writes without the spaces the document prints (IBANs)."""
    texts = [str(t) for t in truths if t is not None]
    return (
        spec.type == "string"
        and spec.pattern is not None
        and bool(texts)
        and all(" " not in t for t in texts)
    )


def _train_field(
    prepared: Sequence[_Prepared],
    truths: Sequence[Mapping[str, Any]],
    spec: FieldSpec,
    config: ExtractionConfig,
    params: TrainParams,
    step: Steps,
) -> FieldModel:
    others = _scalar_names(config)
    per_doc = [_candidates(prep, spec, params.max_lines) for prep in prepared]
    wanted = [
        truth_value(lookup(t, spec.name), spec, p.config)
        for t, p in zip(truths, prepared, strict=True)
    ]
    ys = [
        labels([c.value for c in cands], want, spec, params.text_match)
        for cands, want in zip(per_doc, wanted, strict=True)
    ]
    contexts = [
        [set().union(*context_tokens(prep.info, c)) for c in cands]
        for prep, cands in zip(prepared, per_doc, strict=True)
    ]
    vocab = learn_vocab(contexts, ys, params.context_words)
    insides = [[inside_tokens(c) for c in cands] for cands in per_doc]
    inside = learn_vocab(insides, ys, params.context_words)
    matrices = [
        feature_matrix(prep.info, cands, spec, others, vocab, inside)
        for prep, cands in zip(prepared, per_doc, strict=True)
    ]
    data = FieldData(matrices, [np.asarray(y, dtype=np.int64) for y in ys])
    silent = [spec.name not in p.rule_where for p in prepared]
    empty = [w is None if s else None for w, s in zip(wanted, silent, strict=True)]
    calibration = calibrate(data, params, step, empty)
    step.check()
    columns = width(others, vocab, inside)
    x = np.vstack([m.reshape(-1, columns) for m in matrices])
    y = np.concatenate([np.asarray(v, dtype=np.int64) for v in ys]) if ys else np.zeros(0)
    classifier = fit_classifier(x, y, params) if len(x) else None
    step()
    return FieldModel(classifier, vocab, calibration, _strips_spaces(wanted, spec), inside)


def train_model(
    examples: Sequence[TrainingExample],
    fields: Sequence[Mapping[str, Any]],
    params: TrainParams,
    *,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> bytes:
    """Train on labelled ``examples`` for ``fields`` (rules-config field specs); the blob.

    Deterministic: the same examples, fields and params give the same bytes. ``progress``
    gets (done, total) after every step; ``should_stop`` is asked before every step and
    :class:`TrainingCanceled` is raised when it says stop.
    """
    if not examples:
        raise TrainingError("training needs at least one labelled document")
    config = _config(fields, params)
    scalar = [s for s in config.fields if s.type != "array"]
    step = Steps(
        len(examples) + len(scalar) * (params.calibration_folds + 1) + 1, progress, should_stop
    )
    # threadpoolctl limits only the thread pools of libraries already loaded: scikit-learn
    # (and the OpenMP runtime its trees use) must be imported before the limit, or a process
    # that had not imported it yet trains on every core, with sums in another order
    import sklearn.ensemble
    import sklearn.linear_model  # noqa: F401
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):  # one thread: the same sums in the same order
        prepared = []
        for example in examples:
            step.check()
            prepared.append(_prepare(example.document, config, params.max_lines))
            step()
        truths = [example.truth for example in examples]
        rankers = {
            spec.name: _train_field(prepared, truths, spec, config, params, step) for spec in scalar
        }
        step.check()
        lines = train_line_models([(p.doc, p.config) for p in prepared], truths, config, params)
        step()
    return _dump(fields, params, rankers, lines)


def _dump(
    fields: Sequence[Mapping[str, Any]],
    params: TrainParams,
    rankers: Mapping[str, FieldModel],
    lines: Mapping[str, LineModel],
) -> bytes:
    line_meta, line_classifiers = line_payload(lines)
    meta = {
        "fields": [dict(f) for f in fields],
        "params": params.to_mapping(),
        "features": list(BASE_FEATURES),
        "rankers": {
            name: {
                "vocab": list(r.vocab),
                "inside": list(r.inside),
                "slope": r.calibration.slope,
                "intercept": r.calibration.intercept,
                "abstain_below": r.calibration.abstain_below,
                "strip_spaces": r.strip_spaces,
            }
            for name, r in sorted(rankers.items())
        },
        "line_items": line_meta,
    }
    classifiers = {n: r.classifier for n, r in sorted(rankers.items()) if r.classifier is not None}
    payload = {
        "format": MODEL_FORMAT,
        "meta": json.dumps(meta, sort_keys=True, ensure_ascii=False),
        "classifiers": classifiers,
        "line_items": line_classifiers,
    }
    return dump_payload(payload)


def load_model(blob: bytes) -> TrainedModel:
    """The model in ``blob``; :class:`ModelError` when it is corrupt, tampered with, of
    another format, or holds a type outside the trusted list."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    payload = load_payload(blob)
    if not isinstance(payload, dict) or payload.get("format") != MODEL_FORMAT:
        found = payload.get("format") if isinstance(payload, dict) else type(payload).__name__
        raise ModelError(f"model blob: format {found!r} is not {MODEL_FORMAT!r}")
    meta = check_json(payload.get("meta"), "meta")
    classifiers = payload.get("classifiers")
    if not isinstance(classifiers, dict):
        raise ModelError("model blob: no classifiers")
    try:
        params = TrainParams.from_mapping(meta["params"])
        config = _config(meta["fields"], params)
        if meta["features"] != list(BASE_FEATURES):
            raise ModelError("model blob: trained with other features (retrain the version)")
        rankers = {}
        for name, raw in meta["rankers"].items():
            classifier = classifiers.get(name)
            if classifier is not None and not isinstance(
                classifier, HistGradientBoostingClassifier
            ):
                raise ModelError(f"model blob: field {name!r} holds no classifier")
            below = float(raw.get("abstain_below", 0.0))  # absent in models from before it
            calibration = Calibration(float(raw["slope"]), float(raw["intercept"]), below)
            vocab = tuple(str(t) for t in raw["vocab"])
            inside = tuple(str(t) for t in raw["inside"])
            strip = bool(raw["strip_spaces"])
            rankers[name] = FieldModel(classifier, vocab, calibration, strip, inside)
        lines = load_line_models(meta.get("line_items"), payload.get("line_items"))
    except ModelError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ModelError(f"model blob: malformed model ({exc})") from exc
    fields = tuple(dict(f) for f in meta["fields"])
    return TrainedModel(fields, params, config, rankers, lines)


def extract_with_model(
    model: TrainedModel, document: ParsedDocument, *, confidence_threshold: float | None = None
) -> dict[str, Any]:
    """Extract with a trained model: the rule engine's output shape ``{"value", "metadata"}``,
    each field's confidence its calibrated probability of being right."""
    params = model.params
    prep = _prepare(document, model.config, params.max_lines)
    out = Output(confidence_threshold)
    others = _scalar_names(model.config)
    for spec in model.config.fields:
        if spec.type == "array":
            lines = model.line_items.get(spec.name)
            put_line_items(out, lines, document, spec, prep.config, prep.rule)
            continue
        ranker = model.rankers.get(spec.name)
        cands = _candidates(prep, spec, params.max_lines)
        if ranker is None or ranker.classifier is None or not cands:
            if spec.name in prep.rule_where:
                value, page, text = prep.rule_where[spec.name]
                conf = prep.info.rule_conf.get(spec.name, 0.0)
                out.put(spec.name, value, conf, page + 1, text)
            continue
        found = scores(
            ranker.classifier,
            feature_matrix(prep.info, cands, spec, others, ranker.vocab, ranker.inside),
        )
        conf = ranker.calibration(float(found[top(found)]))
        if conf < ranker.calibration.abstain_below and spec.name not in prep.rule_where:
            continue  # the rules found nothing and the ranker is unsure: likely not carried
        if conf < UNSURE and spec.name in prep.rule_where:
            # more likely wrong than right (a layout unlike the training documents): the
            # rules engine the model starts from reads it instead
            value, page, text = prep.rule_where[spec.name]
            out.put(spec.name, value, prep.info.rule_conf.get(spec.name, 0.0), page + 1, text)
            continue
        best = cands[top(found)]
        value = best.value
        if ranker.strip_spaces and isinstance(value, str):
            value = "".join(value.split())
        out.put(spec.name, value, conf, best.page + 1, best.text)
    return out.result()
