"""fieldwise.compare: field-by-field comparison of extraction outputs against ground truth.

Pure (no network, no CLI): build the long frame with :func:`build_frame`, read field specs with
:func:`parse_field_specs`, then :func:`compare` returns a frozen :class:`ComparisonResult`;
:func:`render_table` prints it and :func:`write_frames` stores its frames as Parquet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fieldwise._entry import make_callable
from fieldwise._lazy import lazy_names

if TYPE_CHECKING:
    from fieldwise.compare._align import align_arrays, cell_field
    from fieldwise.compare._bootstrap import BootstrapInterval, bootstrap_delta
    from fieldwise.compare._codes import sorted_codes
    from fieldwise.compare._columnwise import compare_columns
    from fieldwise.compare._comparators import (
        Comparator,
        Comparison,
        boolean,
        comparator_for,
        currency,
        date,
        enum,
        exact_string,
        fuzzy_text,
        number,
    )
    from fieldwise.compare._confidence import (
        calibration_table,
        confidence_sweep,
        recommend_threshold,
    )
    from fieldwise.compare._export import EXPORT_FORMATS, export_bytes, export_table, write_export
    from fieldwise.compare._field_intervals import field_intervals
    from fieldwise.compare._frame import FRAME_COLUMNS, build_frame, flatten
    from fieldwise.compare._inputs import as_outputs, as_truth
    from fieldwise.compare._intervals import overall_paired
    from fieldwise.compare._io import read_frames, write_frames
    from fieldwise.compare._metrics import outcome_metrics
    from fieldwise.compare._normalize import (
        Unparsed,
        is_empty,
        parse_bool,
        parse_currency,
        parse_date,
        parse_number,
    )
    from fieldwise.compare._outcomes import OUTCOMES, score_cells
    from fieldwise.compare._power import PlanRow, connor_sample_size, document_support, plan_fields
    from fieldwise.compare._provenance import (
        config_digest,
        spec_changes,
        spec_digest,
        truth_changes,
        truth_digest,
    )
    from fieldwise.compare._reduce import ReducedResult, reduce_statistics
    from fieldwise.compare._result import FRAME_NAMES, ComparisonResult, compare
    from fieldwise.compare._spec import (
        BOOL_OPTIONS,
        DATE_ORDERS,
        FIELD_KEYS,
        FIELD_TYPES,
        NUMBER_OPTIONS,
        FieldSpec,
        parse_field_specs,
        specs_from_recorded,
    )
    from fieldwise.compare._stats import format_p, holm, mcnemar_exact, p_phrase, paired_sample_size
    from fieldwise.compare._sufficient import (
        Sufficient,
        empty_statistics,
        merge_statistics,
        partition_statistics,
        weight_classes,
    )
    from fieldwise.compare._table import render_table
    from fieldwise.compare._units import UnitOutcomes, unit_outcomes

__all__ = [
    "BOOL_OPTIONS",
    "DATE_ORDERS",
    "EXPORT_FORMATS",
    "FIELD_KEYS",
    "FIELD_TYPES",
    "FRAME_COLUMNS",
    "FRAME_NAMES",
    "NUMBER_OPTIONS",
    "OUTCOMES",
    "BootstrapInterval",
    "Comparator",
    "Comparison",
    "ComparisonResult",
    "FieldSpec",
    "PlanRow",
    "ReducedResult",
    "Sufficient",
    "UnitOutcomes",
    "Unparsed",
    "align_arrays",
    "as_outputs",
    "as_truth",
    "boolean",
    "bootstrap_delta",
    "build_frame",
    "calibration_table",
    "cell_field",
    "comparator_for",
    "compare",
    "compare_columns",
    "confidence_sweep",
    "config_digest",
    "connor_sample_size",
    "currency",
    "date",
    "document_support",
    "empty_statistics",
    "enum",
    "exact_string",
    "export_bytes",
    "export_table",
    "field_intervals",
    "flatten",
    "format_p",
    "fuzzy_text",
    "holm",
    "is_empty",
    "mcnemar_exact",
    "merge_statistics",
    "number",
    "outcome_metrics",
    "overall_paired",
    "p_phrase",
    "paired_sample_size",
    "parse_bool",
    "parse_currency",
    "parse_date",
    "parse_field_specs",
    "parse_number",
    "partition_statistics",
    "plan_fields",
    "read_frames",
    "recommend_threshold",
    "reduce_statistics",
    "render_table",
    "score_cells",
    "sorted_codes",
    "spec_changes",
    "spec_digest",
    "specs_from_recorded",
    "truth_changes",
    "truth_digest",
    "unit_outcomes",
    "weight_classes",
    "write_export",
    "write_frames",
]

# Each name loads its module on first use: the dataset loader reads ground truth with the
# parsers of ``_normalize`` (pure Python), and must not import pandas and Arrow for them.
_HOME = {
    "EXPORT_FORMATS": "fieldwise.compare._export",
    "PlanRow": "fieldwise.compare._power",
    "ReducedResult": "fieldwise.compare._reduce",
    "Sufficient": "fieldwise.compare._sufficient",
    "Unparsed": "fieldwise.compare._normalize",
    "as_outputs": "fieldwise.compare._inputs",
    "as_truth": "fieldwise.compare._inputs",
    "compare_columns": "fieldwise.compare._columnwise",
    "config_digest": "fieldwise.compare._provenance",
    "connor_sample_size": "fieldwise.compare._power",
    "document_support": "fieldwise.compare._power",
    "empty_statistics": "fieldwise.compare._sufficient",
    "export_bytes": "fieldwise.compare._export",
    "export_table": "fieldwise.compare._export",
    "field_intervals": "fieldwise.compare._field_intervals",
    "format_p": "fieldwise.compare._stats",
    "is_empty": "fieldwise.compare._normalize",
    "merge_statistics": "fieldwise.compare._sufficient",
    "overall_paired": "fieldwise.compare._intervals",
    "p_phrase": "fieldwise.compare._stats",
    "partition_statistics": "fieldwise.compare._sufficient",
    "plan_fields": "fieldwise.compare._power",
    "reduce_statistics": "fieldwise.compare._reduce",
    "sorted_codes": "fieldwise.compare._codes",
    "spec_changes": "fieldwise.compare._provenance",
    "spec_digest": "fieldwise.compare._provenance",
    "truth_changes": "fieldwise.compare._provenance",
    "truth_digest": "fieldwise.compare._provenance",
    "weight_classes": "fieldwise.compare._sufficient",
    "write_export": "fieldwise.compare._export",
    "align_arrays": "fieldwise.compare._align",
    "cell_field": "fieldwise.compare._align",
    "Comparator": "fieldwise.compare._comparators",
    "Comparison": "fieldwise.compare._comparators",
    "boolean": "fieldwise.compare._comparators",
    "comparator_for": "fieldwise.compare._comparators",
    "currency": "fieldwise.compare._comparators",
    "date": "fieldwise.compare._comparators",
    "enum": "fieldwise.compare._comparators",
    "exact_string": "fieldwise.compare._comparators",
    "fuzzy_text": "fieldwise.compare._comparators",
    "number": "fieldwise.compare._comparators",
    "calibration_table": "fieldwise.compare._confidence",
    "confidence_sweep": "fieldwise.compare._confidence",
    "recommend_threshold": "fieldwise.compare._confidence",
    "FRAME_COLUMNS": "fieldwise.compare._frame",
    "build_frame": "fieldwise.compare._frame",
    "flatten": "fieldwise.compare._frame",
    "read_frames": "fieldwise.compare._io",
    "write_frames": "fieldwise.compare._io",
    "outcome_metrics": "fieldwise.compare._metrics",
    "parse_bool": "fieldwise.compare._normalize",
    "parse_currency": "fieldwise.compare._normalize",
    "parse_date": "fieldwise.compare._normalize",
    "parse_number": "fieldwise.compare._normalize",
    "OUTCOMES": "fieldwise.compare._outcomes",
    "score_cells": "fieldwise.compare._outcomes",
    "FRAME_NAMES": "fieldwise.compare._result",
    "ComparisonResult": "fieldwise.compare._result",
    "compare": "fieldwise.compare._result",
    "FieldSpec": "fieldwise.compare._spec",
    "BOOL_OPTIONS": "fieldwise.compare._spec",
    "DATE_ORDERS": "fieldwise.compare._spec",
    "FIELD_KEYS": "fieldwise.compare._spec",
    "FIELD_TYPES": "fieldwise.compare._spec",
    "NUMBER_OPTIONS": "fieldwise.compare._spec",
    "parse_field_specs": "fieldwise.compare._spec",
    "specs_from_recorded": "fieldwise.compare._spec",
    "BootstrapInterval": "fieldwise.compare._bootstrap",
    "bootstrap_delta": "fieldwise.compare._bootstrap",
    "holm": "fieldwise.compare._stats",
    "mcnemar_exact": "fieldwise.compare._stats",
    "paired_sample_size": "fieldwise.compare._stats",
    "render_table": "fieldwise.compare._table",
    "UnitOutcomes": "fieldwise.compare._units",
    "unit_outcomes": "fieldwise.compare._units",
}


__getattr__ = lazy_names(__name__, _HOME)


# ``fieldwise.compare(truth, predictions)`` is the top-level entry point (see fieldwise._entry)
make_callable(__name__, "fieldwise._api:compare")
