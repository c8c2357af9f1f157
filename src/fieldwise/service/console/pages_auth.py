"""Sign-in with an admin API key into a session cookie, and sign-out."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fieldwise.service.console.guard import Posted
from fieldwise.service.console.sessions import (
    SESSION_TTL,
    end_session,
    new_token,
    same_token,
    start_session,
)
from fieldwise.service.console.web import (
    PREFIX,
    SESSION_COOKIE,
    SIGN_IN_COOKIE,
    ConsoleDep,
    is_https,
    redirect,
    render,
)
from fieldwise.service.http.middleware import client_address

router = APIRouter(prefix=PREFIX, include_in_schema=False)


def _safe_next(next_path: str | None) -> str:
    """Only a console path: never an open redirect to another site."""
    if next_path and next_path.startswith(PREFIX + "/") and not next_path.startswith("//"):
        return next_path
    return PREFIX + "/processors"


def _sign_in_page(request: Request, next_path: str, error: str | None, status: int) -> Response:
    token = new_token()
    response = render(
        request, "sign_in.html", status=status, csrf=token, next_path=next_path, error=error
    )
    response.set_cookie(
        SIGN_IN_COOKIE,
        token,
        max_age=900,
        path=PREFIX + "/sign-in",
        httponly=True,
        samesite="strict",
        secure=is_https(request),
    )
    return response


@router.get("", response_class=RedirectResponse)
@router.get("/", response_class=RedirectResponse)
def console_home() -> Response:
    return redirect("/processors")


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_form(request: Request, next: str | None = None) -> Response:
    return _sign_in_page(request, _safe_next(next), None, 200)


@router.post("/sign-in")
async def sign_in(
    request: Request,
    console: ConsoleDep,
    api_key: Annotated[str, Form(max_length=512)] = "",
    csrf: Annotated[str, Form(max_length=128)] = "",
    next: Annotated[str, Form(max_length=2048)] = "",
) -> Response:
    """An admin key opens a session; any other key (or none) gets the form again."""
    if not same_token(csrf, request.cookies.get(SIGN_IN_COOKIE) or ""):
        return _sign_in_page(
            request, _safe_next(next), "The form expired; please sign in again.", 403
        )
    failures = console.failures
    client = client_address(request.scope)
    if failures is not None and (seconds := failures.retry_after(client)):
        page = _sign_in_page(request, _safe_next(next), failures.message(seconds), 429)
        page.headers["retry-after"] = str(seconds)
        return page
    principal = await run_in_threadpool(console.authenticate, api_key.strip() or None)
    if principal is None:
        if failures is not None and api_key.strip():
            failures.failed(client)
        return _sign_in_page(request, _safe_next(next), "That API key is not valid.", 401)
    if principal.scope != "admin":
        message = f"A {principal.scope} key cannot sign in to the console: use an admin key."
        return _sign_in_page(request, _safe_next(next), message, 403)
    state = console.state
    # An operator key has no id: the session keeps its fingerprint, checked on every request.
    operator_key = api_key.strip() if principal.key_id is None else None
    token, _session = await run_in_threadpool(
        start_session, state.engine, state.clock, principal.key_id, operator_key=operator_key
    )
    response = RedirectResponse(_safe_next(next), status_code=303)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(SESSION_TTL.total_seconds()),
        path=PREFIX,
        httponly=True,
        samesite="strict",
        secure=is_https(request),
    )
    response.delete_cookie(SIGN_IN_COOKIE, path=PREFIX + "/sign-in")
    return response


@router.post("/sign-out")
def sign_out(request: Request, console: ConsoleDep, session: Posted) -> Response:
    end_session(console.state.engine, session.id)
    response = RedirectResponse(PREFIX + "/sign-in", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path=PREFIX)
    return response
