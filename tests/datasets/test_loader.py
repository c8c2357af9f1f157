from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fieldwise._errors import DatasetNotFound, DatasetValidationError
from fieldwise.datasets import HashCache, load_dataset
from tests.datasets.conftest import DEFAULT_TOML, WriteDataset, declaring


def _line(file: str, truth: object) -> str:
    return json.dumps({"file": file, "ground_truth": truth}) + "\n"


GOOD_JSONL = (
    _line("documents/b.pdf", {"invoice_number": "B-2", "total": 20.5})
    + "\n"  # blank lines are allowed
    + _line(
        "documents/a.pdf",
        {
            "invoice_number": "A-1",
            "total": 10,
            "seller": {"name": "Acme GmbH"},
            "line_items": [{"description": "Bolts", "amount": 10}],
        },
    )
    + _line("documents/c.pdf", {"invoice_number": "C-3"})
)


def _problems(root: Path) -> list[str]:
    with pytest.raises(DatasetValidationError) as caught:
        load_dataset(root)
    return caught.value.problems


def test_valid_jsonl_dataset_loads_sorted_items(write_dataset: WriteDataset) -> None:
    root = write_dataset(jsonl=GOOD_JSONL)
    dataset = load_dataset(root)
    assert dataset.name == "tiny"
    assert dataset.date_order == "YMD"
    assert [item.file for item in dataset.items] == [
        "documents/a.pdf",
        "documents/b.pdf",
        "documents/c.pdf",
    ]
    first = dataset.items[0]
    assert first.source == "ground_truth.jsonl:3"
    assert first.path == root / "documents" / "a.pdf"
    assert first.ground_truth["seller"] == {"name": "Acme GmbH"}
    assert set(dataset.fields) == {"invoice_number", "total", "seller.name", "line_items"}
    assert dataset.fields["invoice_number"]["critical"] is True
    assert dataset.fields["line_items"]["columns"]["amount"] == {"type": "currency"}
    assert dataset.warnings == ()
    assert dataset.processor is None
    assert dataset.gate is None


def test_missing_folder_and_missing_toml_raise_dataset_not_found(tmp_path: Path) -> None:
    base = tmp_path
    with pytest.raises(DatasetNotFound):
        load_dataset(base / "nope")
    (base / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match=r"dataset\.toml not found"):
        load_dataset(base / "empty")


def test_bad_toml_names_the_line(write_dataset: WriteDataset) -> None:
    root = write_dataset(toml='[dataset]\nname = "x"\ndescription = \n', jsonl=GOOD_JSONL)
    problems = _problems(root)
    assert len(problems) == 1
    assert problems[0].startswith("dataset.toml:3: invalid TOML")


def test_unknown_and_invalid_toml_keys_name_their_lines(write_dataset: WriteDataset) -> None:
    toml = """\
[dataset]
name = "x"
colour = "blue"

[fields.total]
type = "currency"
tolerance = 0.01
threshold = 1.5

[fields.kind]
type = "colour"

[fields.notype]
critical = true

[extras]
a = 1
"""
    problems = _problems(write_dataset(toml=toml, jsonl=GOOD_JSONL))
    # (GOOD_JSONL's fields are not declared here: problems of ground_truth.jsonl, not shown)
    assert [p for p in problems if p.startswith("dataset.toml")] == [
        "dataset.toml:3: unknown key 'colour' in [dataset] (expected one of: name, description, "
        "date_order, locale, follow_symlinks, allow_duplicates)",
        "dataset.toml:7: unknown key 'tolerance' in [fields.total] (expected one of: type, "
        "critical, case_sensitive, normalize_whitespace, ignore_punctuation, ignore_spaces, "
        "fold_lines, currency_required, weight, atol, rtol, threshold, values, date_order, "
        "columns)",
        "dataset.toml:8: field 'total': threshold must be a number in [0, 1]",
        "dataset.toml:11: field 'kind' has unknown type 'colour' (one of: string, number, "
        "currency, date, enum, boolean, text, array)",
        "dataset.toml:13: field 'notype' has no type (one of: string, number, currency, date, "
        "enum, boolean, text, array)",
        "dataset.toml:16: unknown key 'extras' (expected one of: dataset, fields, processor, gate, "
        "ground_truth, splits, import)",
    ]


