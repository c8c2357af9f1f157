"""API keys as a resource: scopes (admin / write / read), the secret shown once and stored
hashed, last use, revocation that takes effect at once, and the upgrade of old databases."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from sqlalchemy import insert

from fieldwise._config import ServiceSettings
from fieldwise.service import RunningService, create_app, start_in_thread
from fieldwise.service.app import MIGRATIONS
from fieldwise.service.http.auth import generate_key, hash_key
from fieldwise.service.resources.api_keys.tables import api_keys_v1
from fieldwise.service.store import make_engine, migrate


def admin(service: RunningService) -> httpx.Client:
    return httpx.Client(
        base_url=service.base_url, headers={"x-api-key": service.api_key}, timeout=60
    )


def create(service: RunningService, name: str, scope: str) -> dict[str, str]:
    with admin(service) as http:
        response = http.post("/api-keys", json={"name": name, "scope": scope})
    assert response.status_code == 201, response.text
    body: dict[str, str] = response.json()
    return body


def as_key(service: RunningService, key: str) -> httpx.Client:
    return httpx.Client(base_url=service.base_url, headers={"x-api-key": key}, timeout=60)


def test_created_key_is_shown_once_and_stored_hashed(
    service: RunningService, tmp_path: Path
) -> None:
    made = create(service, "ci reader", "read")
    assert made["object"] == "api_key"
    assert made["id"].startswith("key_")
    assert made["scope"] == "read"
    assert made["name"] == "ci reader"
    assert made["secret"].startswith(made["prefix"])
    assert made["last_used_at"] is None
    with admin(service) as http:
        listed = http.get("/api-keys").json()["data"]
        one = http.get(f"/api-keys/{made['id']}").json()
    assert [k["id"] for k in listed] == [made["id"]]
    assert "secret" not in listed[0]
    assert "secret" not in one
    # The database file and its write-ahead log: the key itself is nowhere, its hash is.
    stored = b"".join(p.read_bytes() for p in (tmp_path / "service").glob("fieldwise.db*"))
    assert made["secret"].encode() not in stored
    assert hash_key(made["secret"]).encode() in stored


def test_read_key_reads_and_gets_403_on_every_write(service: RunningService) -> None:
    key = create(service, "reader", "read")["secret"]
    with as_key(service, key) as http:
        assert http.get("/processors").status_code == 200
        for method, path, body in [
            ("POST", "/processors", {"name": "x"}),
            ("PATCH", "/processors/x", {"description": "y"}),
            ("DELETE", "/webhooks/endpoints/wh_x", None),
            ("POST", "/api-keys", {"name": "more", "scope": "admin"}),
        ]:
            response = http.request(method, path, json=body)
            assert response.status_code == 403, (method, path)
            error = response.json()["error"]
            assert error["code"] == "forbidden"
            assert error["request_id"] == response.headers["x-request-id"]
        assert http.get("/api-keys").status_code == 403
        assert http.get("/processors").status_code == 200
    with admin(service) as http:
        assert http.get("/processors").json()["data"] == []


def test_write_key_writes_but_cannot_manage_keys(service: RunningService) -> None:
    key = create(service, "writer", "write")["secret"]
    with as_key(service, key) as http:
        assert http.post("/processors", json={"name": "made by writer"}).status_code == 201
        assert http.get("/api-keys").status_code == 403
        assert http.post("/api-keys", json={"name": "x", "scope": "read"}).status_code == 403


def test_revoked_key_gets_401_at_once_and_last_use_is_kept(service: RunningService) -> None:
    made = create(service, "short-lived", "write")
    with as_key(service, made["secret"]) as http:
        assert http.get("/processors").status_code == 200
        with admin(service) as root:
            used = root.get(f"/api-keys/{made['id']}").json()
            assert used["last_used_at"] is not None
            revoked = root.delete(f"/api-keys/{made['id']}")
            assert revoked.status_code == 200
            assert revoked.json()["revoked_at"] is not None
            again = root.delete(f"/api-keys/{made['id']}")
            assert again.status_code == 409
        response = http.get("/processors")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthorized"


@pytest.mark.parametrize(
    ("body", "param"),
    [({"name": "", "scope": "read"}, "name"), ({"name": "x", "scope": "root"}, "scope")],
)
def test_bad_key_requests_are_422(
    service: RunningService, body: dict[str, str], param: str
) -> None:
    with admin(service) as http:
        response = http.post("/api-keys", json=body)
        assert response.status_code == 422
        assert response.json()["error"]["param"] == param
        assert http.get("/api-keys/key_nope").status_code == 404
        assert http.delete("/api-keys/key_nope").status_code == 404


def test_a_database_from_before_scopes_keeps_its_generated_key_as_admin(tmp_path: Path) -> None:
    """A key stored in the first shape of the table (bare hash) signs in as admin after the
    upgrade migration, with a name and an id."""
    data_dir = tmp_path / "svc"
    data_dir.mkdir()
    engine = make_engine(f"sqlite:///{data_dir / 'fieldwise.db'}")
    old = [m for m in MIGRATIONS if m[0] < "0006"]
    migrate(engine, old)
    key = generate_key()
    with engine.begin() as conn:
        api_keys_v1.create(conn)
        conn.execute(
            insert(api_keys_v1).values(
                key_hash=hash_key(key), prefix=key[:7], created_at="2026-01-01T00:00:00.000000Z"
            )
        )
    engine.dispose()
    settings = ServiceSettings(data_dir=data_dir)
    said: list[str] = []
    app = create_app(settings, announce=said.append)
    assert said == []  # a key exists: no new one is generated
    with start_in_thread(settings.with_overrides(api_keys=("operator",)), app=app) as running:
        with as_key(running, key) as http:
            listed = http.get("/api-keys").json()["data"]
        assert [(k["scope"], k["name"]) for k in listed] == [("admin", "generated at first start")]
        assert listed[0]["id"].startswith("key_")


def test_a_read_key_gets_403_on_every_write_operation(service: RunningService) -> None:
    """Every non-GET operation of the OpenAPI document, so a route added later is covered."""
    key = create(service, "reader", "read")["secret"]
    paths = service.app.openapi()["paths"]  # type: ignore[attr-defined]
    writes = [
        (method.upper(), re.sub(r"\{[^}]+\}", "x", path))
        for path, operations in paths.items()
        for method in operations
        if method.upper() not in ("GET", "HEAD", "OPTIONS")
    ]
    assert len(writes) > 20
    with as_key(service, key) as http:
        for method, path in writes:
            response = http.request(method, path)
            assert response.status_code == 403, (method, path)
            assert response.json()["error"]["code"] == "forbidden"
