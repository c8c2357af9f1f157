"""Evaluation sets and items: ground-truth shape rules, partial updates, deletes."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from fieldwise._errors import NotFoundError, UnprocessableError
from fieldwise.client import Client, ops
from fieldwise.service import RunningService


@pytest.fixture
def file_id(client: Client) -> str:
    return client.upload_file(b"%PDF-1.4 x", filename="a.pdf").id


def test_set_and_item_lifecycle(client: Client, file_id: str) -> None:
    eval_set = client.create_evaluation_set("invoices", description="dev")
    assert eval_set.id.startswith("es_")
    truth = {
        "invoice_number": "A-1",
        "total": 12.5,
        "seller": {"name": "ACME", "city": "Köln"},
        "line_items": [{"description": "Widget", "amount": 12.5}],
    }
    item = client.call(ops.create_item(eval_set.id, file_id, truth, metadata={"path": "a.pdf"}))
    assert item.id.startswith("item_")
    assert item.ground_truth == truth
    assert client.call(ops.get_evaluation_set(eval_set.id)).item_count == 1

    patched = client.call(
        ops.update_item(
            eval_set.id, item.id, ground_truth={"total": 13, "seller": {"city": "Bonn"}}
        )
    )
    assert patched.ground_truth["total"] == 13
    assert patched.ground_truth["seller"] == {"name": "ACME", "city": "Bonn"}
    assert patched.ground_truth["invoice_number"] == "A-1"
    assert [i.id for i in client.list_items(eval_set.id)] == [item.id]

    client.call(ops.delete_item(eval_set.id, item.id))
    with pytest.raises(NotFoundError):
        client.call(ops.get_item(eval_set.id, item.id))
    assert list(client.list_items(eval_set.id)) == []


def test_set_metadata_replaces_top_level_keys_and_name_filter(client: Client) -> None:
    a = client.create_evaluation_set("a")
    client.create_evaluation_set("b")
    client.call(ops.update_evaluation_set(a.id, metadata={"gt_hash": "1", "x": {"y": 1}}))
    merged = client.call(ops.update_evaluation_set(a.id, metadata={"x": {"z": 2}}))
    assert merged.metadata == {"gt_hash": "1", "x": {"z": 2}}
    found = client.call(ops.list_evaluation_sets(name="a"))
    assert [s.id for s in found.data] == [a.id]


@pytest.mark.parametrize(
    ("truth", "param_hint"),
    [
        ({"paid": True}, "paid"),
        ({"total": None}, "total"),
        ({"tags": ["a", "b"]}, "tags[0]"),
        ({"rows": [{"cells": [1]}]}, "rows[0].cells[0]"),
    ],
)
def test_ground_truth_leaves_must_be_numbers_or_strings(
    service: RunningService, client: Client, file_id: str, truth: dict[str, Any], param_hint: str
) -> None:
    eval_set = client.create_evaluation_set("s")
    response = httpx.post(
        f"{service.base_url}/evaluation-sets/{eval_set.id}/items",
        json={"file_id": file_id, "ground_truth": truth},
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["param"] == "ground_truth"
    assert param_hint in error["message"]
    assert list(client.list_items(eval_set.id)) == []


def test_item_needs_an_existing_file_and_set(client: Client, file_id: str) -> None:
    eval_set = client.create_evaluation_set("s")
    with pytest.raises(UnprocessableError) as err:
        client.call(ops.create_item(eval_set.id, "file_missing", {"a": "1"}))
    assert err.value.param == "file_id"
    with pytest.raises(NotFoundError):
        client.call(ops.create_item("es_missing", file_id, {"a": "1"}))
    with pytest.raises(NotFoundError):
        client.call(ops.update_item(eval_set.id, "item_missing", ground_truth={"a": "2"}))
    assert list(client.list_items(eval_set.id)) == []
