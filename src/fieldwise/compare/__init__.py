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
    from fieldwise.compare._frame import FRAME_COLUMNS, build_frame, flatten
    from fieldwise.compare._io import read_frames, write_frames
    from fieldwise.compare._metrics import field_metrics, outcome_metrics
    from fieldwise.compare._normalize import parse_bool, parse_currency, parse_date, parse_number
    from fieldwise.compare._outcomes import OUTCOMES, score_cells
    from fieldwise.compare._result import FRAME_NAMES, ComparisonResult, compare
    from fieldwise.compare._spec import FieldSpec, parse_field_specs, specs_from_recorded
    from fieldwise.compare._stats import holm, mcnemar_exact, paired_sample_size
    from fieldwise.compare._table import render_table

__all__ = [
    "FRAME_COLUMNS",
    "FRAME_NAMES",
    "OUTCOMES",
    "BootstrapInterval",
    "Comparator",
    "Comparison",
    "ComparisonResult",
    "FieldSpec",
    "align_arrays",
    "boolean",
    "bootstrap_delta",
    "build_frame",
    "calibration_table",
    "cell_field",
    "comparator_for",
    "compare",
    "confidence_sweep",
    "currency",
    "date",
    "enum",
    "exact_string",
    "field_metrics",
    "flatten",
    "fuzzy_text",
    "holm",
    "mcnemar_exact",
    "number",
    "outcome_metrics",
    "paired_sample_size",
    "parse_bool",
    "parse_currency",
    "parse_date",
    "parse_field_specs",
    "parse_number",
    "read_frames",
    "recommend_threshold",
    "render_table",
    "score_cells",
    "specs_from_recorded",
    "write_frames",
]

# Each name loads its module on first use: the dataset loader reads ground truth with the
# parsers of ``_normalize`` (pure Python), and must not import pandas and Arrow for them.
_HOME = {
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
    "field_metrics": "fieldwise.compare._metrics",
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
    "parse_field_specs": "fieldwise.compare._spec",
    "specs_from_recorded": "fieldwise.compare._spec",
    "BootstrapInterval": "fieldwise.compare._bootstrap",
    "bootstrap_delta": "fieldwise.compare._bootstrap",
    "holm": "fieldwise.compare._stats",
    "mcnemar_exact": "fieldwise.compare._stats",
    "paired_sample_size": "fieldwise.compare._stats",
    "render_table": "fieldwise.compare._table",
}


__getattr__ = lazy_names(__name__, _HOME)


# ``fieldwise.compare(truth, predictions)`` is the top-level entry point (see fieldwise._entry)
make_callable(__name__, "fieldwise._api:compare")
