"""``fieldwise sync`` against the real service, with every request counted by the server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fieldwise._errors import TransportError
from fieldwise.client import Client, ops
from fieldwise.datasets import load_dataset
from fieldwise.service import RunningService
from fieldwise.sync import sync_dataset
from tests.cli_main import run_main
from tests.conftest import ServiceFactory
from tests.faults import RequestLog

TRUTH = {
    "documents/a.txt": {"invoice_number": "A-1", "total": 10.5},
    "documents/b.txt": {"invoice_number": "B-2", "total": 20, "seller": {"name": "ACME"}},
    "documents/c.txt": {"invoice_number": "C-3", "total": 30},
}


def write_dataset(root: Path, truth: dict[str, dict[str, Any]]) -> Path:
    (root / "documents").mkdir(parents=True, exist_ok=True)
    (root / "dataset.toml").write_text(
        '[dataset]\nname = "mini"\ndescription = "three docs"\n\n'
        '[fields.invoice_number]\ntype = "string"\n\n[fields.total]\ntype = "currency"\n\n'
        '[fields."seller.name"]\ntype = "text"\n'
    )
    for name in truth:
        doc = root / name
        if not doc.exists():
            doc.write_text(f"Invoice {name}\n")
    (root / "ground_truth.jsonl").write_text(
        "".join(json.dumps({"file": f, "ground_truth": gt}) + "\n" for f, gt in truth.items())
    )
    return root


def _sync(service: RunningService, root: Path, **kwargs: Any) -> Any:
    with Client(service.base_url, service.api_key) as client:
        return sync_dataset(
            client,
            load_dataset(root),
            state_dir=root.parent / ".fw",
            service_identity=service.base_url,
            **kwargs,
        )


def _items(service: RunningService, eval_set_id: str) -> dict[str, Any]:
    with Client(service.base_url, service.api_key) as client:
        return {i.metadata["path"]: i for i in client.list_items(eval_set_id)}


def test_sync_then_resync_writes_nothing(
    logged: tuple[RunningService, RequestLog], tmp_path: Path
) -> None:
    service, log = logged
    root = write_dataset(tmp_path / "mini", TRUTH)
    first = _sync(service, root)
    assert first.plan.counts()["create"] == 3
    assert sum(1 for m, p in log.writes() if p == "/files/upload") == 3
    items = _items(service, first.eval_set_id)
    assert {p: dict(i.ground_truth) for p, i in items.items()} == TRUTH
    with Client(service.base_url, service.api_key) as client:
        meta = client.call(ops.get_evaluation_set(first.eval_set_id)).metadata
    assert meta["ground_truth_hash"] == first.ground_truth_hash

    log.clear()
    again = _sync(service, root)
    assert again.eval_set_id == first.eval_set_id
    assert again.plan.counts()["unchanged"] == 3
    assert log.writes() == []


def test_changes_cost_exactly_their_writes(
    logged: tuple[RunningService, RequestLog], tmp_path: Path
) -> None:
    service, log = logged
    root = write_dataset(tmp_path / "mini", TRUTH)
    eval_set_id = _sync(service, root).eval_set_id

    log.clear()
    changed = {**TRUTH, "documents/a.txt": {"invoice_number": "A-1", "total": 11.5}}
    write_dataset(root, changed)
    _sync(service, root)
    assert [m for m, _ in log.writes()] == ["PATCH", "PATCH"]  # the item, then the set's hash
    assert _items(service, eval_set_id)["documents/a.txt"].ground_truth["total"] == 11.5

    log.clear()
    (root / "documents/b.txt").write_text("a new scan of b\n")
    _sync(service, root)
    assert sum(1 for _, p in log.writes() if p == "/files/upload") == 1
    assert len(_items(service, eval_set_id)) == 3

    log.clear()
    (root / "documents/c.txt").unlink()
    del changed["documents/c.txt"]
    write_dataset(root, changed)
    _sync(service, root)
    deletes = [p for m, p in log.writes() if m == "DELETE"]
    assert len(deletes) == 1
    assert "/items/" in deletes[0]
    assert set(_items(service, eval_set_id)) == {"documents/a.txt", "documents/b.txt"}


def test_removed_key_replaces_item_and_keep_removed_reports(
    logged: tuple[RunningService, RequestLog], tmp_path: Path
) -> None:
    service, log = logged
    root = write_dataset(tmp_path / "mini", TRUTH)
    eval_set_id = _sync(service, root).eval_set_id
    # b loses its total (seller.name, on b only, may not go: a declared field without values)
    truth = {**TRUTH, "documents/b.txt": {"invoice_number": "B-2", "seller": {"name": "ACME"}}}
    write_dataset(root, truth)
    log.clear()
    _sync(service, root)
    assert not any(p == "/files/upload" for _, p in log.writes())
    assert (
        dict(_items(service, eval_set_id)["documents/b.txt"].ground_truth)
        == truth["documents/b.txt"]
    )

    del truth["documents/c.txt"]
    write_dataset(root, truth)
    result = _sync(service, root, keep_removed=True)
    assert [i.path for i in result.plan.kept_removed] == ["documents/c.txt"]
    assert len(_items(service, eval_set_id)) == 3


def test_repairs_items_deleted_behind_its_back(service: RunningService, tmp_path: Path) -> None:
    root = write_dataset(tmp_path / "mini", TRUTH)
    eval_set_id = _sync(service, root).eval_set_id
    items = _items(service, eval_set_id)
    with Client(service.base_url, service.api_key) as client:
        client.call(ops.delete_item(eval_set_id, items["documents/a.txt"].id))
        client.delete_file(items["documents/b.txt"].file_id)
    result = _sync(service, root)
    assert result.plan.counts()["create"] == 1
    assert result.plan.counts()["replace"] == 1
    repaired = _items(service, eval_set_id)
    assert set(repaired) == set(TRUTH)


def test_dry_run_changes_nothing(logged: tuple[RunningService, RequestLog], tmp_path: Path) -> None:
    service, log = logged
    root = write_dataset(tmp_path / "mini", TRUTH)
    result = _sync(service, root, dry_run=True)
    assert result.eval_set_id is None
    assert result.plan.counts()["create"] == 3
    assert log.writes() == []


def test_interrupted_sync_completes_without_duplicates(
    start_service: ServiceFactory, tmp_path: Path
) -> None:
    truth = {
        f"documents/d{i:02}.txt": {"invoice_number": f"N-{i}", "total": i, "seller": {"name": "S"}}
        for i in range(20)
    }
    root = write_dataset(tmp_path / "mini", truth)
    data_dir = tmp_path / "svc"
    flaky = start_service(data_dir=data_dir)
    with Client(flaky.base_url, flaky.api_key, max_retries=0) as client:
        dataset = load_dataset(root)
        original = client.call
        calls = {"n": 0}

        def dying_call(op: Any) -> Any:  # the server goes away after 15 calls
            calls["n"] += 1
            if calls["n"] > 15:
                flaky.stop()
            return original(op)

        client.call = dying_call  # type: ignore[method-assign]
        with pytest.raises(TransportError):
            sync_dataset(
                client, dataset, state_dir=tmp_path / ".fw", service_identity="svc", concurrency=1
            )
    restarted = start_service(data_dir=data_dir)
    with Client(restarted.base_url, restarted.api_key) as client:
        result = sync_dataset(
            client, load_dataset(root), state_dir=tmp_path / ".fw", service_identity="svc"
        )
        items = list(client.list_items(result.eval_set_id))
    assert sorted(i.metadata["path"] for i in items) == sorted(truth)
    assert result.plan.counts()["create"] < 20


def test_a_set_made_from_another_folder_is_not_replaced_without_force(
    service: RunningService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two folders with the same ``[dataset] name``: the second sync would replace the first's
    items. It exits 2 naming both folders; ``--force`` makes the set mirror the second."""
    monkeypatch.chdir(tmp_path)
    connect = ("--base-url", service.base_url, "--api-key", service.api_key)
    first = write_dataset(tmp_path / "first", TRUTH)
    other = {"documents/z.txt": {"invoice_number": "Z-9", "total": 1, "seller": {"name": "Z"}}}
    second = write_dataset(tmp_path / "second", other)
    assert run_main(*connect, "sync", str(first), "--quiet").exit_code == 0
    eval_set_id = _sync(service, first).eval_set_id

    refused = run_main(*connect, "sync", str(second), "--quiet")
    assert refused.exit_code == 2, refused.stdout
    assert (
        f"error: evaluation set 'mini' ({eval_set_id}) mirrors another dataset folder "
        "(folder:first), not this one (folder:second): syncing would replace its items."
    ) in refused.stderr
    assert sorted(_items(service, eval_set_id)) == sorted(TRUTH)  # untouched
    assert run_main(*connect, "sync", str(second), "--dry-run").exit_code == 2

    forced = run_main(*connect, "sync", str(second), "--quiet", "--force")
    assert forced.exit_code == 0, forced.stderr
    assert sorted(_items(service, eval_set_id)) == ["documents/z.txt"]
    with Client(service.base_url, service.api_key) as client:
        metadata = client.call(ops.get_evaluation_set(eval_set_id)).metadata
    assert metadata["source"] == "folder:second"
    assert run_main(*connect, "sync", str(first), "--quiet").exit_code == 2  # now the other way


def test_the_same_folder_in_another_clone_syncs_into_its_set(
    service: RunningService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CI job checks the repository out elsewhere: the folder's path inside the git work
    tree, not its absolute path, says which folder a set mirrors."""
    monkeypatch.chdir(tmp_path)
    connect = ("--base-url", service.base_url, "--api-key", service.api_key)
    clones = []
    for clone in ("laptop", "ci"):
        (tmp_path / clone / ".git").mkdir(parents=True)
        clones.append(write_dataset(tmp_path / clone / "datasets" / "mini", TRUTH))
    for root in clones:
        result = run_main(*connect, "sync", str(root), "--quiet")
        assert result.exit_code == 0, result.stderr
    eval_set_id = _sync(service, clones[1]).eval_set_id
    with Client(service.base_url, service.api_key) as client:
        metadata = client.call(ops.get_evaluation_set(eval_set_id)).metadata
    assert metadata["source"] == "git:datasets/mini"