def test_bad_json_lines_name_their_lines(write_dataset: WriteDataset) -> None:
    jsonl = (
        _line("documents/a.pdf", {"invoice_number": "A"})
        + '{"file": "documents/b.pdf", "ground_truth": {\n'
        + "[1, 2]\n"
        + '{"file": "documents/c.pdf"}\n'
        + '{"file": "documents/c.pdf", "ground_truth": {}, "note": 1}\n'
    )
    problems = _problems(write_dataset(jsonl=jsonl))
    assert problems[0].startswith("ground_truth.jsonl:2: invalid JSON:")
    assert problems[1:] == [
        "ground_truth.jsonl:3: expected an object with 'file' and 'ground_truth'",
        "ground_truth.jsonl:4: 'ground_truth' must be an object",
        "ground_truth.jsonl:5: unknown key(s) 'note'",
    ]


def test_bad_csv_rows_name_their_lines(write_dataset: WriteDataset) -> None:
    csv = (
        "file,invoice_number,total\n"
        "documents/a.pdf,A-1,10.5\n"
        'documents/b.pdf,"B\n-2",abc\n'  # a quoted cell spanning two lines: the row starts at 3
        "documents/c.pdf,C-3\n"
        ",D-4,1\n"
    )
    problems = _problems(write_dataset(csv=csv))
    assert problems == [
        "ground_truth.csv:3: column 'total': 'abc' cannot be read as an amount",
        "ground_truth.csv:5: row has 2 cells, the header has 3",
        "ground_truth.csv:6: the 'file' cell is empty",
    ]


def test_csv_header_problems(write_dataset: WriteDataset) -> None:
    problems = _problems(write_dataset(csv="name,total,total,seller,seller.name\nx,1,2,3,4\n"))
    assert problems == [
        "ground_truth.csv:1: the header has no 'file' column",
        "ground_truth.csv:1: duplicate column 'total'",
        "ground_truth.csv:1: column 'seller' clashes with nested column 'seller.name'",
    ]


def test_csv_dotted_columns_build_nested_values(write_dataset: WriteDataset) -> None:
    csv = (
        "file,invoice_number,total,seller.name,seller.address.city,code,count,ratio,line_items\n"
        "documents/a.pdf,0042,12.50,Acme,Leeds,007,3,0.5,"
        '"[{""description"": ""x"", ""amount"": 1}]"\n'
        "documents/b.pdf,B-1,7,,,,,,\n"
    )
    toml = DEFAULT_TOML + (
        '\n[fields.seller.address.city]\ntype = "text"\n\n[fields.code]\ntype = "string"\n'
        '\n[fields.count]\ntype = "number"\n\n[fields.ratio]\ntype = "number"\n'
    )
    dataset = load_dataset(write_dataset(toml=toml, csv=csv))
    first, second = dataset.items[0].ground_truth, dataset.items[1].ground_truth
    assert first == {
        "invoice_number": "0042",  # declared string: stays a string
        "total": 12.5,
        "seller": {"name": "Acme", "address": {"city": "Leeds"}},
        "code": "007",  # declared string, leading zero: an identifier, kept as text
        "count": 3,
        "ratio": 0.5,
        "line_items": [{"description": "x", "amount": 1}],
    }
    assert second == {"invoice_number": "B-1", "total": 7}  # empty cells are left out
    assert dataset.items[0].source == "ground_truth.csv:2"
    assert dataset.warnings == ("1 document(s) have no ground truth: documents/c.pdf",)


def test_sidecars_hold_the_ground_truth_object(write_dataset: WriteDataset) -> None:
    root = write_dataset(
        toml=declaring("invoice_number", "total"),
        sidecars={
            "documents/a.pdf.json": json.dumps({"invoice_number": "A", "total": 1.25}),
            "documents/b.pdf.json": '{\n  "invoice_number": "B",\n  "total": \n}',
            "documents/c.pdf.json": "[]",
        },
    )
    problems = _problems(root)
    assert problems[0].startswith("documents/b.pdf.json:4: invalid JSON:")
    assert problems[1] == "documents/c.pdf.json:1: a sidecar must hold the ground-truth object"

    (root / "documents" / "b.pdf.json").unlink()
    (root / "documents" / "c.pdf.json").unlink()
    dataset = load_dataset(root)
    assert [(i.file, i.source) for i in dataset.items] == [
        ("documents/a.pdf", "documents/a.pdf.json:1")
    ]
    assert dataset.items[0].ground_truth == {"invoice_number": "A", "total": 1.25}
    assert dataset.warnings == (
        "2 document(s) have no ground truth: documents/b.pdf, documents/c.pdf",
    )


