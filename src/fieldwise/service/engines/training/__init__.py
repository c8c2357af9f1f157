"""Trained extraction: learn a version from labelled documents, then extract with it.

- :func:`train_model` ranks each field's candidate values (typed spans, text blocks, the rule
  engine's answer) with gradient-boosted trees over layout, format and context features, and
  returns the model as deterministic bytes (the same examples, fields and params give the
  same blob); array fields (line items) take the rows of the table detector, and a column
  classifier assigns each column to an item property (see :mod:`.line_items`);
- :func:`load_model` reads a blob without executing code (skops with a trusted-type list,
  behind a checksum) or raises :class:`ModelError`;
- :func:`extract_with_model` returns the rule engine's output shape, each field's confidence
  a calibrated probability.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fieldwise._lazy import lazy_names
from fieldwise.service.engines.training.params import (
    MODEL_FORMAT,
    ModelError,
    TrainingCanceled,
    TrainingError,
    TrainingExample,
    TrainParams,
)

if TYPE_CHECKING:
    from fieldwise.service.engines.training.model import (
        TrainedModel,
        extract_with_model,
        load_model,
        train_model,
    )

__all__ = [
    "MODEL_FORMAT",
    "ModelError",
    "TrainParams",
    "TrainedModel",
    "TrainingCanceled",
    "TrainingError",
    "TrainingExample",
    "extract_with_model",
    "load_model",
    "train_model",
]

#: Names loaded from :mod:`.model` on first use: it imports numpy, scikit-learn and skops
#: (about a second), which a service that never trains nor runs a trained version must not pay
#: at start-up (an embedded ``fieldwise sync`` starts one per process).
__getattr__ = lazy_names(
    __name__,
    dict.fromkeys(
        ("TrainedModel", "extract_with_model", "load_model", "train_model"), f"{__name__}.model"
    ),
)
