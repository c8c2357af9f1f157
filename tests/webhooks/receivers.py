"""Test receivers on loopback: a scripted HTTP endpoint and a real SMTP server (aiosmtpd).

``ScriptedReceiver`` answers each POST with the next status of its script (the last one
repeats), or hangs for ``hang`` seconds, and records every request's headers and raw body
(a request whose sender closed before its body was whole is not one, and is not recorded).
With ``hold_from=N`` it holds the N-th request (counting from 0) and every later one open,
unanswered, until :meth:`ScriptedReceiver.release`: a test can then act while deliveries are
observably in flight instead of hoping a sleep lands in the right moment.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
from aiosmtpd.controller import Controller

_HOLD_GUARD = 300.0  # seconds: only guards against a test that never releases


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str:
        return self.headers[name.lower()]


@dataclass
class ScriptedReceiver:
    statuses: Sequence[int] = (200,)
    hang: float = 0.0
    location: str = ""
    hold_from: int | None = None
    requests: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        receiver = self
        self._release = threading.Event()
        self._unhold = threading.Event()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                if len(body) < length:
                    # The sender closed before its body was whole (a service killed mid-send):
                    # no request was made, as for any HTTP server, and none is recorded.
                    self.close_connection = True
                    return
                index = len(receiver.requests)
                receiver.requests.append(
                    Received({k.lower(): v for k, v in self.headers.items()}, body)
                )
                if receiver.hang:
                    receiver._release.wait(receiver.hang)
                if receiver.hold_from is not None and index >= receiver.hold_from:
                    receiver._unhold.wait(_HOLD_GUARD)
                status = receiver.statuses[min(index, len(receiver.statuses) - 1)]
                self.send_response(status)
                if receiver.location:
                    self.send_header("location", receiver.location)
                self.send_header("content-length", "2")
                self.end_headers()
                with contextlib.suppress(OSError):  # the sender may have given up
                    self.wfile.write(b"ok")

            def log_message(self, format: str, *args: Any) -> None:
                return None

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/hook"

    def release(self) -> None:
        """Answer the held requests, and hold no more."""
        self._unhold.set()

    def stop(self) -> None:
        self._release.set()
        self._unhold.set()
        self._server.shutdown()
        self._server.server_close()


def send_cut_off(url: str, body: bytes, keep: int, headers: dict[str, str] | None = None) -> bytes:
    """POST ``body`` to ``url`` as a sender killed mid-send leaves it: every header (its
    content-length the whole body's), the first ``keep`` bytes of the body, then the end of
    what it sends. Returns what came back before the connection closed."""
    parsed = httpx.URL(url)
    assert parsed.host is not None
    assert parsed.port is not None
    lines = [
        f"POST {parsed.raw_path.decode()} HTTP/1.1",
        f"host: {parsed.host}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        *(f"{name}: {value}" for name, value in (headers or {}).items()),
    ]
    with socket.create_connection((parsed.host, parsed.port), timeout=5) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body[:keep])
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
        return answer


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _Collect:
    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.envelopes: list[tuple[str, list[str]]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 OK"


class SmtpServer:
    """A real SMTP server on a loopback port, collecting what it receives."""

    def __init__(self) -> None:
        self.handler = _Collect()
        self.port = free_port()
        self._controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    @property
    def messages(self) -> list[Message]:
        return self.handler.messages

    def stop(self) -> None:
        self._controller.stop()


def wait_for(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        time.sleep(0.02)
