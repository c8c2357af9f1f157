"""Operations on webhook endpoints and their deliveries: what the routes and the console call.

Secrets appear only in the answers that create them (:func:`create_endpoint`,
:func:`rotate_endpoint_secret`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update

from fieldwise.service.events.webhooks.dispatcher import attempt, nudge
from fieldwise.service.events.webhooks.signing import new_secret, rotation_values
from fieldwise.service.events.webhooks.ssrf import UnsafeUrl, check_registration
from fieldwise.service.events.webhooks.store import (
    FAILING_STATES,
    OPEN_STATES,
    STATES,
    create_delivery,
    encode_body,
)
from fieldwise.service.events.webhooks.tables import deliveries, endpoints
from fieldwise.service.http.dependencies import fetch, now
from fieldwise.service.http.errors import ApiError, not_found
from fieldwise.service.http.pagination import page
from fieldwise.service.ids import new_id
from fieldwise.service.resources.webhook_endpoints.schemas import (
    DeliveryPublic,
    EndpointCreate,
    EndpointPublic,
    EndpointUpdate,
    EndpointWithSecret,
)
from fieldwise.service.resources.webhook_endpoints.views import (
    delivery_public,
    endpoint_public,
    endpoint_with_secret,
    sample_data,
)
from fieldwise.service.state import ServiceState

ENDPOINT = "webhook endpoint"
DELIVERY = "webhook delivery"


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


def list_deliveries(
    state: ServiceState,
    *,
    limit: int,
    cursor: str | None,
    endpoint_id: str | None = None,
    event_id: str | None = None,
) -> tuple[list[DeliveryPublic], str | None]:
    """Deliveries in creation order, of one endpoint and/or one event when given."""
    where = []
    if endpoint_id is not None:
        where.append(deliveries.c.endpoint_id == endpoint_id)
    if event_id:
        where.append(deliveries.c.event_id == event_id)
    with state.engine.connect() as conn:
        if endpoint_id is not None:
            fetch(conn, endpoints, endpoint_id, ENDPOINT)
        rows, next_cursor = page(conn, deliveries, where, limit=limit, cursor=cursor)
        return [delivery_public(conn, r) for r in rows], next_cursor


#: The console's delivery filters: every state, and ``failing`` (retrying or dead).
DELIVERY_FILTERS = (*STATES, "failing")


def recent_deliveries(
    state: ServiceState,
    endpoint_id: str,
    *,
    limit: int,
    before: int | None = None,
    filter_state: str | None = None,
) -> tuple[list[DeliveryPublic], int | None]:
    """An endpoint's deliveries newest first, for the console (the API's list keeps creation
    order, which its cursors promise), only those in ``filter_state`` when given (a state or
    ``failing``); ``before`` is the position the previous page returned, None at the end."""
    query = select(deliveries).where(deliveries.c.endpoint_id == endpoint_id)
    if filter_state == "failing":
        query = query.where(deliveries.c.state.in_(FAILING_STATES))
    elif filter_state:
        if filter_state not in STATES:
            raise ApiError(422, f"state: not one of {', '.join(DELIVERY_FILTERS)}.", param="state")
        query = query.where(deliveries.c.state == filter_state)
    if before is not None:
        query = query.where(deliveries.c.seq < before)
    with state.engine.connect() as conn:
        fetch(conn, endpoints, endpoint_id, ENDPOINT)
        rows = list(conn.execute(query.order_by(deliveries.c.seq.desc()).limit(limit + 1)))
        more = len(rows) > limit
        rows = rows[:limit]
        return [delivery_public(conn, r) for r in rows], (rows[-1].seq if more else None)


def get_delivery(state: ServiceState, delivery_id: str) -> DeliveryPublic:
    with state.engine.connect() as conn:
        return delivery_public(conn, fetch(conn, deliveries, delivery_id, DELIVERY))


def retry_delivery(state: ServiceState, delivery_id: str) -> DeliveryPublic:
    """Send the same payload (same event id) now, from any state; the answer shows the attempt."""
    with state.engine.connect() as conn:
        fetch(conn, deliveries, delivery_id, DELIVERY)
    if attempt(state, delivery_id, trigger="manual") is None:
        raise ApiError(409, "The delivery is being sent right now; try again shortly.")
    return get_delivery(state, delivery_id)


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
