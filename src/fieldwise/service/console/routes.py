"""Mounting the console on the app: its page routers, static assets, error pages and headers."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from importlib.resources import files

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles

from fieldwise.service.console import (
    pages_auth,
    pages_deliveries,
    pages_keys,
    pages_overview,
    pages_webhooks,
)
from fieldwise.service.console.web import (
    PREFIX,
    Console,
    ConsoleHeaders,
    CsrfRefused,
    SignInRequired,
    error_page,
    make_environment,
    render,
    sign_in_url,
)
from fieldwise.service.http.auth import Principal
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.ratelimit import AuthFailures
from fieldwise.service.state import ServiceState

Handler = Callable[[Request, Exception], Response | Awaitable[Response]]

ROUTERS = (
    pages_auth.router,
    pages_keys.router,
    pages_webhooks.router,
    pages_deliveries.router,
    pages_overview.router,
)


def _as_page_under_console(json_handler: Handler) -> Handler:
    """The console's paths answer errors as pages; every other path keeps the JSON body."""

    async def handle(request: Request, exc: Exception) -> Response:
        if request.url.path.startswith(PREFIX + "/"):
            if isinstance(exc, ApiError):
                return error_page(request, exc)
            if isinstance(exc, RequestValidationError):
                first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid"}
                where = ".".join(str(p) for p in first["loc"][1:])
                return error_page(request, ApiError(422, f"{where}: {first['msg']}"))
            if isinstance(exc, StarletteHTTPException):
                return error_page(request, ApiError(exc.status_code, str(exc.detail)))
        response = json_handler(request, exc)
        return await response if inspect.isawaitable(response) else response

    return handle


def install_console(
    app: FastAPI,
    state: ServiceState,
    authenticate: Callable[[str | None], Principal | None],
    failures: AuthFailures | None = None,
) -> None:
    """Mount the console's pages and assets on ``app`` (call after the error handlers);
    ``failures`` counts wrong keys at sign-in with the API's."""
    app.state.console = Console(
        state=state, env=make_environment(), authenticate=authenticate, failures=failures
    )
    static = files("fieldwise.service.console") / "static"
    app.mount(PREFIX + "/static", StaticFiles(directory=str(static)), name="console-static")
    for router in ROUTERS:
        app.include_router(router)

    for kind in (ApiError, RequestValidationError, StarletteHTTPException):
        app.add_exception_handler(kind, _as_page_under_console(app.exception_handlers[kind]))

    async def sign_in_required(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, SignInRequired)
        return RedirectResponse(sign_in_url(exc.next_path), status_code=303)

    async def csrf_refused(request: Request, _exc: Exception) -> HTMLResponse:
        error = ApiError(
            403,
            "This form was not sent from this console session (no valid CSRF "
            "token). Reload the page and try again.",
        )
        return render(request, "error.html", status=403, error=error)

    app.add_exception_handler(SignInRequired, sign_in_required)
    app.add_exception_handler(CsrfRefused, csrf_refused)
    app.add_middleware(ConsoleHeaders)
