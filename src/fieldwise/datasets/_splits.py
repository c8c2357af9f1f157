"""``[splits]`` of ``dataset.toml``: which documents a version learns from and which it is
evaluated on.

A split is named by a key of the table; its value is either a share (``train = 0.7``) or a
list of files (``test = ["documents/a.pdf"]``), the same kind for every split. Shares split by
the SHA-256 of each document's bytes (so a document keeps its split wherever it is copied or
renamed); listed files split exactly as listed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

__all__ = ["SplitSpec", "assign_splits", "parse_splits", "split_of_hash"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
#: Shares may carry rounding error (three thirds) but must mean "all of it".
_SUM_TOLERANCE = 1e-6

Problem = Callable[..., None]


@dataclass(frozen=True)
class SplitSpec:
    """Declared splits in order: ``shares`` (by content hash) or ``files`` (as listed)."""

    names: tuple[str, ...]
    shares: tuple[float, ...] = ()
    files: Mapping[str, str] | None = None  # file -> split
    lines: Mapping[str, int] | None = None  # split -> its line in dataset.toml

    @property
    def by_hash(self) -> bool:
        return self.files is None


def parse_splits(table: Mapping[str, Any], problem: Problem) -> SplitSpec | None:
    """Check a ``[splits]`` table; every problem goes to ``problem(message, *toml_path)``."""
    if not table:
        problem("[splits] needs at least one split (train = 0.7, test = 0.3)", "splits")
        return None
    names: list[str] = []
    shares: list[float] = []
    files: dict[str, str] = {}
    kinds: set[str] = set()
    ok = True
    for name, value in table.items():
        if not _NAME.match(name):
            problem(f"[splits] {name!r} is not a split name (letters, digits, - and _)", "splits")
            ok = False
            continue
        names.append(name)
        if isinstance(value, list):
            kinds.add("files")
            ok &= _listed(name, value, files, problem)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            kinds.add("shares")
            if not (math.isfinite(value) and 0 < value <= 1):
                problem(f"[splits] {name}: a share must be a number in (0, 1]", "splits", name)
                ok = False
            shares.append(float(value))
        else:
            problem(f"[splits] {name}: expected a share (0.7) or a list of files", "splits", name)
            ok = False
    if len(kinds) > 1:
        problem("[splits] give every split a share, or every split a list of files", "splits")
        return None
    if kinds == {"shares"} and ok and abs(sum(shares) - 1.0) > _SUM_TOLERANCE:
        total = round(sum(shares), 6)
        problem(f"[splits] the shares sum to {total}, not 1", "splits")
        return None
    if not ok:
        return None
    if kinds == {"files"}:
        return SplitSpec(tuple(names), files=files)
    return SplitSpec(tuple(names), shares=tuple(shares))


def _listed(name: str, value: list[Any], files: dict[str, str], problem: Problem) -> bool:
    ok = True
    for entry in value:
        if not isinstance(entry, str) or not entry.strip():
            problem(f"[splits] {name}: every file must be a non-empty string", "splits", name)
            ok = False
            continue
        relative = PurePosixPath(entry.replace("\\", "/"))
        if relative.is_absolute() or ".." in relative.parts:
            problem(f"[splits] {name}: {entry} is not a path inside the dataset", "splits", name)
            ok = False
            continue
        file = relative.as_posix()
        if file in files:
            problem(f"[splits] {file} is in two splits ({files[file]} and {name})", "splits", name)
            ok = False
            continue
        files[file] = name
    return ok


def split_of_hash(sha256: str, spec: SplitSpec) -> str:
    """The split of a document whose content hash is ``sha256`` (shares, cumulative, in the
    declared order, over the hash's first 64 bits read as a fraction of 2**64)."""
    point = int(sha256[:16], 16) / 2**64
    edge = 0.0
    for name, share in zip(spec.names, spec.shares, strict=True):
        edge += share
        if point < edge:
            return name
    return spec.names[-1]  # the shares' rounding error: the last split takes the rest


def assign_splits(
    spec: SplitSpec,
    files: Iterable[str],
    sha256_of: Callable[[str], str],
    problems: list[str],
) -> dict[str, str]:
    """Each labelled file's split; a listed file that is not a labelled document is a problem
    (``dataset.toml:LINE: …``). Files a file list leaves out are in no split."""
    files = list(files)
    if spec.files is None:
        return {file: split_of_hash(sha256_of(file), spec) for file in files}
    labelled = set(files)
    for file, name in spec.files.items():
        if file not in labelled:
            line = (spec.lines or {}).get(name, 1)
            problems.append(
                f"dataset.toml:{line}: [splits] {name}: {file} is not a labelled document "
                "of the dataset"
            )
    return {file: spec.files[file] for file in files if file in spec.files}
