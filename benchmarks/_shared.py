"""Where the development sets are: ``<repository>/../shared/datasets``, beside the clone.

The one place the benchmarks find them (the tests have their own, ``tests/shared_data.py``,
with the same rule). A benchmark that measures on a set exits with an error naming the folder
when the set is missing, rather than measuring on fewer files than its figures are taken on.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
SHARED_DATASETS = REPOSITORY.parent / "shared" / "datasets"


def shared_dataset(name: str) -> Path:
    """The folder of development set ``name``; exits (status 2) when it is missing."""
    path = SHARED_DATASETS / name
    if not path.is_dir():
        print(
            f"development set {name!r} not found at {path}: the sets are read from "
            "../shared/datasets beside the repository",
            file=sys.stderr,
        )
        raise SystemExit(2)
    return path
