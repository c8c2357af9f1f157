"""A re-sync decides "nothing changed" over HTTP, from the evaluation set's ``ETag``.

After a completed sync the library records a fingerprint of the dataset and of the set's
``ETag`` (a digest of everything the set holds, sent with ``GET /evaluation-sets/{id}``). A
re-sync whose dataset and current ``ETag`` both match answers "all unchanged" from that one
GET, listing neither the set's items nor the service's files. Anything that could have changed
the outcome — a label edited, a document added, an item deleted behind the toolkit's back, the
record gone — takes the normal path and plans against what the service holds. Every request is
counted by the real service (``RequestLog``), on loopback.
"""

from __future__ import annotations

import json
from pathlib import Path

from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from fieldwise.sync import SyncResult
from tests.faults import RequestLog
from tests.sync.test_sync import TRUTH, _items, _sync, write_dataset


def _listings(log: RequestLog) -> list[str]:
    """The listing requests a full sync plans from (the set's items, the service's files)."""
    return [p for m, p in log.requests if m == "GET" and (p == "/files" or p.endswith("/items"))]


def _changes(counts: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if k not in ("unchanged", "kept_removed") and v}


def _first_sync(service: RunningService, tmp_path: Path) -> tuple[Path, str]:
    """The mini dataset, synced once: its folder and its evaluation set's id."""
    root = write_dataset(tmp_path / "mini", TRUTH)
    eval_set_id = _sync(service, root).eval_set_id
    assert eval_set_id is not None
    return root, eval_set_id


def _resynced(service: RunningService, root: Path, changes: dict[str, int]) -> SyncResult:
    """A re-sync that must plan against the service and make exactly ``changes``; the one
    after it knows from the tag that nothing changed."""
    result = _sync(service, root)
    assert not result.known_unchanged
    assert _changes(result.plan.counts()) == changes
    assert _sync(service, root).known_unchanged
    return result


def test_an_unchanged_resync_asks_one_question(
    logged: tuple[RunningService, RequestLog], tmp_path: Path
) -> None:
    service, log = logged
    root = write_dataset(tmp_path / "mini", TRUTH)
    first = _sync(service, root)
    assert first.plan.counts()["create"] == 3
    assert not first.known_unchanged
    for _ in range(2):
        log.clear()
        again = _sync(service, root)
        assert again.known_unchanged
        assert again.eval_set_id == first.eval_set_id
        assert again.plan.counts()["unchanged"] == 3
        assert _changes(again.plan.counts()) == {}
        assert log.requests == [("GET", f"/evaluation-sets/{first.eval_set_id}")]


def test_a_label_edited_or_a_document_added_is_synced(
    logged: tuple[RunningService, RequestLog], tmp_path: Path
) -> None:
    service, log = logged
    root = write_dataset(tmp_path / "mini", TRUTH)
    _sync(service, root)
    edited = {**TRUTH, "documents/a.txt": {"invoice_number": "A-9", "total": 10.5}}
    write_dataset(root, edited)
    assert _changes(_sync(service, root).plan.counts()) == {"update": 1}
    added = {**edited, "documents/d.txt": {"invoice_number": "D-4", "total": 40}}
    write_dataset(root, added)
    assert _changes(_sync(service, root).plan.counts()) == {"create": 1, "upload": 1}
    log.clear()
    last = _sync(service, root)
    assert last.known_unchanged
    assert last.plan.counts()["unchanged"] == 4
    assert _listings(log) == []


def test_a_change_behind_the_toolkits_back_is_noticed(
    logged: tuple[RunningService, RequestLog], tmp_path: Path
) -> None:
    service, log = logged
    root, es = _first_sync(service, tmp_path)
    with Client(service.base_url, service.api_key) as client:
        before = client.call(ops.evaluation_set_etag(es))
        item = next(iter(client.list_items(es)))
        client.call(ops.update_item(es, item.id, ground_truth={"total": 99}))
        patched = client.call(ops.evaluation_set_etag(es))
        client.call(ops.delete_item(es, item.id))
        deleted = client.call(ops.evaluation_set_etag(es))
    assert len({before, patched, deleted}) == 3  # every change moves the tag
    log.clear()
    _resynced(service, root, {"create": 1})
    assert _listings(log) != []


def test_without_the_record_the_service_is_asked(
    logged: tuple[RunningService, RequestLog], tmp_path: Path
) -> None:
    service, log = logged
    root = write_dataset(tmp_path / "mini", TRUTH)
    _sync(service, root)
    for state in (root.parent / ".fw" / "sync").glob("*.json"):
        data = json.loads(state.read_text())
        data.pop("last_sync")
        state.write_text(json.dumps(data))
    log.clear()
    again = _sync(service, root)
    assert not again.known_unchanged
    assert again.plan.counts()["unchanged"] == 3
    assert _listings(log) != []


def test_one_changed_document_or_label_is_exactly_what_is_written(
    logged: tuple[RunningService, RequestLog], tmp_path: Path
) -> None:
    service, log = logged
    root = write_dataset(tmp_path / "mini", TRUTH)
    _sync(service, root)
    (root / "documents" / "b.txt").write_text("Invoice B, second scan\n")
    log.clear()
    content = _resynced(service, root, {"replace": 1, "upload": 1})
    assert [i.file for i, _old in content.plan.replace] == ["documents/b.txt"]
    assert sum(1 for _m, p in log.writes() if p == "/files/upload") == 1
    relabelled = {**TRUTH, "documents/c.txt": {"invoice_number": "C-3", "total": 31}}
    write_dataset(root, relabelled)
    label = _resynced(service, root, {"update": 1})
    assert [i.file for i, _old in label.plan.update] == ["documents/c.txt"]


def test_a_document_deleted_on_the_service_is_uploaded_again(
    logged: tuple[RunningService, RequestLog], tmp_path: Path
) -> None:
    # The set's rows do not change when a file its item points at is deleted: the tag must.
    service, _log = logged
    root, es = _first_sync(service, tmp_path)
    with Client(service.base_url, service.api_key) as client:
        item = next(i for i in client.list_items(es) if i.metadata["path"] == "documents/a.txt")
        client.call(ops.delete_file(item.file_id))
    resynced = _resynced(service, root, {"replace": 1, "upload": 1})
    assert [i.file for i, _old in resynced.plan.replace] == ["documents/a.txt"]


def test_a_write_beside_the_sync_is_not_recorded_as_its_own(
    logged: tuple[RunningService, RequestLog], tmp_path: Path
) -> None:
    """Another writer changes an item while a sync writes: the tag the sync reads afterwards
    covers that change, so recording it would make the next re-sync call the set unchanged
    while it no longer mirrors the dataset. The set's revision shows the extra write."""
    service, _log = logged
    root, es = _first_sync(service, tmp_path)
    with Client(service.base_url, service.api_key) as other:
        victim = next(i for i in other.list_items(es) if i.metadata["path"] == "documents/b.txt")
        edited = {**TRUTH, "documents/a.txt": {"invoice_number": "A-9", "total": 10.5}}
        write_dataset(root, edited)

        def meddle(_stage: str, _n: int) -> None:  # called once the sync's one write is done
            other.call(ops.update_item(es, victim.id, ground_truth={"total": 99}))

        assert _changes(_sync(service, root, progress=meddle).plan.counts()) == {"update": 1}
    _resynced(service, root, {"update": 1})
    assert _items(service, es)["documents/b.txt"].ground_truth["total"] == 20
