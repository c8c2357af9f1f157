"""fieldwise.imports: predictions made elsewhere as a run set, compared like any other.

``import_predictions(dataset, [Source("azure", "out/azure/")], results_dir=..., now=...)``
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

__all__ = [
    "DEFAULT_MAPPINGS",
    "FORMATS",
    "VENDOR_FORMATS",
    "ImportResult",
    "ImportedSummary",
    "PredictionsError",
    "Source",
    "detect_format",
    "import_predictions",
]
