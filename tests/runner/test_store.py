"""The run-set store and the run cache on their own: durability rules and lookups."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from fieldwise._errors import RunnerError
from fieldwise.runner import (
    ItemSnapshot,
    Manifest,
    RunCache,
    RunRecord,
    VersionRef,
    list_runsets,
    load_runset,
)
from fieldwise.runner import _runset_store as store
from fieldwise.runner._runset_store import (
    RecordWriter,
    create_runset,
    find_incomplete,
    write_whole_runset,
)

ITEMS = [
    ItemSnapshot("item_a", "documents/a.txt", "aa", "file_a", {"n": 1}),
    ItemSnapshot("item_b", "documents/b.txt", "bb", "file_b", {"n": 2}),
]


def _manifest(runset_id: str, **arguments: object) -> Manifest:
    return Manifest(
        runset_id=runset_id,
        service_identity="http://svc",
        base_url="http://svc",
        processor_id="p",
        eval_set_id="es_1",
        eval_set_name="set",
        dataset="set",
        ground_truth_hash="gt",
        versions=(VersionRef("published", "ver_2", number=2, aliases=("published",)),),
        item_count=2,
        created_at="2026-01-01T00:00:00Z",
        arguments=dict(arguments),
    )


def _record(item: str, status: str = "succeeded", value: int = 1) -> RunRecord:
    output = {"value": {"n": value}, "metadata": {}} if status == "succeeded" else None
    error = None if status == "succeeded" else {"reason": "boom", "message": "x"}
    return RunRecord(
        item, f"documents/{item}.txt", "h", "ver_2", "published", "run_1", status, output,
        5, 1, False, error, "2026-01-01T00:00:01Z",
    )  # fmt: skip


def test_a_torn_last_line_is_ignored_and_the_next_append_starts_clean(tmp_path: Path) -> None:
    directory = create_runset(tmp_path, _manifest("rs_1"), ITEMS)
    with RecordWriter(directory) as writer:
        writer.append(_record("item_a"))
    with (directory / "records.jsonl").open("a") as handle:
        handle.write('{"item_id": "item_b", "sta')  # the process died here
    assert [r.item_id for r in load_runset("rs_1", tmp_path).records] == ["item_a"]
    with RecordWriter(directory) as writer:
        writer.append(_record("item_b"))
    loaded = load_runset("rs_1", tmp_path)
    assert [r.item_id for r in loaded.records] == ["item_a", "item_b"]
    assert loaded.complete


def test_each_record_is_on_disk_at_once_and_fsynced_in_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    monkeypatch.setattr(store, "SYNC_SECONDS", 3600.0)  # no batch falls due in this test
    directory = create_runset(tmp_path, _manifest("rs_1"), ITEMS)
    synced.clear()
    writer = RecordWriter(directory)
    writer.append(_record("item_a"))
    writer.append(_record("item_b"))
    # Flushed, not yet fsynced: another reader (a resume after this process was killed)
    # already sees both lines.
    assert [r.item_id for r in load_runset("rs_1", tmp_path).records] == ["item_a", "item_b"]
    assert synced == []
    writer.close()
    assert len(synced) == 1  # closing makes the tail durable
    monkeypatch.setattr(store, "SYNC_SECONDS", 0.0)
    with RecordWriter(directory) as writer:
        writer.append(_record("item_a", value=2))
        writer.append(_record("item_b", value=2))
    assert len(synced) == 3  # due at each append; nothing left to sync at close


def test_a_whole_run_set_is_written_at_once_and_reads_back(tmp_path: Path) -> None:
    records = [_record("item_a"), _record("item_b", "failed")]
    written = write_whole_runset(tmp_path / "results", _manifest("rs_1"), ITEMS, records)
    assert written.directory == tmp_path / "results" / "rs_1"
    assert [p.name for p in (tmp_path / "results").iterdir()] == ["rs_1"]  # no staging left
    loaded = load_runset("rs_1", tmp_path / "results")
    assert loaded.records == written.records == tuple(records)
    assert loaded.items == tuple(ITEMS)
    assert loaded.manifest == written.manifest


def test_an_interrupted_whole_write_leaves_no_half_run_set(tmp_path: Path) -> None:
    def interrupted() -> Iterator[RunRecord]:
        yield _record("item_a")
        raise KeyboardInterrupt  # Ctrl-C between two records

    results = tmp_path / "results"
    with pytest.raises(KeyboardInterrupt):
        write_whole_runset(results, _manifest("rs_1"), ITEMS, interrupted())
    assert list(results.iterdir()) == []
    assert list_runsets(results) == []


def test_a_whole_write_that_cannot_land_leaves_the_other_in_place(tmp_path: Path) -> None:
    results = tmp_path / "results"
    (results / "rs_1").mkdir(parents=True)
    (results / "rs_1" / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(RunnerError, match="cannot write run set rs_1"):
        write_whole_runset(results, _manifest("rs_1"), ITEMS, [_record("item_a")])
    assert [p.name for p in results.iterdir()] == ["rs_1"]
    assert [p.name for p in (results / "rs_1").iterdir()] == ["keep.txt"]


def test_the_last_record_of_a_pair_wins(tmp_path: Path) -> None:
    directory = create_runset(tmp_path, _manifest("rs_1"), ITEMS)
    with RecordWriter(directory) as writer:
        writer.append(_record("item_a", "failed"))
        writer.append(_record("item_a", value=7))
    (record,) = load_runset("rs_1", tmp_path).records
    assert record.status == "succeeded"
    assert record.output == {"value": {"n": 7}, "metadata": {}}


def test_values_with_unicode_line_separators_read_back(tmp_path: Path) -> None:
    # The store writes non-ASCII as it is, so U+2028 (text pulled from PDFs has it), U+0085
    # and U+001E sit raw inside a line; reading split lines at them too, and dropped the
    # item (an "N items, the manifest says M" error) and the record (a "missing" run).
    odd = "a\u2028b\x85c\x1ed\u2029e"
    items = [ItemSnapshot("item_a", "documents/a.txt", "aa", "file_a", {"n": odd}), ITEMS[1]]
    directory = create_runset(tmp_path, _manifest("rs_1"), items)
    record = _record("item_a")
    record = RunRecord.from_json({**record.to_json(), "output": {"value": {"n": odd}}})
    with RecordWriter(directory) as writer:
        writer.append(record)
    loaded = load_runset("rs_1", tmp_path)
    assert loaded.items[0].ground_truth == {"n": odd}
    assert [r.output for r in loaded.records] == [{"value": {"n": odd}}]


def test_find_incomplete_matches_arguments_and_skips_complete_sets(tmp_path: Path) -> None:
    create_runset(tmp_path, _manifest("rs_1", items="x", service="s"), ITEMS)
    done = create_runset(tmp_path, _manifest("rs_2", items="x", service="s"), ITEMS)
    create_runset(tmp_path, _manifest("rs_3", items="y", service="s"), ITEMS)
    with RecordWriter(done) as writer:
        writer.append(_record("item_a"))
        writer.append(_record("item_b"))
    keys = ("items", "service")
    found = find_incomplete(tmp_path, {"items": "x", "service": "s"}, keys=keys)
    assert found is not None
    assert found.manifest.runset_id == "rs_1"
    assert find_incomplete(tmp_path, {"items": "z", "service": "s"}, keys=keys) is None
    assert find_incomplete(tmp_path / "missing", {}, keys=keys) is None


def test_a_folder_without_manifest_or_with_missing_items_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RunnerError, match="no run set"):
        load_runset("rs_none", tmp_path)
    directory = create_runset(tmp_path, _manifest("rs_1"), ITEMS)
    lines = (directory / "items.jsonl").read_text().splitlines()
    (directory / "items.jsonl").write_text(lines[0] + "\n")
    with pytest.raises(RunnerError, match="1 items, the manifest says 2"):
        load_runset("rs_1", tmp_path)


def test_manifest_round_trips(tmp_path: Path) -> None:
    manifest = _manifest("rs_1", concurrency=8)
    create_runset(tmp_path, manifest, ITEMS)
    assert load_runset("rs_1", tmp_path).manifest == manifest
    on_disk = json.loads((tmp_path / "rs_1" / "runset.json").read_text())
    # the name and every alias naming the version travel with the run set (for compare,
    # publish and the report's labels)
    assert on_disk["versions"] == [
        {
            "requested": "published",
            "version_id": "ver_2",
            "alias": "published",
            "config_hash": "",
            "number": 2,
            "name": "v2",
            "aliases": ["published"],
        }
    ]


def test_a_manifest_written_before_names_reads_with_the_id_as_name() -> None:
    old = {"requested": "ver_9", "version_id": "ver_9", "alias": None, "config_hash": ""}
    ref = VersionRef.from_json(old)
    assert (ref.number, ref.aliases, ref.name, ref.label) == (None, (), "ver_9", "ver_9")
    assert ref.answers_to("ver_9")
    assert not ref.answers_to("latest-draft")


def test_cache_is_keyed_by_service_processor_version_and_content(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "runs.sqlite"
    with RunCache(path) as cache:
        cache.put("s", "p", "v", "h", run_id="run_1", output={"value": {}}, latency_ms=3,
                  stored_at="t")  # fmt: skip
    with RunCache(path) as cache:
        hit = cache.get("s", "p", "v", "h")
        assert hit is not None
        assert (hit.run_id, hit.output, hit.latency_ms) == ("run_1", {"value": {}}, 3)
        for key in [("x", "p", "v", "h"), ("s", "x", "v", "h"), ("s", "p", "x", "h"),
                    ("s", "p", "v", "x")]:  # fmt: skip
            assert cache.get(*key) is None
