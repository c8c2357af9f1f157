"""What every console page shares: the Jinja environment, rendering, the signed-in session
(a dependency that sends strangers to sign-in), the CSRF check of every form, and the security
headers of every console response."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fieldwise.service.events.outbox import EVENT_TYPES
from fieldwise.service.http.auth import Principal
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.ratelimit import AuthFailures
from fieldwise.service.state import ServiceState

PREFIX = "/console"
SESSION_COOKIE = "fieldwise_console"
#: The pre-session CSRF cookie of the sign-in form (double submit: cookie and field must match).
SIGN_IN_COOKIE = "fieldwise_console_signin"
#: Rows per console list page.
PAGE_SIZE = 20

# No inline script or style anywhere: everything comes from /console/static (same origin).
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
}


@dataclass(frozen=True)
class Console:
    """Built once by :func:`fieldwise.service.console.install_console`; on ``app.state``."""

    state: ServiceState
    env: Environment
    authenticate: Callable[[str | None], Principal | None]
    #: Wrong keys per client address, shared with the API (None: not limited).
    failures: AuthFailures | None = None


def make_environment() -> Environment:
    env = Environment(
        loader=PackageLoader("fieldwise.service.console", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["prefix"] = PREFIX
    env.globals["event_types"] = EVENT_TYPES
    return env


def get_console(request: Request) -> Console:
    console: Console = request.app.state.console
    return console


ConsoleDep = Annotated[Console, Depends(get_console)]


class SignInRequired(Exception):
    """Raised by the session dependency; answered with a redirect to the sign-in page."""

    def __init__(self, next_path: str) -> None:
        super().__init__(next_path)
        self.next_path = next_path


class CsrfRefused(Exception):
    """A console form posted without the session's CSRF token: answered 403."""


def render(
    request: Request,
    template: str,
    status: int = 200,
    **context: Any,
) -> HTMLResponse:
    console = get_console(request)
    html = console.env.get_template(template).render(request=request, **context)
    return HTMLResponse(html, status_code=status)


def render_list(
    request: Request,
    template: str,
    *,
    cursor: str | None,
    next_cursor: str | None,
    status: int = 200,
    **context: Any,
) -> HTMLResponse:
    """A page showing one page of a list: the pager gets the next cursor, and whether this
    is a later page (so it offers the first one)."""
    paged = cursor is not None
    return render(request, template, status, next_cursor=next_cursor, paged=paged, **context)


def redirect(path: str) -> RedirectResponse:
    """303 See Other, so a POST is followed by a GET (a reload does not post again)."""
    return RedirectResponse(PREFIX + path, status_code=303)


def sign_in_url(next_path: str) -> str:
    return f"{PREFIX}/sign-in?next={quote(next_path, safe='/')}"


def is_https(request: Request) -> bool:
    return request.url.scheme == "https"


def error_page(request: Request, exc: ApiError) -> HTMLResponse:
    return render(request, "error.html", status=exc.status, error=exc)


class ConsoleHeaders:
    """Adds the security headers (CSP, no framing, no sniffing) to every ``/console`` answer;
    pages (not static assets) are also never cached, since they may show a secret once."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not (path == PREFIX or path.startswith(PREFIX + "/")):
            await self.app(scope, receive, send)
            return
        static = path.startswith(PREFIX + "/static/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                if not static:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
