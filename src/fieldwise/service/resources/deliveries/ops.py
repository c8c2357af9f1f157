"""Operations on webhook deliveries: what the routes and the console call."""

from __future__ import annotations

from sqlalchemy import select

from fieldwise.service.events.webhooks.dispatcher import attempt
from fieldwise.service.events.webhooks.store import FAILING_STATES, STATES
from fieldwise.service.events.webhooks.tables import deliveries, endpoints
from fieldwise.service.http.dependencies import fetch
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.pagination import page
from fieldwise.service.resources.deliveries.schemas import DeliveryPublic
from fieldwise.service.resources.deliveries.views import delivery_public
from fieldwise.service.state import ServiceState

ENDPOINT = "webhook endpoint"
DELIVERY = "webhook delivery"


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
