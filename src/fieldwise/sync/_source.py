"""Which folder an evaluation set mirrors: recorded at its first sync, checked at every one.

Two dataset folders with the same ``[dataset] name`` would otherwise sync into one evaluation
set, the second silently replacing the first's items. An absolute path cannot tell them apart:
it differs between a laptop and a CI clone of the same repository. The identity is the
folder's path inside the git work tree that holds it (``git:benchmarks/real/sroie-dev``), the
same in every clone; outside a work tree, the folder's own name (``folder:invoices``).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["source_identity"]


def source_identity(root: Path) -> str:
    """The identity of the dataset folder ``root`` (see the module docstring)."""
    folder = root.resolve()
    for parent in (folder, *folder.parents):
        if (parent / ".git").exists():  # a folder, or a file in a linked worktree
            relative = folder.relative_to(parent).as_posix()
            return f"git:{relative}"
    return f"folder:{folder.name}"
