"""fieldwise.imports: predictions made elsewhere as a run set, compared like any other.

``import_predictions(dataset_target(Path("invoices")), [Source("azure", "out/azure/")],
results_dir=..., now=...)`` (:func:`eval_set_target` for an evaluation set on a service)
reads each source (generic JSON Lines, CSV, Parquet or a folder of JSON; Azure Document
Intelligence, Google Document AI or AWS Textract AnalyzeExpense responses), maps vendor field
names onto the dataset's (:data:`DEFAULT_MAPPINGS`, overridden by ``[import.<vendor>]`` in
``dataset.toml``), matches documents by name, and writes one run set with a version per
source whose provenance records the format, the path, the SHA-256 of its bytes and what could
not be used (missing and unknown documents, unmapped fields). ``fieldwise runsets import`` is
the command.
"""

from __future__ import annotations

from fieldwise.imports._import import ImportedSummary, ImportResult, import_predictions
from fieldwise.imports._mapping import DEFAULT_MAPPINGS
from fieldwise.imports._model import FORMATS, VENDOR_FORMATS, PredictionsError, Source
from fieldwise.imports._read import detect_format
from fieldwise.imports._target import Target, dataset_target, eval_set_target

__all__ = [
    "DEFAULT_MAPPINGS",
    "FORMATS",
    "VENDOR_FORMATS",
    "ImportResult",
    "ImportedSummary",
    "PredictionsError",
    "Source",
    "Target",
    "dataset_target",
    "detect_format",
    "eval_set_target",
    "import_predictions",
]
