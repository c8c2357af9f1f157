"""fieldwise.compare: field-by-field comparison of extraction outputs against ground truth.

Pure (no network, no CLI): build the long frame with :func:`build_frame`, read field specs with
:func:`parse_field_specs`, then :func:`compare` returns a frozen :class:`ComparisonResult`;
:func:`write_frames` stores its frames as Parquet (``fieldwise.cli`` prints it as text).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fieldwise._entry import make_callable
from fieldwise._lazy import lazy_names

if TYPE_CHECKING:
    from fieldwise.compare._comparison import FRAME_NAMES, ComparisonResult
    from fieldwise.compare._export import EXPORT_FORMATS, export_bytes, export_table, write_export
    from fieldwise.compare._io import read_frames, write_frames
    from fieldwise.compare._provenance import (
        config_digest,
        spec_changes,
        spec_digest,
        truth_changes,
        truth_digest,
    )
    from fieldwise.compare._result import compare
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
        predictions,
        recommend_threshold,
    )
    from fieldwise.compare.stats._distributions import mcnemar_exact
    from fieldwise.compare.stats._field_intervals import field_intervals
    from fieldwise.compare.stats._intervals import overall_paired
    from fieldwise.compare.stats._metrics import outcome_metrics
    from fieldwise.compare.stats._paired import format_p, holm, p_phrase
    from fieldwise.compare.stats._power import (
        PlanRow,
        connor_sample_size,
        document_support,
        plan_fields,
    )
    from fieldwise.compare.stats._reduce import reduce_statistics
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
    "predictions",
    "read_frames",
    "recommend_threshold",
    "reduce_statistics",
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


@cache
def _homes() -> dict[str, str]:
    """Each name of the ``TYPE_CHECKING`` imports above -> the module it comes from: those
    imports are the one table of where a name lives, read when a name is first used. Each
    name loads only its own module: the dataset loader reads ground truth with the parsers of
    ``_normalize`` (pure Python), and must not import pandas and Arrow for them."""
    import ast  # (only here: ``fieldwise --help`` imports this package)

    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If))
    return {
        alias.name: str(node.module)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def __getattr__(name: str) -> Any:
    return lazy_names(__name__, _homes())(name)


# ``fieldwise.compare(truth, predictions)`` is the top-level entry point (see fieldwise._entry)
make_callable(__name__, "fieldwise._api:compare")
