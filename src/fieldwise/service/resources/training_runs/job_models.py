"""Trained versions: the config a training run writes, and running it on a document.

A trained version's config names its model by content hash::

    {"engine": "trained",
     "model": {"sha256": "…", "format": MODEL_FORMAT, "size": 1234},
     "fields": [...],                     # the field specs it was trained for
     "training": {"training_run_id", "eval_set_id", "split", "item_ids", "params",
                  "base_version_id"}}

The model bytes live in the blob store under that hash. A processor run of the version reads
them, checks the hash (a changed blob is refused before it is read as a model) and loads them
with :func:`~fieldwise.service.engines.training.load_model`, which refuses anything that is
not a model it wrote; either refusal fails the run with a clear reason.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fieldwise.service.engines import training
from fieldwise.service.engines.parsing import ParsedDocument
from fieldwise.service.engines.training import MODEL_FORMAT, ModelError
from fieldwise.service.store.blobs import BlobCorrupt, BlobStore

if TYPE_CHECKING:
    from fieldwise.service.engines.training import TrainedModel

TRAINED_ENGINE = "trained"
#: Loaded models kept per process (a run set runs one version on many documents).
_CACHED_MODELS = 4


class TrainedRunError(Exception):
    """A trained version cannot run: ``reason`` is the run's failure code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def is_trained(config: Mapping[str, Any]) -> bool:
    return config.get("engine") == TRAINED_ENGINE


def trained_config(
    sha256: str, size: int, fields: list[dict[str, Any]], training: dict[str, Any]
) -> dict[str, Any]:
    """The config of the drafted version a training run creates."""
    return {
        "engine": TRAINED_ENGINE,
        "model": {"sha256": sha256, "format": MODEL_FORMAT, "size": size},
        "fields": fields,
        "training": training,
    }


class ModelCache:
    """Loaded models by hash (a few, least recently used out), shared by the worker threads."""

    def __init__(self, blobs: BlobStore) -> None:
        self.blobs = blobs
        self._models: OrderedDict[str, TrainedModel] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, config: Mapping[str, Any], version_id: str) -> TrainedModel:
        model = config.get("model")
        sha = model.get("sha256") if isinstance(model, Mapping) else None
        if not isinstance(sha, str) or len(sha) != 64:
            raise TrainedRunError(
                "invalid_model", f"version {version_id} names no model (config.model.sha256)"
            )
        with self._lock:
            if sha in self._models:
                self._models.move_to_end(sha)
                return self._models[sha]
        loaded = self._load(sha, version_id)
        with self._lock:
            self._models[sha] = loaded
            while len(self._models) > _CACHED_MODELS:
                self._models.popitem(last=False)
        return loaded

    def _load(self, sha: str, version_id: str) -> TrainedModel:
        try:
            blob = self.blobs.read(sha)  # checks the bytes against ``sha``
        except BlobCorrupt:
            raise TrainedRunError(
                "invalid_model",
                f"the model blob {sha} of version {version_id} does not match its hash: it was "
                "changed after training (corrupted or tampered with); train the version again",
            ) from None
        except FileNotFoundError:
            raise TrainedRunError(
                "model_missing", f"the model {sha} of version {version_id} is not stored"
            ) from None
        try:
            return training.load_model(blob)  # numpy and skops load on first use
        except ModelError as exc:
            raise TrainedRunError(
                "invalid_model", f"the model {sha} of version {version_id} was refused: {exc}"
            ) from None


def extract_trained(
    models: ModelCache,
    config: Mapping[str, Any],
    version_id: str,
    doc: ParsedDocument,
    threshold: float | None,
) -> dict[str, Any]:
    """Run a trained version on a parsed document: the rule engine's output shape, each
    field's ``needs_review`` set from the processor's ``confidence_threshold``."""
    output = training.extract_with_model(models.get(config, version_id), doc)
    for entry in (output.get("metadata") or {}).values():
        if isinstance(entry, dict) and isinstance(entry.get("confidence"), int | float):
            entry["needs_review"] = threshold is not None and entry["confidence"] < threshold
    return output
