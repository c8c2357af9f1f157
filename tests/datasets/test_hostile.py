"""Hostile dataset folders, through the real CLI: each is refused with a one-line problem
naming the file and the bound (exit 2) instead of hanging, exhausting memory, crashing with
a traceback, or sending a file from outside the folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_main import run_main

TOML = "[fields.total]\ntype = 'currency'\n"


def _folder(root: Path, toml: str = TOML) -> Path:
    (root / "documents").mkdir(parents=True)
    (root / "documents" / "a.pdf").write_bytes(b"%PDF-1.4 a")
    (root / "dataset.toml").write_text(toml, encoding="utf-8")
    return root


def test_a_csv_header_of_twenty_thousand_columns_is_refused(tmp_path: Path) -> None:
    root = _folder(tmp_path / "wide")
    columns = ["file", *(f"c{i}" for i in range(20_000))]
    (root / "ground_truth.csv").write_text(
        ",".join(columns) + "\n" + "documents/a.pdf" + ",1" * 20_000 + "\n", encoding="utf-8"
    )
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines()[1:] == [
        "  ground_truth.csv:1: the header has 20,001 columns, more than the 10,000 a "
        "ground-truth table may have"
    ]


def test_nested_column_clashes_are_reported_once_per_column(tmp_path: Path) -> None:
    # a parent column and thousands nested under it: one problem, not one per pair
    root = _folder(tmp_path / "clash")
    columns = ["file", "seller", *(f"seller.c{i}" for i in range(5_000))]
    (root / "ground_truth.csv").write_text(",".join(columns) + "\n", encoding="utf-8")
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines()[1:] == [
        "  ground_truth.csv:1: column 'seller' clashes with nested column 'seller.c0'"
    ]


def _write_repeated(path: Path, rows: int, value: str, chunk: int = 1_000_000) -> None:
    """A Parquet file of ``rows`` rows that all read ``documents/a.pdf`` and ``value``, written
    in chunks of dictionary-encoded columns: small on disk and quick to write."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    def column(text: str, size: int) -> pa.DictionaryArray:
        indices = pa.array(np.zeros(size, dtype=np.int32))
        return pa.DictionaryArray.from_arrays(indices, pa.array([text]))

    schema = pa.schema(
        [("file", pa.dictionary(pa.int32(), pa.string())),
         ("note", pa.dictionary(pa.int32(), pa.string()))]
    )  # fmt: skip
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, rows, chunk):
            size = min(chunk, rows - start)
            writer.write_table(
                pa.table([column("documents/a.pdf", size), column(value, size)], schema=schema)
            )


def test_parquet_of_thirty_million_rows_is_refused_from_its_metadata(tmp_path: Path) -> None:
    root = _folder(tmp_path / "rows")
    _write_repeated(root / "ground_truth.parquet", 30_000_000, "1")
    assert (root / "ground_truth.parquet").stat().st_size < 2_000_000
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines()[1:] == [
        "  ground_truth.parquet:row 0: 30,000,000 rows, more than the 1,000,000 a ground-truth "
        "file may have (its metadata says so: no row was read)"
    ]


def test_parquet_of_a_long_text_on_every_row_is_refused_before_it_is_decoded(
    tmp_path: Path,
) -> None:
    # 1 MiB in the file once, as a dictionary entry; 520 MiB once decoded on each of 520 rows
    root = _folder(tmp_path / "long")
    _write_repeated(root / "ground_truth.parquet", 520, "x" * 2**20)
    assert (root / "ground_truth.parquet").stat().st_size < 2**20 + 100_000
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines()[1:] == [
        "  ground_truth.parquet:row 0: 545,267,320 bytes of values once decoded, more than the "
        "536,870,912 a ground-truth file may have"
    ]


_LINE = '{"file": "documents/a.pdf", "ground_truth": {"total": 1}}\n'
_DEEP_ARRAY = "[" * 100_000 + "]" * 100_000
_DEEP_OBJECT = '{"a": ' * 900 + "1" + "}" * 900  # parses, then every check of it recursed


def _record(truth: str) -> str:
    return f'{{"file": "documents/a.pdf", "ground_truth": {truth}}}\n'


@pytest.mark.parametrize(
    ("files", "problem"),
    [
        (
            {"dataset.toml": TOML + f"x = {_DEEP_ARRAY}\n", "ground_truth.jsonl": _LINE},
            "dataset.toml:1: invalid TOML: nested more than 64 levels deep",
        ),
        (
            {"ground_truth.jsonl": _record(_DEEP_ARRAY)},
            "ground_truth.jsonl:1: invalid JSON: nested more than 64 levels deep",
        ),
        (
            {"ground_truth.jsonl": _record(_DEEP_OBJECT)},
            "ground_truth.jsonl:1: invalid JSON: nested more than 64 levels deep",
        ),
        (
            {"documents/a.pdf.json": _DEEP_OBJECT},
            "documents/a.pdf.json:1: invalid JSON: nested more than 64 levels deep",
        ),
        (
            {"ground_truth.csv": "file," + ".".join(["a"] * 900) + "\ndocuments/a.pdf,1\n"},
            "ground_truth.csv:2: ground truth nested more than 64 levels deep",
        ),
        (
            {"labels.json": _DEEP_ARRAY, "ground_truth.jsonl": _LINE,
             "dataset.toml": TOML + "[ground_truth]\nfile = 'labels.json'\n"},
            "labels.json:1: invalid JSON: nested more than 64 levels deep",
        ),
        (
            {"processor/v1.json": _DEEP_ARRAY, "ground_truth.jsonl": _LINE,
             "dataset.toml": TOML + "[processor]\nname = 'p'\nbaseline = 'processor/v1.json'\n"},
            "processor/v1.json:1: invalid JSON: nested more than 64 levels deep",
        ),
    ],
    ids=["toml", "jsonl", "jsonl-parses", "sidecar", "csv-dotted", "labelstudio", "processor"],
)  # fmt: skip
def test_text_nested_too_deeply_is_one_problem(
    tmp_path: Path, files: dict[str, str], problem: str
) -> None:
    root = _folder(tmp_path / "deep")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines() == ["error: 1 problem in dataset:", f"  {problem}"]


