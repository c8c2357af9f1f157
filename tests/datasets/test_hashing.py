from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from fieldwise.datasets import HashCache, file_sha256, ground_truth_hash, load_dataset
from tests.datasets.conftest import WriteDataset, declaring


def test_file_sha256_matches_hashlib(tmp_path: Path) -> None:
    path = tmp_path / "a.bin"
    path.write_bytes(b"x" * 3_000_000)
    assert file_sha256(path) == hashlib.sha256(b"x" * 3_000_000).hexdigest()


def test_cache_persists_and_skips_unchanged_files(tmp_path: Path) -> None:
    cache_file = tmp_path / ".fieldwise" / "hashes.json"
    doc = tmp_path / "doc.pdf"
    doc.write_bytes(b"one")
    with HashCache(cache_file) as cache:
        first = file_sha256(doc, cache)
        assert (cache.hits, cache.misses) == (0, 1)
    assert json.loads(cache_file.read_text())["version"] == 1

    reopened = HashCache(cache_file)
    assert reopened.sha256(doc) == first
    assert (reopened.hits, reopened.misses) == (1, 0)

    # A changed size or mtime means re-reading the file.
    doc.write_bytes(b"two!")
    assert reopened.sha256(doc) == hashlib.sha256(b"two!").hexdigest()
    stat = doc.stat()
    os.utime(doc, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert reopened.sha256(doc) == hashlib.sha256(b"two!").hexdigest()
    assert reopened.misses == 2


def test_cache_trusts_size_and_mtime(tmp_path: Path) -> None:
    """Same size and mtime = unchanged; that is the documented trade-off that makes it fast."""
    cache_file = tmp_path / "hashes.json"
    doc = tmp_path / "doc.pdf"
    doc.write_bytes(b"aaaa")
    stat = doc.stat()
    with HashCache(cache_file) as cache:
        original = cache.sha256(doc)
    doc.write_bytes(b"bbbb")
    os.utime(doc, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert HashCache(cache_file).sha256(doc) == original


def test_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    cache_file = tmp_path / "hashes.json"
    cache_file.write_text("{not json")
    doc = tmp_path / "doc.pdf"
    doc.write_bytes(b"abc")
    with HashCache(cache_file) as cache:
        assert cache.sha256(doc) == hashlib.sha256(b"abc").hexdigest()
    assert json.loads(cache_file.read_text())["entries"]


def _line(file: str, truth: object) -> str:
    return json.dumps({"file": file, "ground_truth": truth}) + "\n"


def test_ground_truth_hash_is_order_free_and_value_sensitive(write_dataset: WriteDataset) -> None:
    a = _line("documents/a.pdf", {"total": 1, "invoice_number": "A"})
    b = _line("documents/b.pdf", {"total": 2})
    c = _line("documents/c.pdf", {"total": 3})
    root = write_dataset(toml=declaring("invoice_number", "total"), jsonl=a + b + c)
    reference = ground_truth_hash(load_dataset(root))
    assert len(reference) == 64

    (root / "ground_truth.jsonl").write_text(
        c + b + _line("documents/a.pdf", {"invoice_number": "A", "total": 1})
    )
    assert ground_truth_hash(load_dataset(root)) == reference

    (root / "ground_truth.jsonl").write_text(a + b + _line("documents/c.pdf", {"total": 3.5}))
    assert ground_truth_hash(load_dataset(root)) != reference
