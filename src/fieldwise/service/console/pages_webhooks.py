"""``/console/settings/webhooks``: endpoints (register with the secret shown once, edit,
enable/disable, rotate the secret with its grace period, delete, send a test event) and each
endpoint's deliveries."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from fieldwise.service.console.guard import Posted, SignedIn
from fieldwise.service.console.web import (
    PAGE_SIZE,
    PREFIX,
    ConsoleDep,
    redirect,
    render,
    render_list,
)
from fieldwise.service.events.outbox import EVENT_TYPES
from fieldwise.service.http.errors import ApiError
from fieldwise.service.resources.deliveries import ops as delivery_ops
from fieldwise.service.resources.webhook_endpoints import ops
from fieldwise.service.resources.webhook_endpoints.schemas import (
    MAX_GRACE_SECONDS,
    EndpointCreate,
    EndpointUpdate,
)

router = APIRouter(prefix=PREFIX + "/settings/webhooks", include_in_schema=False)

Events = Annotated[list[str], Form()]
#: Grace periods offered when rotating a secret, in hours.
GRACE_HOURS = (0, 1, 24, 72, 168)


def _problem(exc: ValidationError | ApiError) -> str:
    if isinstance(exc, ApiError):
        return exc.message
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def _list_page(
    request: Request,
    console: ConsoleDep,
    session: SignedIn,
    cursor: str | None,
    *,
    form: dict[str, object] | None = None,
    error: str | None = None,
) -> Response:
    endpoints, next_cursor = ops.list_endpoints(console.state, limit=PAGE_SIZE, cursor=cursor)
    return render_list(
        request,
        "webhooks.html",
        status=422 if error else 200,
        session=session,
        endpoints=endpoints,
        cursor=cursor,
        next_cursor=next_cursor,
        form=form or {"url": "", "description": "", "events": []},
        error=error,
    )


@router.get("", response_class=HTMLResponse)
def webhooks_page(
    request: Request, console: ConsoleDep, session: SignedIn, cursor: str | None = None
) -> Response:
    return _list_page(request, console, session, cursor)


@router.post("", response_class=HTMLResponse)
def register(
    request: Request,
    console: ConsoleDep,
    session: Posted,
    url: Annotated[str, Form(max_length=2048)] = "",
    description: Annotated[str, Form(max_length=10_000)] = "",
    events: Events = [],  # noqa: B006 - FastAPI copies defaults
) -> Response:
    """Register an endpoint: answered with the page that shows its signing secret once."""
    form: dict[str, object] = {"url": url, "description": description, "events": events}
    try:
        body = EndpointCreate(url=url.strip(), description=description, events=events)
        created = ops.create_endpoint(console.state, body)
    except (ValidationError, ApiError) as exc:
        return _list_page(request, console, session, None, form=form, error=_problem(exc))
    return render(request, "webhook_secret.html", session=session, endpoint=created, rotated=False)


def _detail(
    request: Request,
    console: ConsoleDep,
    session: SignedIn,
    endpoint_id: str,
    before: int | None = None,
    filter_state: str = "",
    *,
    error: str | None = None,
) -> Response:
    endpoint = ops.get_endpoint(console.state, endpoint_id)
    # Newest first, filtered by state: a failing delivery is on the first page, not the last.
    deliveries, next_before = delivery_ops.recent_deliveries(
        console.state,
        endpoint_id,
        limit=PAGE_SIZE,
        before=before,
        filter_state=filter_state or None,
    )
    return render(
        request,
        "webhook_detail.html",
        status=422 if error else 200,
        session=session,
        endpoint=endpoint,
        deliveries=deliveries,
        next_before=next_before,
        paged=before is not None,
        filter_state=filter_state,
        delivery_filters=delivery_ops.DELIVERY_FILTERS,
        grace_hours=GRACE_HOURS,
        error=error,
    )


@router.get("/{endpoint_id}", response_class=HTMLResponse)
def endpoint_page(
    endpoint_id: str,
    request: Request,
    console: ConsoleDep,
    session: SignedIn,
    before: Annotated[int | None, Query(ge=1)] = None,
    state: Annotated[str, Query(max_length=16)] = "",
) -> Response:
    return _detail(request, console, session, endpoint_id, before, state)


@router.post("/{endpoint_id}", response_class=HTMLResponse)
def edit(
    endpoint_id: str,
    request: Request,
    console: ConsoleDep,
    session: Posted,
    url: Annotated[str, Form(max_length=2048)] = "",
    description: Annotated[str, Form(max_length=10_000)] = "",
    events: Events = [],  # noqa: B006 - FastAPI copies defaults
) -> Response:
    try:
        body = EndpointUpdate(url=url.strip(), description=description, events=events)
        ops.update_endpoint(console.state, endpoint_id, body)
    except (ValidationError, ApiError) as exc:
        if isinstance(exc, ApiError) and exc.status == 404:
            raise
        return _detail(request, console, session, endpoint_id, error=_problem(exc))
    return redirect(f"/settings/webhooks/{endpoint_id}?saved=1")


@router.post("/{endpoint_id}/enabled")
def set_enabled(
    endpoint_id: str,
    console: ConsoleDep,
    session: Posted,
    enabled: Annotated[str, Form(max_length=8)] = "",
) -> Response:
    ops.update_endpoint(console.state, endpoint_id, EndpointUpdate(enabled=enabled == "true"))
    return redirect(f"/settings/webhooks/{endpoint_id}")


@router.post("/{endpoint_id}/rotate", response_class=HTMLResponse)
def rotate(
    endpoint_id: str,
    request: Request,
    console: ConsoleDep,
    session: Posted,
    grace_hours: Annotated[int, Form(ge=0, le=MAX_GRACE_SECONDS // 3600)] = 24,
) -> Response:
    """A new secret, shown once on the answer; the old one keeps signing for the grace period."""
    rotated = ops.rotate_endpoint_secret(console.state, endpoint_id, timedelta(hours=grace_hours))
    return render(request, "webhook_secret.html", session=session, endpoint=rotated, rotated=True)


@router.post("/{endpoint_id}/test")
def send_test(
    endpoint_id: str,
    request: Request,
    console: ConsoleDep,
    session: Posted,
    event: Annotated[str, Form(max_length=64)] = "processor.run.completed",
) -> Response:
    if event not in EVENT_TYPES:
        raise ApiError(422, f"event: unknown event type {event!r}.", param="event")
    base_url = console.state.base_url(request)
    delivery = ops.send_test(console.state, endpoint_id, event, base_url)
    return redirect(f"/settings/webhooks/{endpoint_id}/deliveries/{delivery.id}")


@router.get("/{endpoint_id}/delete", response_class=HTMLResponse)
def confirm_delete(
    endpoint_id: str, request: Request, console: ConsoleDep, session: SignedIn
) -> Response:
    endpoint = ops.get_endpoint(console.state, endpoint_id)
    return render(request, "webhook_delete.html", session=session, endpoint=endpoint)


@router.post("/{endpoint_id}/delete")
def delete(endpoint_id: str, console: ConsoleDep, session: Posted) -> Response:
    ops.delete_endpoint(console.state, endpoint_id)
    return redirect("/settings/webhooks?deleted=1")
