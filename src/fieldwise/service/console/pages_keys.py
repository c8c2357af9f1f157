"""``/console/settings/api-keys``: list, create (the secret shown once), revoke (confirmed)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from fieldwise.service.console.guard import Posted, SignedIn
from fieldwise.service.console.web import (
    PAGE_SIZE,
    PREFIX,
    ConsoleDep,
    redirect,
    render,
    render_list,
)
from fieldwise.service.resources.api_keys import ops
from fieldwise.service.resources.api_keys.tables import SCOPES

router = APIRouter(prefix=PREFIX + "/settings/api-keys", include_in_schema=False)


def _list_page(
    request: Request,
    console: ConsoleDep,
    session: SignedIn,
    cursor: str | None,
    *,
    error: str | None = None,
    status: int = 200,
) -> Response:
    keys, next_cursor = ops.list_keys(console.state.engine, limit=PAGE_SIZE, cursor=cursor)
    return render_list(
        request,
        "api_keys.html",
        status=status,
        session=session,
        keys=keys,
        cursor=cursor,
        next_cursor=next_cursor,
        scopes=SCOPES,
        error=error,
    )


@router.get("", response_class=HTMLResponse)
def api_keys_page(
    request: Request, console: ConsoleDep, session: SignedIn, cursor: str | None = None
) -> Response:
    return _list_page(request, console, session, cursor)


@router.post("", response_class=HTMLResponse)
def create_api_key(
    request: Request,
    console: ConsoleDep,
    session: Posted,
    name: Annotated[str, Form(max_length=200)] = "",
    scope: Annotated[str, Form(max_length=16)] = "read",
) -> Response:
    """Answered with the page that shows the secret, not a redirect: a reload never shows it."""
    if not name.strip() or scope not in SCOPES:
        error = "Give the key a name and one of the scopes " + ", ".join(SCOPES) + "."
        return _list_page(request, console, session, None, error=error, status=422)
    created = ops.create_key(console.state.engine, console.state.clock, name.strip(), scope)
    return render(request, "api_key_created.html", session=session, key=created)


@router.get("/{key_id}/revoke", response_class=HTMLResponse)
def confirm_revoke(
    key_id: str, request: Request, console: ConsoleDep, session: SignedIn
) -> Response:
    key = ops.get_key(console.state.engine, key_id)
    return render(request, "api_key_revoke.html", session=session, key=key)


@router.post("/{key_id}/revoke")
def revoke(key_id: str, console: ConsoleDep, session: Posted) -> Response:
    ops.revoke_key(console.state.engine, console.state.clock, key_id)
    return redirect(f"/settings/api-keys?revoked={key_id}")
