"""A small webhook receiver: verify, record, answer 202, deduplicate by event id, append JSONL.

This is what ``fieldwise webhooks listen`` runs. It follows the receiving rules of the spec:
the signature is checked against the raw body, the answer is sent before any processing, and
retries of one event (same ``id``) are written once. Recording (the count, the event id and
the JSONL line) is not processing: it happens before the answer, so a 202 means "recorded" and
a receiver stopped right after answering has lost nothing it acknowledged. A delivery it cannot
record is answered 500, and the sender retries it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from fieldwise._errors import WebhookVerificationError
from fieldwise._signature import DEFAULT_TOLERANCE, SIGNATURE_HEADER, verify

log = logging.getLogger("fieldwise.webhooks")

MAX_BODY = 10 * 1024 * 1024
_HANDOVER_WAIT = 5.0  # seconds stop() waits for on_event calls of answered events


def _seen_ids(out: Path | None) -> set[str]:
    """Event ids already in the output file, so a restarted receiver keeps deduplicating."""
    seen: set[str] = set()
    if out is None or not out.exists():
        return seen
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            event_id = json.loads(line).get("id")
        except (ValueError, AttributeError):
            continue
        if isinstance(event_id, str):
            seen.add(event_id)
    return seen


class Receiver:
    """A threaded HTTP receiver on ``host:port`` (port 0 picks a free one).

    ``out`` gets one JSON line per new event, and ``received`` counts every verified delivery
    (retries too), both before its 202 is sent. ``on_event`` is called once per new event,
    after the 202 (it is processing, which the sender's time budget must not include).
    ``start()`` serves in a background thread, ``serve_forever()`` in the caller's thread;
    ``stop()`` shuts it down once every answered event has been through ``on_event``.
    """

    def __init__(
        self,
        secrets: str | Iterable[str],
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        out: Path | None = None,
        tolerance: float = DEFAULT_TOLERANCE,
        on_event: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.secrets = [secrets] if isinstance(secrets, str) else list(secrets)
        self.out = out
        self.tolerance = tolerance
        self.on_event = on_event
        self.received = 0
        self.rejected = 0
        self._seen = _seen_ids(out)
        self._lock = threading.Lock()
        # new events answered but not yet through on_event; stop() waits for them
        self._handing_over = 0
        self._handed_over = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._serving = False
        self._server = ThreadingHTTPServer((host, port), self._handler_class())
        self._server.daemon_threads = True

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        host = self._server.server_address[0]
        if isinstance(host, bytes):
            host = host.decode()
        return f"http://{host}:{self.port}/"

    @property
    def event_ids(self) -> set[str]:
        with self._lock:
            return set(self._seen)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                if length > MAX_BODY:
                    self._answer(413, {"error": "body too large"})
                    return
                body = self.rfile.read(length)
                if len(body) < length:
                    # the sender closed mid-body (it died or gave up): there is no request to
                    # verify or answer, and it is not a rejected one; a whole retry will come
                    self.close_connection = True
                    return
                receiver._handle(self, body)

            def _answer(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()

            def log_message(self, format: str, *args: Any) -> None:
                log.debug(format, *args)

        return Handler

    def _handle(self, handler: Any, body: bytes) -> None:
        try:
            verify(body, handler.headers.get(SIGNATURE_HEADER), self.secrets, self.tolerance)
            event = json.loads(body)
            event_id = event["id"]
            if not isinstance(event_id, str):
                raise ValueError("id is not a string")
        except WebhookVerificationError as exc:
            with self._lock:
                self.rejected += 1
            handler._answer(400, {"error": f"signature: {exc}"})
            return
        except (ValueError, KeyError, TypeError) as exc:
            with self._lock:
                self.rejected += 1
            handler._answer(400, {"error": f"body: {exc}"})
            return
        try:
            new = self._record(event_id, event)
        except OSError as exc:
            log.error("could not record event %s: %s", event_id, exc)
            handler._answer(500, {"error": "could not record the event"})
            return
        try:
            # the event is recorded whether or not its sender is still there to hear so
            with contextlib.suppress(OSError):
                handler._answer(202, {"received": event_id})
            if new and self.on_event is not None:
                self.on_event(event)
        finally:
            if new:
                with self._lock:
                    self._handing_over -= 1
                    self._handed_over.notify_all()

    def _record(self, event_id: str, event: dict[str, Any]) -> bool:
        """Count a verified delivery and write its event unless seen; True if it is new.

        Runs before the answer: a 202 is sent only for what is recorded here.
        """
        with self._lock:
            if event_id not in self._seen:
                if self.out is not None:
                    line = json.dumps(event, ensure_ascii=False, sort_keys=True) + "\n"
                    with self.out.open("a", encoding="utf-8") as fh:
                        fh.write(line)
                self._seen.add(event_id)
                self._handing_over += 1
                self.received += 1
                return True
            self.received += 1
            return False

    def start(self) -> Receiver:
        self._serving = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="fieldwise-webhook-receiver", daemon=True
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._serving = True
        self._server.serve_forever()

    def stop(self) -> None:
        # shutdown() waits for serve_forever to return, so only call it once serving began.
        if self._serving:
            self._server.shutdown()
            self._serving = False
        with self._lock:
            self._handed_over.wait_for(lambda: self._handing_over == 0, _HANDOVER_WAIT)
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> Receiver:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
