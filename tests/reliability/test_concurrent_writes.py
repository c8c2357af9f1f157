"""Concurrent writers on one resource, on SQLite and on PostgreSQL, over real HTTP: merges
keep every key, version numbers stay distinct, the default is the version published last.

Each test releases its writers together (a barrier); the fixes make every interleaving right,
so the assertions hold whatever the scheduling.
"""

from __future__ import annotations

from typing import Any

from tests.reliability.backends import Api, api, pg_url, together, unique

__all__ = ["api", "pg_url"]  # fixtures, imported for pytest

WRITERS = 20
CONFIG = {"fields": [{"name": "total", "type": "currency", "labels": ["Total"]}]}


def _keys(count: int) -> set[str]:
    return {f"k{i:02d}" for i in range(count)}


def _processor(api: Api) -> str:
    return str(api.ok("POST", "/processors", json={"name": unique("race")})["id"])


def test_concurrent_item_merges_keep_every_key(api: Api) -> None:
    file_id = api.upload(b"Total: 1.00 EUR\n")
    set_id = api.ok("POST", "/evaluation-sets", json={"name": unique("set")})["id"]
    item = api.ok(
        "POST",
        f"/evaluation-sets/{set_id}/items",
        json={"file_id": file_id, "ground_truth": {"base": 0}},
    )
    path = f"/evaluation-sets/{set_id}/items/{item['id']}"

    def patch(i: int) -> Any:
        body = {"ground_truth": {f"k{i:02d}": i}, "metadata": {f"k{i:02d}": str(i)}}
        return api.ok("PATCH", path, json=body)

    together(WRITERS, patch)
    final = api.ok("GET", path)
    assert set(final["ground_truth"]) == {"base", *_keys(WRITERS)}
    assert set(final["metadata"]) == _keys(WRITERS)


def test_concurrent_evaluation_set_metadata_merges_keep_every_key(api: Api) -> None:
    set_id = api.ok("POST", "/evaluation-sets", json={"name": unique("set")})["id"]
    path = f"/evaluation-sets/{set_id}"
    together(WRITERS, lambda i: api.ok("PATCH", path, json={"metadata": {f"k{i:02d}": i}}))
    assert set(api.ok("GET", path)["metadata"]) == _keys(WRITERS)


def test_concurrent_workflow_run_metadata_merges_keep_every_key(api: Api) -> None:
    processor_id = _processor(api)
    version = api.ok("POST", f"/processors/{processor_id}/versions", json={"config": CONFIG})
    api.ok("POST", f"/processors/{processor_id}/versions/{version['id']}/publish")
    nodes = [
        {"id": "start", "type": "trigger"},
        {"id": "p", "type": "processor", "processor_id": processor_id},
    ]
    edges = [{"from": "start", "to": "p"}]
    workflow = api.ok(
        "POST", "/workflows", json={"name": unique("wf"), "nodes": nodes, "edges": edges}
    )
    file_id = api.upload(b"Total: 2.00 EUR\n")
    run = api.ok(
        "POST",
        f"/workflows/{workflow['id']}/runs",
        json={"input_file_id": file_id, "metadata": {"base": 0}},
    )
    path = f"/workflows/{workflow['id']}/runs/{run['id']}"
    together(WRITERS, lambda i: api.ok("PATCH", path, json={"metadata": {f"k{i:02d}": i}}))
    assert set(api.ok("GET", path)["metadata"]) == {"base", *_keys(WRITERS)}


def test_concurrent_version_creation_numbers_distinct_and_consecutive(api: Api) -> None:
    processor_id = _processor(api)
    path = f"/processors/{processor_id}/versions"
    created = together(WRITERS, lambda _i: api.ok("POST", path, json={"config": CONFIG}))
    assert sorted(v["number"] for v in created) == list(range(1, WRITERS + 1))
    listed = api.ok("GET", path, params={"limit": 100})["data"]
    assert sorted(v["number"] for v in listed) == list(range(1, WRITERS + 1))


def test_concurrent_publishes_leave_the_latest_published_as_default(api: Api) -> None:
    processor_id = _processor(api)
    path = f"/processors/{processor_id}/versions"
    ids = [api.ok("POST", path, json={"config": CONFIG})["id"] for _ in range(WRITERS)]
    together(WRITERS, lambda i: api.ok("POST", f"{path}/{ids[i]}/publish"))
    versions = api.ok("GET", path, params={"limit": 100})["data"]
    stamps = [v["published_at"] for v in versions]
    assert len(set(stamps)) == WRITERS  # a strict order of publishes
    latest = max(versions, key=lambda v: v["published_at"])
    assert api.ok("GET", f"/processors/{processor_id}")["default_version_id"] == latest["id"]