def test_missing_files_and_paths_outside_the_dataset(write_dataset: WriteDataset) -> None:
    jsonl = (
        _line("documents/gone.pdf", {"invoice_number": "X"})
        + _line("../secret.pdf", {"invoice_number": "Y"})
        + _line("/etc/passwd", {"invoice_number": "Z"})
    )
    problems = _problems(write_dataset(jsonl=jsonl))
    assert problems == [
        "ground_truth.jsonl:1: file not found: documents/gone.pdf",
        "ground_truth.jsonl:2: file must be a path inside the dataset folder: ../secret.pdf",
        "ground_truth.jsonl:3: file must be a path inside the dataset folder: /etc/passwd",
    ]


def test_duplicate_entries_within_and_across_sources(write_dataset: WriteDataset) -> None:
    jsonl = _line("documents/a.pdf", {"total": 1}) + _line("./documents/a.pdf", {"total": 2})
    root = write_dataset(
        jsonl=jsonl,
        csv="file,total\ndocuments/b.pdf,1\n",
        sidecars={"documents/b.pdf.json": '{"total": 3}'},
    )
    # Problems come sorted by file, then line.
    assert _problems(root) == [
        "documents/b.pdf.json:1: duplicate entry for documents/b.pdf (first at ground_truth.csv:2)",
        "ground_truth.jsonl:2: duplicate entry for documents/a.pdf (first at ground_truth.jsonl:1)",
    ]


def test_values_of_the_wrong_shape_or_declared_type(write_dataset: WriteDataset) -> None:
    jsonl = (
        _line("documents/a.pdf", {"invoice_number": None, "tags": ["x", "y"], "total": "ten"})
        + _line("documents/b.pdf", {"line_items": [{"description": "x", "amount": [1]}, 5]})
        + _line("documents/c.pdf", {"seller": {"name": {"first": "A"}}, "total": float("nan")})
    )
    assert _problems(write_dataset(jsonl=jsonl)) == [
        "ground_truth.jsonl:1: 'invoice_number' is null; leave the field out when no value is "
        "expected",
        "ground_truth.jsonl:1: tags[0] must be an object (a row), not a string",
        "ground_truth.jsonl:1: tags[1] must be an object (a row), not a string",
        "ground_truth.jsonl:1: 'total' is declared as currency but 'ten' cannot be read as an "
        "amount",
        "ground_truth.jsonl:1: field 'tags' is not declared in dataset.toml (1 item); declare "
        "it under [fields] or leave it out of the ground truth",
        "ground_truth.jsonl:2: line_items[0].amount must be a string, number or boolean, "
        "not a list",
        "ground_truth.jsonl:2: line_items[1] must be an object (a row), not a number",
        "ground_truth.jsonl:3: 'seller.name' is declared as text but holds an object",
        "ground_truth.jsonl:3: 'total' is not a finite number",
    ]


def test_undeclared_fields_are_problems_counted_per_field(write_dataset: WriteDataset) -> None:
    """An undeclared field would be compared as a plain string whatever its values are, and
    hides a typo in dataset.toml: a problem (it was a warning), counted per field."""
    jsonl = (
        _line("documents/a.pdf", {"invoice_number": "A", "iban": "DE1"})
        + _line("documents/b.pdf", {"invoice_number": "B", "iban": "DE2"})
        + _line("documents/c.pdf", {"line_items": [{"description": "x", "amount": 1, "sku": "1"}]})
    )
    root = write_dataset(toml=declaring("invoice_number", "line_items"), jsonl=jsonl)
    assert _problems(root) == [
        "ground_truth.jsonl:1: field 'iban' is not declared in dataset.toml (2 items); declare "
        "it under [fields] or leave it out of the ground truth",
        "ground_truth.jsonl:3: field 'line_items[].sku' is not declared in dataset.toml "
        "(1 item); declare it under [fields] or leave it out of the ground truth",
    ]


def test_a_declared_field_or_column_no_document_has_is_a_problem(
    write_dataset: WriteDataset,
) -> None:
    jsonl = _line("documents/a.pdf", {"invoice_number": "A", "line_items": [{"amount": 1}]})
    root = write_dataset(toml=declaring("invoice_number", "total", "line_items"), jsonl=jsonl)
    assert _problems(root) == [
        "dataset.toml:9: field 'total' is declared but no document has a value for it "
        "(a typo? ground truth without it?)",
        "dataset.toml:15: field 'line_items[].description' is declared but no document has a "
        "value for it (a typo? ground truth without it?)",
    ]


