"""One delivery of an endpoint: its state, attempts (time, status code, response excerpt),
next retry and payload, and the re-send button (endpoint 22 of the spec)."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from fieldwise.service.console.guard import Posted, SignedIn
from fieldwise.service.console.web import PREFIX, ConsoleDep, redirect, render
from fieldwise.service.http.errors import not_found
from fieldwise.service.resources.deliveries import ops as delivery_ops
from fieldwise.service.resources.deliveries.schemas import DeliveryPublic
from fieldwise.service.resources.webhook_endpoints import ops

router = APIRouter(prefix=PREFIX + "/settings/webhooks", include_in_schema=False)


def _delivery(console: ConsoleDep, endpoint_id: str, delivery_id: str) -> DeliveryPublic:
    delivery = delivery_ops.get_delivery(console.state, delivery_id)
    if delivery.endpoint_id != endpoint_id:
        raise not_found("webhook delivery", delivery_id)
    return delivery


@router.get("/{endpoint_id}/deliveries/{delivery_id}", response_class=HTMLResponse)
def delivery_page(
    endpoint_id: str,
    delivery_id: str,
    request: Request,
    console: ConsoleDep,
    session: SignedIn,
) -> Response:
    endpoint = ops.get_endpoint(console.state, endpoint_id)
    delivery = _delivery(console, endpoint_id, delivery_id)
    payload = json.dumps(delivery.payload, indent=2, sort_keys=True, ensure_ascii=False)
    return render(
        request,
        "delivery.html",
        session=session,
        endpoint=endpoint,
        delivery=delivery,
        payload=payload,
    )


@router.post("/{endpoint_id}/deliveries/{delivery_id}/resend")
def resend(endpoint_id: str, delivery_id: str, console: ConsoleDep, session: Posted) -> Response:
    """Send the same payload (same event id) again now, to the endpoint's current URL."""
    _delivery(console, endpoint_id, delivery_id)
    delivery_ops.retry_delivery(console.state, delivery_id)
    return redirect(f"/settings/webhooks/{endpoint_id}/deliveries/{delivery_id}?resent=1")
