"""Operations on webhook endpoints: what the routes and the console call.

Secrets appear only in the answers that create them (:func:`create_endpoint`,
:func:`rotate_endpoint_secret`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update

from fieldwise.service.events.webhooks.dispatcher import nudge
from fieldwise.service.events.webhooks.signing import new_secret, rotation_values
from fieldwise.service.events.webhooks.ssrf import UnsafeUrl, check_registration
from fieldwise.service.events.webhooks.store import (
    OPEN_STATES,
    create_delivery,
    encode_body,
)
from fieldwise.service.events.webhooks.tables import deliveries, endpoints
from fieldwise.service.http.dependencies import fetch
from fieldwise.service.http.errors import ApiError, not_found
from fieldwise.service.http.pagination import page
from fieldwise.service.ids import new_id
from fieldwise.service.resources.deliveries.ops import get_delivery
from fieldwise.service.resources.deliveries.schemas import DeliveryPublic
from fieldwise.service.resources.webhook_endpoints.schemas import (
    EndpointCreate,
    EndpointPublic,
    EndpointUpdate,
    EndpointWithSecret,
)
from fieldwise.service.resources.webhook_endpoints.views import (
    endpoint_public,
    endpoint_with_secret,
    sample_data,
)
from fieldwise.service.state import ServiceState, now

ENDPOINT = "webhook endpoint"


def checked_url(state: ServiceState, url: str) -> str:
    """``url`` if it may receive deliveries; else a 422 naming ``url``."""
    try:
        check_registration(url, state.settings.webhook_allow_http)
    except UnsafeUrl as exc:
        raise ApiError(422, f"url: {exc}", param="url") from None
    return url


def create_endpoint(state: ServiceState, body: EndpointCreate) -> EndpointWithSecret:
    """Register an endpoint; the answer shows its signing secret once."""
    url = checked_url(state, body.url)
    stamp = now(state)
    endpoint_id = new_id("wh")
    with state.engine.begin() as conn:
        conn.execute(
            insert(endpoints).values(
                id=endpoint_id,
                url=url,
                description=body.description,
                events=body.events,
                enabled=body.enabled,
                secret=new_secret(),
                previous_secret=None,
                previous_secret_expires_at=None,
                created_at=stamp,
                updated_at=stamp,
            )
        )
        return endpoint_with_secret(fetch(conn, endpoints, endpoint_id, ENDPOINT))


def list_endpoints(
    state: ServiceState, *, limit: int, cursor: str | None
) -> tuple[list[EndpointPublic], str | None]:
    with state.engine.connect() as conn:
        rows, next_cursor = page(conn, endpoints, [], limit=limit, cursor=cursor)
    return [endpoint_public(r) for r in rows], next_cursor


def get_endpoint(state: ServiceState, endpoint_id: str) -> EndpointPublic:
    with state.engine.connect() as conn:
        return endpoint_public(fetch(conn, endpoints, endpoint_id, ENDPOINT))


def update_endpoint(state: ServiceState, endpoint_id: str, body: EndpointUpdate) -> EndpointPublic:
    changes = body.model_dump(exclude_unset=True)
    for name, value in changes.items():
        if value is None:
            raise ApiError(422, f"{name}: may not be null.", param=name)
    if "url" in changes:
        checked_url(state, changes["url"])
    with state.engine.begin() as conn:
        fetch(conn, endpoints, endpoint_id, ENDPOINT)
        if changes:
            conn.execute(
                update(endpoints)
                .where(endpoints.c.id == endpoint_id)
                .values(**changes, updated_at=now(state))
            )
        return endpoint_public(fetch(conn, endpoints, endpoint_id, ENDPOINT))


def delete_endpoint(state: ServiceState, endpoint_id: str) -> None:
    """Delete an endpoint; its open deliveries become dead (no e-mail: it was your choice)."""
    with state.engine.begin() as conn:
        fetch(conn, endpoints, endpoint_id, ENDPOINT)
        conn.execute(
            update(deliveries)
            .where(deliveries.c.endpoint_id == endpoint_id, deliveries.c.state.in_(OPEN_STATES))
            .values(
                state="dead",
                next_attempt_at=None,
                last_error="endpoint deleted",
                updated_at=now(state),
            )
        )
        conn.execute(delete(endpoints).where(endpoints.c.id == endpoint_id))


def rotate_endpoint_secret(
    state: ServiceState, endpoint_id: str, grace: timedelta
) -> EndpointWithSecret:
    """A new secret, shown once; the old one also signs for ``grace``."""
    with state.engine.begin() as conn:
        row = fetch(conn, endpoints, endpoint_id, ENDPOINT)
        conn.execute(
            update(endpoints)
            .where(endpoints.c.id == endpoint_id)
            .values(**rotation_values(row, state.clock.now(), grace))
        )
        return endpoint_with_secret(fetch(conn, endpoints, endpoint_id, ENDPOINT))


def send_test(
    state: ServiceState, endpoint_id: str, event_type: str, base_url: str
) -> DeliveryPublic:
    """Queue a signed test event of ``event_type`` to one endpoint; the dispatcher sends it
    (and retries it like any other), so a slow receiver never holds a request thread."""
    stamp = now(state)
    with state.engine.begin() as conn:
        endpoint = conn.execute(select(endpoints).where(endpoints.c.id == endpoint_id)).first()
        if endpoint is None:
            raise not_found(ENDPOINT, endpoint_id, param="endpoint_id")
        payload: dict[str, Any] = {
            "id": new_id("evt"),
            "type": event_type,
            "created_at": stamp,
            "data": sample_data(event_type, base_url),
        }
        delivery_id = create_delivery(
            conn,
            state.clock.now(),
            event_id=payload["id"],
            event_type=event_type,
            endpoint_id=endpoint.id,
            url=endpoint.url,
            body=encode_body(payload),
        )
    nudge()
    return get_delivery(state, delivery_id)
