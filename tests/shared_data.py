"""Where the development sets are: ``<repository>/../shared/datasets``, beside the clone.

The sets (real invoices and receipts with their ground truth) are not in the repository; a
checkout has them in ``shared/`` next to it, and CI puts a copy there beside its fresh clone.
Tests find them relative to the repository root, never by an absolute path that exists on one
machine only. A test that needs a set and does not find it fails, naming the folder it looked
in: it does not skip, and does not pass on fewer files than it was written for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
SHARED_DATASETS = REPOSITORY.parent / "shared" / "datasets"


def shared_dataset(name: str) -> Path:
    """The folder of development set ``name``; fails the calling test when it is missing."""
    path = SHARED_DATASETS / name
    if not path.is_dir():
        pytest.fail(
            f"development set {name!r} not found at {path}: the sets are read from "
            "../shared/datasets beside the repository (CI copies shared/ there)",
            pytrace=False,
        )
    return path
