"""A lone UTF-16 surrogate (``"\\ud800"`` in JSON) is refused at the edge with a 422 naming
the field, nothing is stored, and every list keeps answering; one that was stored anyway
(before the edge refused them) reads back as U+FFFD instead of breaking the list."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text, update

from fieldwise.client import Client, ops
from fieldwise.service import RunningService
from fieldwise.service.resources.evaluation_sets.tables import items
from tests.conftest import TEST_KEY

LONE = "\ud800"
LISTS = ("/files", "/evaluation-sets", "/processors", "/workflows", "/webhooks/endpoints")


@pytest.fixture
def http(service: RunningService) -> Iterator[httpx.Client]:
    with httpx.Client(
        base_url=service.base_url, headers={"x-api-key": TEST_KEY}, timeout=60.0
    ) as c:
        yield c


def _send(http: httpx.Client, method: str, path: str, body: Any) -> httpx.Response:
    # json.dumps escapes the surrogate as \ud800: the bytes on the wire are valid UTF-8 JSON.
    content = json.dumps(body).encode()
    return http.request(method, path, content=content, headers={"content-type": "application/json"})


def _refused(answer: httpx.Response, param: str) -> None:
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["param"] == param
    assert error["message"].startswith(f"{param}: ")
    assert "surrogate" in error["message"]


def _lists_answer(http: httpx.Client) -> dict[str, list[Any]]:
    answers = {path: http.get(path) for path in LISTS}
    assert {p: a.status_code for p, a in answers.items()} == dict.fromkeys(LISTS, 200)
    return {p: a.json()["data"] for p, a in answers.items()}


def test_json_bodies_with_a_lone_surrogate_are_refused_naming_the_field(
    client: Client, http: httpx.Client
) -> None:
    file_id = client.upload_file(b"Invoice No: 1\n", filename="a.txt").id
    eval_set = client.create_evaluation_set("gt")
    item = client.call(ops.create_item(eval_set.id, file_id, {"total": "1.00"}))
    processor = client.create_processor("p")
    workflow = client.call(
        ops.create_workflow(
            "w",
            [
                {"id": "t", "type": "trigger"},
                {"id": "p", "type": "processor", "processor_id": processor.id},
            ],
        )
    )
    before = _lists_answer(http)

    cases = [
        ("POST", f"/evaluation-sets/{eval_set.id}/items",
         {"file_id": file_id, "ground_truth": {"total": LONE}}, "ground_truth.total"),
        ("POST", f"/evaluation-sets/{eval_set.id}/items",
         {"file_id": file_id, "ground_truth": {f"x{LONE}": 1}}, "ground_truth.x\ufffd"),
        ("PATCH", f"/evaluation-sets/{eval_set.id}/items/{item.id}",
         {"ground_truth": {"lines": [{"name": f"a{LONE}b"}]}}, "ground_truth.lines.0.name"),
        ("PATCH", f"/evaluation-sets/{eval_set.id}/items/{item.id}",
         {"metadata": {"note": LONE}}, "metadata.note"),
        ("POST", f"/processors/{processor.id}/versions",
         {"config": {"fields": [{"name": "total", "labels": [LONE]}]}},
         "config.fields.0.labels.0"),
        ("POST", f"/workflows/{workflow.id}/runs",
         {"input_file_id": file_id, "metadata": {"batch": {"tag": LONE}}}, "metadata.batch.tag"),
        ("POST", "/evaluation-sets", {"name": "x", "description": LONE}, "description"),
        ("POST", "/webhooks/endpoints",
         {"url": "https://example.com/h", "events": ["evaluation.completed"],
          "description": LONE}, "description"),
    ]  # fmt: skip
    for method, path, body, param in cases:
        _refused(_send(http, method, path, body), param)

    after = _lists_answer(http)
    assert after == before  # nothing was stored or changed
    [kept] = client.call(ops.list_items(eval_set.id)).data
    assert kept.ground_truth == {"total": "1.00"}
    assert list(client.list_versions(processor.id)) == []


def test_multipart_metadata_with_a_lone_surrogate_is_refused(http: httpx.Client) -> None:
    answer = http.post(
        "/files/upload",
        files={"file": ("a.txt", b"hello")},
        data={"metadata": json.dumps({"source": {"name": LONE}})},
    )
    _refused(answer, "metadata.source.name")
    assert _lists_answer(http)["/files"] == []


def test_a_valid_surrogate_pair_is_stored_and_read_back(client: Client) -> None:
    file_id = client.upload_file(b"x", filename="a.txt").id
    eval_set = client.create_evaluation_set("emoji")
    item = client.call(ops.create_item(eval_set.id, file_id, {"mood": "\U0001f600"}))
    assert client.call(ops.get_item(eval_set.id, item.id)).ground_truth == {"mood": "\U0001f600"}


def test_a_lone_surrogate_stored_before_the_check_cannot_break_a_list(
    tmp_path: Path, client: Client, http: httpx.Client
) -> None:
    file_id = client.upload_file(b"x", filename="a.txt").id
    eval_set = client.create_evaluation_set("legacy")
    item = client.call(ops.create_item(eval_set.id, file_id, {"total": "1.00"}))
    # What an older version stored: the JSON text itself spells the lone surrogate.
    engine = create_engine(f"sqlite:///{tmp_path / 'service' / 'fieldwise.db'}")
    with engine.begin() as conn:
        conn.execute(
            update(items)
            .where(items.c.id == item.id)
            .values(ground_truth=text('\'{"total": "\\ud800", "k\\udfff": 1}\''))
        )
    engine.dispose()
    listed = http.get(f"/evaluation-sets/{eval_set.id}/items")
    assert listed.status_code == 200
    assert listed.json()["data"][0]["ground_truth"] == {"total": "\ufffd", "k\ufffd": 1}
    assert http.get(f"/evaluation-sets/{eval_set.id}/items/{item.id}").status_code == 200
