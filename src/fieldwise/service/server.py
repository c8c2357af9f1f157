"""Running the service: in the foreground (``fieldwise serve``) or embedded in a thread."""

from __future__ import annotations

import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import uvicorn
from starlette.types import ASGIApp

from fieldwise._config import ServiceSettings, service_settings
from fieldwise._errors import ConfigError
from fieldwise.service.app import build_state, create_app, start_background, stop_background
from fieldwise.service.http.auth import generate_key


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening socket bound before uvicorn starts, so port 0 yields a known free port."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted sockets inherit this. Without it, a response written in two parts (head, body)
    # waits on the client's delayed ACK: about 40 ms per request on loopback.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


# Connection limits for both entry points: a request head (line and headers) may not pass
# 64 KB; idle keep-alive connections close after 15 s, longer than clients keep them (httpx: 5 s)
# so a client never sends on a connection the server is closing at that moment. Slow bodies are
# cut by the app's body-read deadline (BodyLimitMiddleware).
_UVICORN_LIMITS: dict[str, Any] = {
    "timeout_keep_alive": 15,
    "h11_max_incomplete_event_size": 64 * 1024,
}


def serve(
    settings: ServiceSettings,
    host: str = "127.0.0.1",
    port: int = 8765,
    announce: Callable[[str], None] | None = None,
) -> None:
    """Run the service in the foreground until interrupted, announcing the addresses of the
    service and of its console (with the port actually bound, so ``port=0`` shows the real one).
    """
    say = announce or (lambda message: print(message, file=sys.stderr, flush=True))
    sock = bind_socket(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    url = (
        f"http://[{bound_host}]:{bound_port}"
        if ":" in bound_host
        else f"http://{bound_host}:{bound_port}"
    )
    say(f"fieldwise service on {url} (data: {settings.data_dir})")
    say(f"console: {url}/console (sign in with an admin API key)")
    try:
        app = create_app(settings, announce=say)
    except BaseException:
        sock.close()  # e.g. a read-only data dir: fail without leaking the listening socket
        raise
    config = uvicorn.Config(
        app, log_level="info", access_log=False, timeout_graceful_shutdown=5, **_UVICORN_LIMITS
    )
    uvicorn.Server(config).run(sockets=[sock])


def work(settings: ServiceSettings, *, stop: threading.Event | None = None) -> None:
    """Run the job workers, webhook dispatcher and sweeper without HTTP until SIGINT/SIGTERM
    (or ``stop``): one more process sharing the work of a PostgreSQL database
    (``fieldwise worker``)."""
    stop = stop or threading.Event()
    state = build_state(settings)
    previous = {
        sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        started = start_background(state)
        try:
            stop.wait()
        finally:
            stop_background(state, started)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@dataclass
class RunningService:
    """A service running in a background thread; ``stop()`` shuts it down."""

    base_url: str
    api_key: str
    app: ASGIApp
    server: uvicorn.Server
    thread: threading.Thread
    sock: socket.socket = field(repr=False)

    def stop(self, timeout: float = 10.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)
        self.sock.close()

    def __enter__(self) -> RunningService:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def start_in_thread(
    settings: ServiceSettings,
    *,
    app: ASGIApp | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    startup_timeout: float = 30.0,
    console: bool = True,
) -> RunningService:
    """Start the service on a loopback port in a daemon thread and wait until it accepts.

    Without ``settings.api_keys`` a fresh key is made for this process and returned, so the
    embedded service never prints or stores a key. ``console`` is passed to
    :func:`create_app` when ``app`` is not given.
    """
    api_key = settings.api_keys[0] if settings.api_keys else generate_key()
    if not settings.api_keys:
        settings = replace(settings, api_keys=(api_key,))
    app = app or create_app(settings, console=console)
    sock = bind_socket(host, port)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=2,
        **_UVICORN_LIMITS,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="fieldwise-service", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + startup_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            sock.close()
            raise ConfigError("the local service did not start")
        time.sleep(0.01)
    bound_host, bound_port = sock.getsockname()[:2]
    url_host = f"[{bound_host}]" if ":" in bound_host else bound_host
    return RunningService(
        base_url=f"http://{url_host}:{bound_port}",
        api_key=api_key,
        app=app,
        server=server,
        thread=thread,
        sock=sock,
    )


def embedded_settings(data_dir: Path | None = None, **overrides: Any) -> ServiceSettings:
    """Settings of the embedded service: the environment's, with ``data_dir`` defaulting to
    ``.fieldwise/service`` under the working directory.

    It listens on loopback only, so delivering its webhooks to loopback (the runner's receiver
    for ``--wait webhooks``) is safe and allowed; hosts the user allowed are kept.
    """
    settings = service_settings(data_dir=data_dir, **overrides)
    allow_http = tuple(dict.fromkeys((*settings.webhook_allow_http, "127.0.0.1", "localhost")))
    return settings.with_overrides(webhook_allow_http=allow_http)


def start_embedded(data_dir: Path | None = None, **overrides: Any) -> RunningService:
    """The embedded default: the local service on a free loopback port, in a background thread.

    The returned object carries the ``base_url`` and the ``api_key`` to use; ``stop()`` shuts
    it down. See :func:`embedded_settings`.
    """
    return start_in_thread(embedded_settings(data_dir, **overrides))
