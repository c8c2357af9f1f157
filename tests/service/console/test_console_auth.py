"""The console's gates over plain HTTP: no session → sign-in; no CSRF token → refused; only an
admin key signs in; a revoked key or an expired session ends it; values are escaped; pages carry
a strict CSP and cannot be framed."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import httpx
from sqlalchemy import update

from fieldwise._config import ServiceSettings
from fieldwise.service import RunningService, create_app, start_in_thread
from fieldwise.service.app import app_state
from fieldwise.service.clock import ManualClock
from fieldwise.service.console.routes import ROUTERS
from fieldwise.service.console.sessions import console_sessions
from fieldwise.service.http.auth import hash_key
from tests.conftest import TEST_KEY, ServiceFactory
from tests.service.console.conftest import Browse, SignIn, csrf_of


def console_routes() -> list[tuple[str, str]]:
    """Every console page and form (the routers install_console mounts)."""
    found = []
    for route in (r for router in ROUTERS for r in router.routes):
        path = getattr(route, "path", "")
        if not path.startswith("/console") or path.startswith("/console/sign-in"):
            continue
        for method in sorted(set(getattr(route, "methods", None) or ()) - {"HEAD"}):
            found.append((method, re.sub(r"\{[^}]+\}", "x", path)))
    return sorted(set(found))


def test_without_a_session_every_console_page_redirects_to_sign_in(
    service: RunningService, browse: Browse
) -> None:
    routes = console_routes()
    assert len(routes) >= 20
    assert ("GET", "/console/settings/webhooks") in routes
    http = browse(service, cookies={"fieldwise_console": "forged"})
    for method, path in routes:
        response = http.request(method, path)
        if path in ("/console", "/console/"):
            assert response.headers["location"] == "/console/processors"
            continue
        assert response.status_code == 303, (method, path)
        location = response.headers["location"]
        assert location.startswith("/console/sign-in?next="), (method, path)
    landing = http.get("/console/settings/webhooks")
    assert landing.headers["location"] == "/console/sign-in?next=/console/settings/webhooks"


def test_sign_in_sets_a_strict_session_cookie_and_sign_out_ends_it(
    service: RunningService, browse: Browse
) -> None:
    http = browse(service)
    form = http.get("/console/sign-in?next=/console/runs")
    response = http.post(
        "/console/sign-in",
        data={"api_key": service.api_key, "csrf": csrf_of(form.text), "next": "/console/runs"},
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/console/runs"
    cookie = next(c for c in response.headers.get_list("set-cookie") if "fieldwise_console=" in c)
    assert "HttpOnly" in cookie
    assert "SameSite=strict" in cookie
    assert "Max-Age=28800" in cookie
    assert "Secure" not in cookie  # plain http on loopback
    page = http.get("/console/runs")
    assert page.status_code == 200
    signed_out = http.post("/console/sign-out", data={"csrf": csrf_of(page.text)})
    assert signed_out.headers["location"] == "/console/sign-in"
    assert http.get("/console/runs").status_code == 303


def test_the_cookie_is_secure_behind_https(service: RunningService, browse: Browse) -> None:
    """Behind a TLS proxy on loopback (X-Forwarded-Proto), both cookies are Secure."""
    http = browse(service, headers={"x-forwarded-proto": "https"})
    form = http.get("/console/sign-in")
    assert "Secure" in form.headers["set-cookie"]
    # httpx keeps Secure cookies for https only: hand the sign-in token back by hand.
    http.cookies.set("fieldwise_console_signin", csrf_of(form.text))
    response = http.post(
        "/console/sign-in", data={"api_key": service.api_key, "csrf": csrf_of(form.text)}
    )
    cookie = next(c for c in response.headers.get_list("set-cookie") if "fieldwise_console=" in c)
    assert "Secure" in cookie


def test_a_form_post_without_the_csrf_token_is_refused(
    service: RunningService, browse: Browse, sign_in: SignIn
) -> None:
    http = sign_in(service)
    missing = http.post("/console/settings/api-keys", data={"name": "sneaky", "scope": "admin"})
    wrong = http.post(
        "/console/settings/api-keys", data={"name": "sneaky", "scope": "admin", "csrf": "x" * 43}
    )
    assert missing.status_code == 403
    assert wrong.status_code == 403
    assert "CSRF" in missing.text
    listed = httpx.get(
        service.base_url + "/api-keys", headers={"x-api-key": service.api_key}, timeout=60
    )
    assert listed.json()["data"] == []
    # The sign-in form has its own token (double submit): a cross-site post cannot sign in.
    anonymous = browse(service)
    refused = anonymous.post("/console/sign-in", data={"api_key": service.api_key, "csrf": "x"})
    assert refused.status_code == 403
    assert "fieldwise_console=" not in str(refused.headers)


def test_a_read_key_can_neither_sign_in_nor_write(
    service: RunningService, browse: Browse, sign_in: SignIn
) -> None:
    admin = sign_in(service)
    page = admin.get("/console/settings/api-keys")
    created = admin.post(
        "/console/settings/api-keys",
        data={"csrf": csrf_of(page.text), "name": "reader", "scope": "read"},
    )
    secret = re.search(r'value="(fw_[^"]+)"', created.text)
    assert secret
    http = browse(service)
    form = http.get("/console/sign-in")
    refused = http.post(
        "/console/sign-in", data={"api_key": secret.group(1), "csrf": csrf_of(form.text)}
    )
    assert refused.status_code == 403
    assert "cannot sign in" in refused.text
    assert http.get("/console/processors").status_code == 303
    write = httpx.post(
        service.base_url + "/processors",
        json={"name": "x"},
        headers={"x-api-key": secret.group(1)},
        timeout=60,
    )
    assert write.status_code == 403
    assert write.json()["error"]["code"] == "forbidden"


def test_revoking_the_key_of_a_session_ends_the_session(
    service: RunningService, sign_in: SignIn
) -> None:
    made = httpx.post(
        service.base_url + "/api-keys",
        json={"name": "second admin", "scope": "admin"},
        headers={"x-api-key": service.api_key},
        timeout=60,
    ).json()
    http = sign_in(service, made["secret"])
    assert http.get("/console/settings/api-keys").status_code == 200
    httpx.delete(
        service.base_url + f"/api-keys/{made['id']}",
        headers={"x-api-key": service.api_key},
        timeout=60,
    )
    assert http.get("/console/settings/api-keys").status_code == 303


def test_a_session_expires(tmp_path: Path, sign_in: SignIn) -> None:
    clock = ManualClock()
    settings = ServiceSettings(data_dir=tmp_path / "svc", api_keys=(TEST_KEY,))
    with start_in_thread(settings, app=create_app(settings, clock=clock)) as running:
        http = sign_in(running)
        assert http.get("/console/processors").status_code == 200
        clock.advance(timedelta(hours=8, seconds=1))
        assert http.get("/console/processors").status_code == 303


def test_typed_values_are_escaped_and_pages_are_locked_down(
    start_service: ServiceFactory, sign_in: SignIn
) -> None:
    service = start_service(webhook_allow_http=("127.0.0.1",))
    http = sign_in(service)
    page = http.get("/console/settings/webhooks")
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert "script-src 'self';" in page.headers["content-security-policy"]
    assert "unsafe-inline" not in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["cache-control"] == "no-store"
    assert "<script>" not in page.text.replace('<script src="/console/static/console.js"', "")
    registered = http.post(
        "/console/settings/webhooks",
        data={
            "csrf": csrf_of(page.text),
            "url": "http://127.0.0.1:9/hook",
            "description": "<script>alert(1)</script>",
            "events": ["processor.run.completed"],
        },
    )
    assert registered.status_code == 200, registered.text
    for html in (registered.text, http.get("/console/settings/webhooks").text):
        assert "<script>alert(1)</script>" not in html
    listing = http.get("/console/settings/webhooks").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in listing


def test_lists_paginate_and_unknown_ids_are_error_pages(
    service: RunningService, sign_in: SignIn
) -> None:
    for number in range(23):
        httpx.post(
            service.base_url + "/api-keys",
            json={"name": f"key {number:02d}", "scope": "read"},
            headers={"x-api-key": service.api_key},
            timeout=60,
        )
    http = sign_in(service)
    first = http.get("/console/settings/api-keys").text
    assert first.count("<tr id=") == 20
    next_link = re.search(r'href="(/console/settings/api-keys\?cursor=[^"]+)" rel="next"', first)
    assert next_link
    second = http.get(next_link.group(1).replace("&amp;", "&")).text
    assert second.count("<tr id=") == 3
    assert "key 22" in second
    assert 'rel="next"' not in second
    assert "First page" in second
    missing = http.get("/console/settings/webhooks/wh_nope")
    assert missing.status_code == 404
    assert "No webhook endpoint with id" in missing.text
    assert missing.headers["content-type"].startswith("text/html")
    api = httpx.get(
        service.base_url + "/processors/nope", headers={"x-api-key": service.api_key}, timeout=60
    )
    assert api.json()["error"]["code"] == "not_found"  # the API keeps its JSON errors


def test_a_session_ends_when_its_operator_key_is_removed(
    start_service: ServiceFactory, sign_in: SignIn, tmp_path: Path
) -> None:
    """Signed in with an operator key (FIELDWISE_API_KEYS), the session ends once a restart drops
    that key, and it cannot mint a key; a session of a key kept across the restart lives on."""
    key_a, key_b = "fw_operator_key_a_0123456789", "fw_operator_key_b_0123456789"
    first = start_service(api_keys=(key_a, key_b))
    old = sign_in(first, key_a)
    kept = sign_in(first, key_b)
    page = old.get("/console/settings/api-keys")
    assert page.status_code == 200
    csrf = csrf_of(page.text)
    first.stop()

    second = start_service(api_keys=(key_b,))  # the same data dir: a restart without key A
    for http in (old, kept):
        http.base_url = httpx.URL(second.base_url)
    refused = old.get("/console/settings/api-keys")
    assert refused.status_code == 303
    assert refused.headers["location"].startswith("/console/sign-in")
    minted = old.post(
        "/console/settings/api-keys", data={"csrf": csrf, "name": "x", "scope": "admin"}
    )
    assert minted.status_code == 303
    assert minted.headers["location"].startswith("/console/sign-in")
    listed = httpx.get(second.base_url + "/api-keys", headers={"x-api-key": key_b}, timeout=60)
    assert listed.json()["data"] == []
    assert kept.get("/console/settings/api-keys").status_code == 200
    # The database holds neither the key nor its plain hash.
    stored = b"".join(p.read_bytes() for p in (tmp_path / "service").glob("fieldwise.db*"))
    assert b"operator_fingerprint" in stored
    for secret in (key_a, key_b):
        assert secret.encode() not in stored
        assert hash_key(secret).encode() not in stored


def test_an_operator_session_without_a_fingerprint_ends(
    service: RunningService, sign_in: SignIn
) -> None:
    """A session opened before sessions kept the operator key's fingerprint (migration 0011 adds
    the column empty) cannot be told to belong to a key still configured: it ends."""
    http = sign_in(service)
    assert http.get("/console/processors").status_code == 200
    state = app_state(service.app)  # type: ignore[arg-type]
    with state.engine.begin() as conn:
        conn.execute(update(console_sessions).values(operator_fingerprint=None))
    assert http.get("/console/processors").status_code == 303
