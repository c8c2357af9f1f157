"""The one-call entry points that ``import fieldwise`` offers (``fieldwise.compare(...)``,
``fieldwise.evaluate(...)``); the packages below hold the parts they put together."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from fieldwise.compare import ComparisonResult, FieldSpec
    from fieldwise.evaluate import Evaluation, EvaluationOptions

__all__ = ["compare", "evaluate"]


def _specs(fields: Mapping[str, Any] | None) -> dict[str, FieldSpec]:
    from fieldwise.compare import FieldSpec, parse_field_specs

    if not fields:
        return {}
    if all(isinstance(spec, FieldSpec) for spec in fields.values()):
        return dict(fields)
    return parse_field_specs(fields, source="fields=")


def compare(
    truth: pd.DataFrame | Mapping[str, Mapping[str, Any]],
    predictions: Mapping[str, pd.DataFrame | Mapping[str, Any]],
    fields: Mapping[str, Any] | None = None,
    *,
    baseline: str | None = None,
    candidates: tuple[str, ...] = (),
    **options: Any,
) -> ComparisonResult:
    """Compare versions' predictions with the ground truth, field by field.

    ``truth``: a DataFrame (long: ``document``, ``field``, ``value``; or wide: ``document`` and
    one column per field) or a mapping document -> ground-truth object. ``predictions``: version
    name -> its outputs, each a DataFrame of the same shapes (long may add ``confidence``) or a
    mapping document -> extracted object (or a run output ``{"value": ..., "metadata": ...}``).
    ``fields``: field specs as in dataset.toml's ``[fields]`` (``{"total": {"type":
    "currency"}}``) or parsed :class:`~fieldwise.compare.FieldSpec` values; fields without one
    compare as folded strings. ``baseline`` defaults to the first version, ``candidates`` to
    every other. ``options`` go to :func:`fieldwise.compare.compare` (seed, alpha, ...).
    Pure: no service, no files.
    """
    from fieldwise._errors import CompareError
    from fieldwise.compare import as_outputs, as_truth, build_frame, compare_columns
    from fieldwise.compare import compare as compare_frame

    versions = [str(v) for v in predictions]
    if not versions:
        raise CompareError("predictions name no version")
    chosen = baseline if baseline is not None else versions[0]
    if chosen not in versions:
        raise CompareError(f"baseline {chosen!r} is not one of the versions {versions}")
    others = candidates or tuple(v for v in versions if v != chosen)
    unknown = [c for c in others if c not in versions]
    if unknown:
        raise CompareError(f"candidate {unknown[0]!r} is not one of the versions {versions}")
    specs = _specs(fields)
    # wide DataFrames are scored column by column; anything else through the nested mappings
    outputs = {str(v): out for v, out in predictions.items()}
    result = compare_columns(truth, outputs, specs, chosen, tuple(others), **options)
    if result is not None:
        return result
    frame = build_frame(
        as_truth(truth), {str(v): as_outputs(out) for v, out in predictions.items()}
    )
    return compare_frame(frame, specs, baseline=chosen, candidates=tuple(others), **options)


def evaluate(
    dataset: Path | str,
    options: EvaluationOptions | None = None,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    data_dir: Path | None = None,
) -> Evaluation:
    """Evaluate a dataset folder end to end, as ``fieldwise evaluate`` does: sync, run,
    compare, report, gate (and publish when ``options.publish``).

    Talks to the service at ``base_url`` (or ``FIELDWISE_BASE_URL``), else starts the embedded
    local service with its data in ``data_dir``. The verdicts are in
    ``result.analysis.verdicts``.
    """
    from fieldwise._config import client_settings
    from fieldwise._connection import connect
    from fieldwise.evaluate import EvaluationOptions
    from fieldwise.evaluate import evaluate as evaluate_dataset

    settings = client_settings(base_url=base_url, api_key=api_key)
    connection = connect(settings, data_dir=data_dir)
    try:
        return evaluate_dataset(
            connection,
            Path(dataset),
            options or EvaluationOptions(),
            generated_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        )
    finally:
        connection.close()
