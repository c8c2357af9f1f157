"""Processors and versions: create, read, update, publish, and every bad input."""

from __future__ import annotations

import httpx
import pytest

from fieldwise._errors import ConflictError, NotFoundError, UnprocessableError
from fieldwise.client import Client, ops
from fieldwise.service import RunningService


def test_processor_lifecycle(client: Client) -> None:
    created = client.create_processor("Invoices (DE)", description="German invoices")
    assert created.id == "invoices-de"
    assert created.type == "extraction"
    assert client.get_processor("invoices-de") == created
    updated = client.call(ops.update_processor("invoices-de", confidence_threshold=0.7))
    assert updated.confidence_threshold == 0.7
    assert updated.description == "German invoices"
    assert [p.id for p in client.list_processors()] == ["invoices-de"]


def test_duplicate_name_is_409(client: Client) -> None:
    client.create_processor("Receipts")
    with pytest.raises(ConflictError):
        client.create_processor("receipts")


@pytest.mark.parametrize("threshold", [1.5, -0.1, "high", None])
def test_confidence_threshold_must_be_in_unit_interval(
    service: RunningService, client: Client, threshold: object
) -> None:
    client.create_processor("p")
    response = httpx.patch(
        service.base_url + "/processors/p",
        json={"confidence_threshold": threshold},
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    if threshold is None:
        assert response.status_code == 200
        return
    assert response.status_code == 422
    assert response.json()["error"]["param"] == "confidence_threshold"
    assert client.get_processor("p").confidence_threshold is None


def test_bad_bodies(service: RunningService, client: Client) -> None:
    headers = {"x-api-key": service.api_key, "content-type": "application/json"}
    malformed = httpx.post(
        service.base_url + "/processors", content=b'{"name": ', headers=headers, timeout=60
    )
    assert malformed.status_code == 400
    missing = httpx.post(
        service.base_url + "/processors",
        json={"description": "x"},
        headers=headers,
        timeout=60,
    )
    assert missing.status_code == 422
    assert missing.json()["error"]["param"] == "name"
    wrong_type = httpx.post(
        service.base_url + "/processors",
        json={"name": "n", "type": "ocr"},
        headers=headers,
        timeout=60,
    )
    assert wrong_type.status_code == 422
    assert wrong_type.json()["error"]["param"] == "type"
    assert list(client.list_processors()) == []


def test_unknown_ids_are_404(client: Client) -> None:
    for op in (
        ops.get_processor("nope"),
        ops.list_versions("nope"),
        ops.update_processor("nope", description="x"),
        ops.create_version("nope", {"fields": [{"name": "x", "type": "string"}]}),
    ):
        with pytest.raises(NotFoundError) as err:
            client.call(op)  # type: ignore[arg-type]
        assert err.value.request_id


def test_versions_draft_publish_and_publish_twice(client: Client) -> None:
    client.create_processor("inv")
    v1 = client.create_version(
        "inv", {"fields": [{"name": "total", "type": "currency"}]}, description="baseline"
    )
    v2 = client.create_version("inv", {"fields": [{"name": "x", "type": "string"}]})
    assert (v1.number, v1.status, v2.number) == (1, "drafted", 2)
    assert client.get_processor("inv").default_version_id is None

    published = client.publish_version("inv", v1.id)
    assert published.status == "published"
    assert published.published_at
    assert client.get_processor("inv").default_version_id == v1.id
    with pytest.raises(ConflictError):
        client.publish_version("inv", v1.id)
    assert client.get_processor("inv").default_version_id == v1.id

    client.publish_version("inv", v2.id)
    assert client.get_processor("inv").default_version_id == v2.id
    assert client.call(ops.get_version("inv", v1.id)).config == v1.config
    assert [v.id for v in client.list_versions("inv")] == [v1.id, v2.id]
    with pytest.raises(NotFoundError):
        client.call(ops.get_version("inv", "ver_missing"))


def test_version_config_must_be_an_object(service: RunningService, client: Client) -> None:
    client.create_processor("inv")
    response = httpx.post(
        service.base_url + "/processors/inv/versions",
        json={"config": [1]},
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    assert response.status_code == 422
    assert response.json()["error"]["param"] == "config"
    with pytest.raises(UnprocessableError):
        client.call(ops.Op("POST", "/processors/inv/versions", lambda r: r, json={}))
    assert list(client.list_versions("inv")) == []
