"""Frozen values a loaded dataset is made of."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Dataset", "DatasetItem", "ProcessorSection", "ProcessorVersionConfig"]


@dataclass(frozen=True)
class DatasetItem:
    """One document and what a processor is expected to extract from it.

    ``file`` is the POSIX path relative to the dataset root (``documents/a.pdf``), ``path`` the
    absolute path on disk, ``source`` where the ground truth was read (``ground_truth.jsonl:12``),
    ``split`` the ``[splits]`` split it belongs to (None: no splits, or a file list left it out).
    """

    file: str
    path: Path
    ground_truth: Mapping[str, Any]
    source: str
    split: str | None = None


@dataclass(frozen=True)
class ProcessorVersionConfig:
    """A processor version config shipped with the dataset (``baseline = "processor/v1.json"``)."""

    key: str
    file: str
    path: Path
    config: Mapping[str, Any]


@dataclass(frozen=True)
class ProcessorSection:
    """The ``[processor]`` table: which processor the dataset evaluates and its version configs."""

    name: str
    type: str
    description: str
    versions: tuple[ProcessorVersionConfig, ...]

    def version(self, key: str) -> ProcessorVersionConfig | None:
        """The version config stored under ``key`` (``"baseline"``, ``"candidate"``), if any."""
        for version in self.versions:
            if version.key == key:
                return version
        return None


@dataclass(frozen=True)
class Dataset:
    """A validated local dataset.

    ``fields`` maps each declared field (dotted name, ``seller.name``) to its raw option table
    from ``dataset.toml`` as contracts.md defines it; ``compare`` interprets the options.
    ``items`` are sorted by file. ``warnings`` are problems that do not stop a sync.
    ``splits`` are the declared split names in order (empty without ``[splits]``).
    """

    root: Path
    name: str
    description: str
    date_order: str
    locale: str | None
    fields: Mapping[str, Mapping[str, Any]]
    processor: ProcessorSection | None
    gate: Mapping[str, Any] | None
    items: tuple[DatasetItem, ...]
    warnings: tuple[str, ...]
    splits: tuple[str, ...] = ()
    #: ``[import.<vendor>]`` overrides: vendor field name -> dataset field, per vendor.
    imports: Mapping[str, Mapping[str, str]] | None = None

    def split_sizes(self) -> dict[str, int]:
        """How many items each declared split holds (in the declared order)."""
        sizes = dict.fromkeys(self.splits, 0)
        for item in self.items:
            if item.split is not None:
                sizes[item.split] = sizes.get(item.split, 0) + 1
        return sizes

    def in_split(self, split: str | None) -> tuple[DatasetItem, ...]:
        """The items of ``split`` (all of them for None)."""
        return self.items if split is None else tuple(i for i in self.items if i.split == split)
