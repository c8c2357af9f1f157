"""``fieldwise sync`` with the embedded service: an unchanged re-sync does not start it.

After a completed sync the CLI records a fingerprint of the dataset and of the embedded
service's database files; a re-sync that matches answers "all unchanged" without the service.
Anything that could have changed the outcome — a label edited, a document added, an item
deleted through the service behind the CLI's back, the record gone — takes the normal path
and plans against what the service holds. The CLI runs in-process (``main``), in the test's
own folder, with the real embedded service on loopback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import fieldwise._connection
from fieldwise.cli import main
from fieldwise.client import Client, ops
from fieldwise.service import start_embedded
from tests.sync.test_sync import TRUTH, write_dataset


class _Started:
    """Counts the embedded services the CLI starts."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = fieldwise._connection.connect

        def counting(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(fieldwise._connection, "connect", counting)


def _sync(capsys: pytest.CaptureFixture[str], root: Path) -> dict[str, int]:
    with pytest.raises(SystemExit) as exited:
        main(["sync", str(root), "--json", "--quiet"])
    out = capsys.readouterr()
    assert exited.value.code in (0, None), out.err
    counts: dict[str, int] = json.loads(out.out)["counts"]
    return counts


def _changes(counts: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if k not in ("unchanged", "kept_removed") and v}


def test_an_unchanged_resync_does_not_start_the_service(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_dataset(tmp_path / "mini", TRUTH)
    started = _Started(monkeypatch)
    assert _sync(capsys, root)["create"] == 3
    assert started.count == 1
    for _ in range(2):
        counts = _sync(capsys, root)
        assert counts["unchanged"] == 3
        assert _changes(counts) == {}
    assert started.count == 1  # neither re-sync started the service


def test_a_label_edited_or_a_document_added_is_synced(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_dataset(tmp_path / "mini", TRUTH)
    started = _Started(monkeypatch)
    _sync(capsys, root)
    edited = {**TRUTH, "documents/a.txt": {"invoice_number": "A-9", "total": 10.5}}
    write_dataset(root, edited)
    assert _changes(_sync(capsys, root)) == {"update": 1}
    added = {**edited, "documents/d.txt": {"invoice_number": "D-4", "total": 40}}
    write_dataset(root, added)
    assert _changes(_sync(capsys, root)) == {"create": 1, "upload": 1}
    assert started.count == 3
    assert _sync(capsys, root)["unchanged"] == 4
    assert started.count == 3


def test_a_change_behind_the_clis_back_is_noticed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_dataset(tmp_path / "mini", TRUTH)
    started = _Started(monkeypatch)
    _sync(capsys, root)
    service = start_embedded(tmp_path / ".fieldwise" / "service")
    try:
        with Client(service.base_url, service.api_key) as client:
            es = client.call(ops.list_evaluation_sets(name="mini")).data[0]
            item = next(iter(client.list_items(es.id)))
            client.call(ops.delete_item(es.id, item.id))
    finally:
        service.stop()
    assert _changes(_sync(capsys, root)) == {"create": 1}
    assert started.count == 2
    assert _sync(capsys, root)["unchanged"] == 3
    assert started.count == 2


def test_without_the_record_the_service_is_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_dataset(tmp_path / "mini", TRUTH)
    started = _Started(monkeypatch)
    _sync(capsys, root)
    for state in (tmp_path / ".fieldwise" / "sync").glob("*.json"):
        data = json.loads(state.read_text())
        data.pop("last_sync")
        state.write_text(json.dumps(data))
    assert _sync(capsys, root)["unchanged"] == 3
    assert started.count == 2
