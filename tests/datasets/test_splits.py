"""``[splits]`` of dataset.toml: by content hash with shares, or by listed files; every
mistake named with its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fieldwise._errors import DatasetValidationError
from fieldwise.cli import cli
from fieldwise.datasets import file_sha256, load_dataset
from tests.datasets.conftest import DEFAULT_TOML, WriteDataset

# every field DEFAULT_TOML declares has a value
_REST = {"total": 1, "seller": {"name": "S"}, "line_items": [{"description": "d", "amount": 1}]}
DOCUMENTS = tuple(f"documents/d{n:02}.pdf" for n in range(40))
JSONL = "".join(
    json.dumps({"file": d, "ground_truth": {"invoice_number": f"N-{n}", **_REST}}) + "\n"
    for n, d in enumerate(DOCUMENTS)
)


def _problems(root: Path) -> list[str]:
    with pytest.raises(DatasetValidationError) as caught:
        load_dataset(root)
    return caught.value.problems


def test_shares_split_by_content_hash_deterministically(write_dataset: WriteDataset) -> None:
    root = write_dataset(
        toml=DEFAULT_TOML + "\n[splits]\ntrain = 0.7\ntest = 0.3\n",
        documents=DOCUMENTS,
        jsonl=JSONL,
    )
    dataset = load_dataset(root)
    sizes = dataset.split_sizes()
    assert dataset.splits == ("train", "test")
    assert sizes["train"] + sizes["test"] == 40
    assert sizes["train"] > sizes["test"] > 0
    # the split follows the bytes (the first 64 bits of the SHA-256 against the shares)
    for item in dataset.items:
        point = int(file_sha256(item.path)[:16], 16) / 2**64
        assert item.split == ("train" if point < 0.7 else "test")
    again = load_dataset(root)
    assert [i.split for i in again.items] == [i.split for i in dataset.items]
    assert {i.file for i in dataset.in_split("test")} == {
        i.file for i in dataset.items if i.split == "test"
    }


def test_listed_files_split_as_listed(write_dataset: WriteDataset) -> None:
    toml = DEFAULT_TOML + '\n[splits]\ntrain = ["documents/d00.pdf", "documents/d01.pdf"]\n'
    toml += 'test = ["documents/d02.pdf"]\n'
    jsonl = "".join(JSONL.splitlines(keepends=True)[:4])
    root = write_dataset(toml=toml, documents=DOCUMENTS[:4], jsonl=jsonl)
    dataset = load_dataset(root)
    assert [i.split for i in dataset.items] == ["train", "train", "test", None]
    assert dataset.split_sizes() == {"train": 2, "test": 1}
    assert dataset.warnings == ("1 document(s) are in no split ([splits] lists files)",)


@pytest.mark.parametrize(
    ("splits", "problem"),
    [
        ("train = 0.7\ntest = 0.2\n", "dataset.toml:24: [splits] the shares sum to 0.9, not 1"),
        ("train = 1.5\n", "dataset.toml:25: [splits] train: a share must be a number in (0, 1]"),
        (
            'train = 0.5\ntest = ["documents/d00.pdf"]\n',
            "dataset.toml:24: [splits] give every split a share, or every split a list of files",
        ),
        (
            'train = ["documents/d00.pdf"]\ntest = ["documents/d00.pdf"]\n',
            "dataset.toml:26: [splits] documents/d00.pdf is in two splits (train and test)",
        ),
        (
            'train = ["documents/nope.pdf"]\n',
            "dataset.toml:25: [splits] train: documents/nope.pdf is not a labelled document "
            "of the dataset",
        ),
        ('"b a d" = 1.0\n', "dataset.toml:24: [splits] 'b a d' is not a split name"),
        ("train = true\n", "dataset.toml:25: [splits] train: expected a share (0.7) or a list"),
    ],
)
def test_bad_splits_are_named_with_their_line(
    write_dataset: WriteDataset, splits: str, problem: str
) -> None:
    root = write_dataset(
        toml=DEFAULT_TOML + "\n[splits]\n" + splits, documents=DOCUMENTS[:2], jsonl=JSONL
    )
    root_problems = _problems(root)
    assert any(p.startswith(problem) for p in root_problems), root_problems


def test_validate_shows_split_sizes(write_dataset: WriteDataset) -> None:
    root = write_dataset(
        toml=DEFAULT_TOML + "\n[splits]\ntrain = 0.7\ntest = 0.3\n",
        documents=DOCUMENTS,
        jsonl=JSONL,
    )
    sizes = load_dataset(root).split_sizes()
    result = CliRunner().invoke(cli, ["datasets", "validate", str(root)])
    assert result.exit_code == 0, result.output
    assert f"splits: train {sizes['train']}, test {sizes['test']}" in result.output
    result = CliRunner().invoke(cli, ["datasets", "validate", str(root), "--json"])
    assert json.loads(result.output)["splits"] == sizes


def test_the_bundled_invoices_have_a_train_and_a_test_split() -> None:
    dataset = load_dataset(Path(__file__).parents[2] / "datasets" / "invoices")
    assert dataset.split_sizes() == {"train": 44, "test": 16}