def test_all_problems_are_reported_at_once(write_dataset: WriteDataset) -> None:
    root = write_dataset(
        toml="[dataset]\nname = 3\n[fields.total]\ntype = 'currency'\n",
        jsonl="not json\n" + _line("documents/zz.pdf", {"total": 1}),
        csv="file,total\ndocuments/a.pdf,x\n",
    )
    with pytest.raises(DatasetValidationError) as caught:
        load_dataset(root)
    assert len(caught.value.problems) == 4
    assert caught.value.exit_code == 2
    message = str(caught.value)
    assert message.startswith("4 problems in dataset:")
    for where in (
        "dataset.toml:2",
        "ground_truth.jsonl:1",
        "ground_truth.jsonl:2",
        "ground_truth.csv:2",
    ):
        assert where in message


def test_no_ground_truth_at_all_is_a_problem(write_dataset: WriteDataset) -> None:
    problems = _problems(write_dataset())
    assert problems == [
        "dataset.toml:1: no ground truth found (expected ground_truth.jsonl, ground_truth.csv, "
        "ground_truth.parquet, documents/<file>.json sidecars or a [ground_truth] file)"
    ]


def test_processor_section_loads_version_configs(write_dataset: WriteDataset) -> None:
    toml = (
        "[dataset]\nname = 'p'\ndate_order = 'DMY'\n[fields.total]\ntype = 'currency'\n"
        "[processor]\nname = 'inv'\ndescription = 'd'\n"
        "baseline = 'processor/v1.json'\ncandidate = 'processor/v2.json'\n"
        "[gate]\nmin_accuracy = 0.9\n"
    )
    config = {"engine": "rules", "fields": [{"name": "total", "type": "currency"}]}
    root = write_dataset(
        toml=toml,
        jsonl=_line("documents/a.pdf", {"total": 1}),
        files={"processor/v1.json": json.dumps(config), "processor/v2.json": json.dumps(config)},
    )
    dataset = load_dataset(root)
    assert dataset.date_order == "DMY"
    assert dataset.gate == {"min_accuracy": 0.9}
    processor = dataset.processor
    assert processor is not None
    assert (processor.name, processor.type, processor.description) == ("inv", "extraction", "d")
    baseline = processor.version("baseline")
    assert baseline is not None
    assert baseline.config == config
    assert baseline.path == root / "processor" / "v1.json"
    assert processor.version("nope") is None


def test_processor_problems_name_their_lines(write_dataset: WriteDataset) -> None:
    toml = (
        "[fields.total]\ntype = 'currency'\n"
        "[processor]\nname = 'inv'\ntype = 'classifier'\n"
        "baseline = 'processor/v1.json'\ncandidate = 'processor/missing.json'\nstaging = 'x'\n"
    )
    root = write_dataset(
        toml=toml,
        jsonl=_line("documents/a.pdf", {"total": 1}),
        files={"processor/v1.json": '{\n  "fields": [\n    {"name": }\n  ]\n}'},
    )
    problems = _problems(root)
    assert problems[0] == "dataset.toml:5: [processor] type must be 'extraction'"
    assert problems[1] == (
        "dataset.toml:7: [processor] candidate: file not found: processor/missing.json"
    )
    assert problems[2].startswith("dataset.toml:8: unknown key 'staging' in [processor]")
    assert problems[3].startswith("processor/v1.json:3: invalid JSON:")


def test_files_that_are_not_utf8_are_problems(write_dataset: WriteDataset) -> None:
    root = write_dataset(sidecars={"documents/a.pdf.json": "{}"})
    (root / "documents" / "a.pdf.json").write_bytes(b'{"total": "\xff"}')
    assert _problems(root) == ["documents/a.pdf.json:1: not UTF-8 text (invalid start byte)"]
    (root / "dataset.toml").write_bytes(b"[dataset]\nname = '\xff'\n")
    assert _problems(root)[0] == "dataset.toml:1: not UTF-8 text (invalid start byte)"


def test_documents_are_compared_through_a_given_hash_cache(
    write_dataset: WriteDataset, tmp_path: Path
) -> None:
    # The three documents share a size, so the duplicate check needs their hashes: a re-sync
    # takes them from the sync's cache instead of reading every document again.
    root = write_dataset(jsonl=GOOD_JSONL)
    cache = HashCache(tmp_path / "hashes.json")
    load_dataset(root, hashes=cache)
    assert (cache.hits, cache.misses) == (0, 3)
    load_dataset(root, hashes=cache)
    assert (cache.hits, cache.misses) == (3, 3)
    copy = root / "documents" / "c.pdf"
    copy.write_bytes((root / "documents" / "a.pdf").read_bytes())
    os.utime(copy, ns=(1, 1))  # a changed modification time, however coarse the clock
    with pytest.raises(DatasetValidationError) as caught:
        load_dataset(root, hashes=cache)
    assert "documents/c.pdf is byte-identical to documents/a.pdf" in str(caught.value)
