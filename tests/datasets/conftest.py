"""Helpers that write small dataset folders.

``write_dataset`` writes ``dataset.toml`` (the default declares invoice_number, total,
seller.name and line_items with description/amount columns), the named documents (a few
bytes each, different for each name) and whichever ground-truth sources are given, exactly as
passed. A declared field no document has is a problem: ``declaring("total", ...)`` is the
default ``dataset.toml`` with only the named fields (and their columns).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

DEFAULT_TOML = """\
[dataset]
name = "tiny"
description = "three documents"

[fields.invoice_number]
type = "string"
critical = true

[fields.total]
type = "currency"

[fields.seller.name]
type = "text"

[fields.line_items]
type = "array"

[fields.line_items.columns.description]
type = "text"

[fields.line_items.columns.amount]
type = "currency"
"""

WriteDataset = Callable[..., Path]


def declaring(*names: str) -> str:
    """DEFAULT_TOML with only the fields ``names`` (a table of DEFAULT_TOML per blank line)."""
    blocks = DEFAULT_TOML.split("\n\n")
    kept = [
        block
        for block in blocks
        if not block.startswith("[fields.")
        or any(block.startswith((f"[fields.{n}]", f"[fields.{n}.")) for n in names)
    ]
    return "\n\n".join(kept)


@pytest.fixture
def write_dataset(tmp_path: Path) -> WriteDataset:
    def write(
        *,
        toml: str = DEFAULT_TOML,
        documents: tuple[str, ...] = ("documents/a.pdf", "documents/b.pdf", "documents/c.pdf"),
        jsonl: str | None = None,
        csv: str | None = None,
        sidecars: dict[str, str] | None = None,
        files: dict[str, str] | None = None,
    ) -> Path:
        root = tmp_path / "ds"
        root.mkdir()
        (root / "dataset.toml").write_text(toml, encoding="utf-8")
        for document in documents:
            (root / document).parent.mkdir(parents=True, exist_ok=True)
            (root / document).write_bytes(b"%PDF-1.4 " + document.encode())
        if jsonl is not None:
            (root / "ground_truth.jsonl").write_text(jsonl, encoding="utf-8")
        if csv is not None:
            (root / "ground_truth.csv").write_text(csv, encoding="utf-8")
        for name, text in {**(sidecars or {}), **(files or {})}.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        return root

    return write
