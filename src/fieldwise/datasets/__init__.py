"""fieldwise.datasets: the local dataset format — load, validate and hash.

A dataset is a folder with ``dataset.toml``, its documents (under ``documents/`` or anywhere
in the folder) and ground truth in ``ground_truth.jsonl``, ``ground_truth.csv``,
``ground_truth.parquet``, sidecars ``documents/<file>.json``, or the file a ``[ground_truth]``
table names (any of those formats, or a Label Studio JSON export).
:func:`load_dataset` validates all of it and raises every problem at once. The sample-data
generator lives in :mod:`fieldwise.datasets.generate` (kept out of this namespace so loading a
dataset never imports the PDF libraries).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fieldwise._lazy import lazy_names
from fieldwise.datasets._hashing import HashCache, file_sha256, ground_truth_hash
from fieldwise.datasets._loader import list_documents, load_dataset
from fieldwise.datasets._model import Dataset, DatasetItem, ProcessorSection, ProcessorVersionConfig
from fieldwise.datasets._spec import DATE_ORDERS, FIELD_TYPES, SPEC_FILE
from fieldwise.datasets._sync_plan import LocalItem, RemoteItem, SyncPlan, plan_sync
from fieldwise.datasets._truth import nest

if TYPE_CHECKING:
    from fieldwise.datasets._infer import FieldGuess
    from fieldwise.datasets._init import InitResult, init_dataset

__all__ = [
    "DATE_ORDERS",
    "FIELD_TYPES",
    "SPEC_FILE",
    "Dataset",
    "DatasetItem",
    "FieldGuess",
    "HashCache",
    "InitResult",
    "LocalItem",
    "ProcessorSection",
    "ProcessorVersionConfig",
    "RemoteItem",
    "SyncPlan",
    "file_sha256",
    "ground_truth_hash",
    "init_dataset",
    "list_documents",
    "load_dataset",
    "nest",
    "plan_sync",
]

# ``datasets init`` guesses types with the comparators' parsers, which import pandas: loaded
# on first use, so loading a dataset (every sync) does not pay for it.
_LAZY = {
    "FieldGuess": "fieldwise.datasets._infer",
    "InitResult": "fieldwise.datasets._init",
    "init_dataset": "fieldwise.datasets._init",
}


__getattr__ = lazy_names(__name__, _LAZY)
