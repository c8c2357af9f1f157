"""Links that leave the dataset folder.

A dataset is often cloned from someone else, and ``sync`` and ``evaluate`` upload what it
holds, to a remote service with ``--base-url``: a document, sidecar or ground-truth file that
is a symbolic link to ``~/.ssh/id_rsa`` would send that file. So every path the loader reads
is resolved, and one that really lies outside the folder (a link, or a linked folder, leading
out) is a problem naming it, unless ``follow_symlinks = true`` in ``[dataset]`` says the
folder links to shared storage on purpose.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["leaves", "outside", "within"]


def within(real: str, root: str) -> bool:
    """Whether the resolved path ``real`` is ``root`` (resolved) or under it."""
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def outside(root: Path, path: Path) -> Path | None:
    """Where ``path`` really is, when that is outside the resolved ``root``; else None."""
    real = os.path.realpath(path)
    return None if within(real, str(root)) else Path(real)


def leaves(real: Path) -> str:
    """The end of the problem naming a link that leaves the folder (its name goes before)."""
    return (
        f"is a link to {real}, outside the dataset folder (set follow_symlinks = true in "
        "[dataset] to read links that leave it)"
    )
