"""The console's two gates: a live session for every page (else a redirect to sign-in) and,
for every form post, the session's CSRF token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool

from fieldwise.service.console.sessions import Session, load_session, same_token
from fieldwise.service.console.web import SESSION_COOKIE, CsrfRefused, SignInRequired, get_console


async def current_session(request: Request) -> Session:
    """The signed-in session, or :class:`SignInRequired` (a redirect back here after sign-in)."""
    console = get_console(request)
    token = request.cookies.get(SESSION_COOKIE)
    session = await run_in_threadpool(
        load_session, console.state.engine, console.state.clock, token, console.state.keyring
    )
    if session is None:
        target = request.url.path if request.method == "GET" else "/console"
        raise SignInRequired(target)
    request.state.console_session = session
    return session


async def posted_session(
    request: Request, session: Annotated[Session, Depends(current_session)]
) -> Session:
    """The session of a form post whose ``csrf`` field matches it; else :class:`CsrfRefused`."""
    form = await request.form()
    presented = form.get("csrf")
    if not isinstance(presented, str) or not same_token(presented, session.csrf):
        raise CsrfRefused
    return session


SignedIn = Annotated[Session, Depends(current_session)]
Posted = Annotated[Session, Depends(posted_session)]
