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
    from fieldwise.compare._export import EXPORT_FORMATS, export_bytes, export_table, write_export
    from fieldwise.compare._io import read_frames, write_frames
    from fieldwise.compare._provenance import (
        config_digest,
        spec_changes,
        spec_digest,
        truth_changes,
        truth_digest,
    )
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
    from fieldwise.compare._terminal import render_table
    from fieldwise.compare.score._align import align_arrays, cell_field
    from fieldwise.compare.score._columnwise import compare_columns
    from fieldwise.compare.score._comparators import (
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
    from fieldwise.compare.score._frame import FRAME_COLUMNS, build_frame, flatten
    from fieldwise.compare.score._inputs import as_outputs, as_truth
    from fieldwise.compare.score._normalize import (
        Unparsed,
        is_empty,
        parse_bool,
        parse_currency,
        parse_date,
        parse_number,
    )
    from fieldwise.compare.score._outcomes import OUTCOMES, score_cells
    from fieldwise.compare.stats._bootstrap import BootstrapInterval
    from fieldwise.compare.stats._confidence import (
        calibration_table,
        confidence_sweep,
        recommend_threshold,
    )
    from fieldwise.compare.stats._field_intervals import field_intervals
    from fieldwise.compare.stats._intervals import overall_paired
    from fieldwise.compare.stats._metrics import outcome_metrics
    from fieldwise.compare.stats._paired import (
        format_p,
        holm,
        mcnemar_exact,
        p_phrase,
    )
    from fieldwise.compare.stats._power import (
        PlanRow,
        connor_sample_size,
        document_support,
        plan_fields,
    )
    from fieldwise.compare.stats._reduce import ReducedResult, reduce_statistics
    from fieldwise.compare.stats._sufficient import (
        Sufficient,
        empty_statistics,
        merge_statistics,
        partition_statistics,
        weight_classes,
    )
    from fieldwise.compare.stats._units import UnitOutcomes, unit_outcomes

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
    "PlanRow": "fieldwise.compare.stats._power",
    "ReducedResult": "fieldwise.compare.stats._reduce",
    "Sufficient": "fieldwise.compare.stats._sufficient",
    "Unparsed": "fieldwise.compare.score._normalize",
    "as_outputs": "fieldwise.compare.score._inputs",
    "as_truth": "fieldwise.compare.score._inputs",
    "compare_columns": "fieldwise.compare.score._columnwise",
    "config_digest": "fieldwise.compare._provenance",
    "connor_sample_size": "fieldwise.compare.stats._power",
    "document_support": "fieldwise.compare.stats._power",
    "empty_statistics": "fieldwise.compare.stats._sufficient",
    "export_bytes": "fieldwise.compare._export",
    "export_table": "fieldwise.compare._export",
    "field_intervals": "fieldwise.compare.stats._field_intervals",
    "format_p": "fieldwise.compare.stats._paired",
    "is_empty": "fieldwise.compare.score._normalize",
    "merge_statistics": "fieldwise.compare.stats._sufficient",
    "overall_paired": "fieldwise.compare.stats._intervals",
    "p_phrase": "fieldwise.compare.stats._paired",
    "partition_statistics": "fieldwise.compare.stats._sufficient",
    "plan_fields": "fieldwise.compare.stats._power",
    "reduce_statistics": "fieldwise.compare.stats._reduce",
    "spec_changes": "fieldwise.compare._provenance",
    "spec_digest": "fieldwise.compare._provenance",
    "truth_changes": "fieldwise.compare._provenance",
    "truth_digest": "fieldwise.compare._provenance",
    "weight_classes": "fieldwise.compare.stats._sufficient",
    "write_export": "fieldwise.compare._export",
    "align_arrays": "fieldwise.compare.score._align",
    "cell_field": "fieldwise.compare.score._align",
    "Comparator": "fieldwise.compare.score._comparators",
    "Comparison": "fieldwise.compare.score._comparators",
    "boolean": "fieldwise.compare.score._comparators",
    "comparator_for": "fieldwise.compare.score._comparators",
    "currency": "fieldwise.compare.score._comparators",
    "date": "fieldwise.compare.score._comparators",
    "enum": "fieldwise.compare.score._comparators",
    "exact_string": "fieldwise.compare.score._comparators",
    "fuzzy_text": "fieldwise.compare.score._comparators",
    "number": "fieldwise.compare.score._comparators",
    "calibration_table": "fieldwise.compare.stats._confidence",
    "confidence_sweep": "fieldwise.compare.stats._confidence",
    "recommend_threshold": "fieldwise.compare.stats._confidence",
    "FRAME_COLUMNS": "fieldwise.compare.score._frame",
    "build_frame": "fieldwise.compare.score._frame",
    "flatten": "fieldwise.compare.score._frame",
    "read_frames": "fieldwise.compare._io",
    "write_frames": "fieldwise.compare._io",
    "outcome_metrics": "fieldwise.compare.stats._metrics",
    "parse_bool": "fieldwise.compare.score._normalize",
    "parse_currency": "fieldwise.compare.score._normalize",
    "parse_date": "fieldwise.compare.score._normalize",
    "parse_number": "fieldwise.compare.score._normalize",
    "OUTCOMES": "fieldwise.compare.score._outcomes",
    "score_cells": "fieldwise.compare.score._outcomes",
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
    "BootstrapInterval": "fieldwise.compare.stats._bootstrap",
    "holm": "fieldwise.compare.stats._paired",
    "mcnemar_exact": "fieldwise.compare.stats._paired",
    "render_table": "fieldwise.compare._terminal",
    "UnitOutcomes": "fieldwise.compare.stats._units",
    "unit_outcomes": "fieldwise.compare.stats._units",
}


__getattr__ = lazy_names(__name__, _HOME)


# ``fieldwise.compare(truth, predictions)`` is the top-level entry point (see fieldwise._entry)
make_callable(__name__, "fieldwise._api:compare")