_LEAVES = (
    "outside the dataset folder (set follow_symlinks = true in [dataset] to read links that "
    "leave it)"
)


def _secret(tmp_path: Path, name: str = "secret.json", text: str = '{"total": 1}') -> Path:
    outside = tmp_path / "home" / name
    outside.parent.mkdir(parents=True, exist_ok=True)
    outside.write_text(text, encoding="utf-8")
    return outside


def test_sync_refuses_a_document_that_links_out_of_the_folder(tmp_path: Path) -> None:
    # a cloned dataset whose document is a link to a local secret: nothing may be sent
    root = _folder(tmp_path / "cloned")
    secret = _secret(tmp_path, "id_rsa", "PRIVATE KEY")
    (root / "documents" / "b.pdf").symlink_to(secret)
    lines = [_LINE, _LINE.replace("a.pdf", "b.pdf")]
    (root / "ground_truth.jsonl").write_text("".join(lines), encoding="utf-8")
    # an address nothing answers: the dataset must be refused before any connection
    result = run_main("--base-url", "http://127.0.0.1:9", "--api-key", "k", "sync", str(root))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines() == [
        "error: 1 problem in dataset:",
        f"  documents/b.pdf is a link to {secret}, {_LEAVES}",
    ]


@pytest.mark.parametrize(
    ("link", "toml"),
    [
        ("ground_truth.jsonl", TOML),
        ("documents/a.pdf.json", TOML),
        ("labels/export.json", TOML + "[ground_truth]\nfile = 'labels/export.json'\n"),
        ("processor/v1.json", TOML + "[processor]\nname = 'p'\nbaseline = 'processor/v1.json'\n"),
    ],
    ids=["ground-truth", "sidecar", "declared-ground-truth", "processor-config"],
)
def test_every_file_the_loader_reads_is_refused_when_it_links_out(
    tmp_path: Path, link: str, toml: str
) -> None:
    root = _folder(tmp_path / "cloned", toml)
    if link != "ground_truth.jsonl":
        (root / "ground_truth.jsonl").write_text(_LINE, encoding="utf-8")
    secret = _secret(tmp_path)
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    (root / link).symlink_to(secret)
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stderr
    problem = next(line for line in result.stderr.splitlines() if "is a link" in line)
    assert problem.endswith(f"{link} is a link to {secret}, {_LEAVES}"), problem


def test_links_inside_the_folder_are_read_and_follow_symlinks_reads_shared_storage(
    tmp_path: Path,
) -> None:
    root = _folder(tmp_path / "ds")
    (root / "store").mkdir()
    (root / "store" / "again.bin").write_bytes(b"%PDF-1.4 again")  # not a.pdf's bytes: those
    (root / "documents" / "again.pdf").symlink_to(root / "store" / "again.bin")  # would be a
    # duplicate; the link stays inside
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "c.pdf").write_bytes(b"%PDF-1.4 c")
    (root / "scans").symlink_to(shared, target_is_directory=True)
    lines = [_LINE, _LINE.replace("a.pdf", "again.pdf"), _LINE.replace("documents/a", "scans/c")]
    (root / "ground_truth.jsonl").write_text("".join(lines), encoding="utf-8")
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stderr
    assert f"  scans is a link to {shared}, {_LEAVES}" in result.stderr.splitlines()
    assert "again.pdf" not in result.stderr

    (root / "dataset.toml").write_text("[dataset]\nfollow_symlinks = true\n" + TOML)
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 0, result.stderr
    assert "3 items" in result.stdout


def test_a_documents_folder_linked_out_is_one_problem_and_not_searched(tmp_path: Path) -> None:
    root = tmp_path / "cloned"
    root.mkdir()
    (root / "dataset.toml").write_text(TOML, encoding="utf-8")
    home = tmp_path / "home"
    (home / "projects").mkdir(parents=True)
    (home / "projects" / "notes.pdf").write_bytes(b"%PDF-1.4 private")
    (home / "projects" / "notes.pdf.json").write_text('{"total": 1}')
    (root / "documents").symlink_to(home, target_is_directory=True)
    result = run_main("datasets", "validate", str(root))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines() == [
        "error: 1 problem in dataset:",
        f"  documents is a link to {home}, {_LEAVES}",
    ]
