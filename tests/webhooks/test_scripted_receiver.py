"""The scripted test receiver records what an HTTP server would take as a request, and only
that: the durability tests count and decode what it recorded."""

from __future__ import annotations

import json

import httpx

from tests.webhooks.receivers import ScriptedReceiver, send_cut_off, wait_for


def test_a_body_cut_off_by_its_sender_is_not_a_request() -> None:
    # What a SIGKILLed service leaves mid-delivery: the headers and part of the body, then the
    # connection closes. Recording it gave tests/reliability/test_crash.py an empty body to
    # decode (JSONDecodeError) in one CI run.
    receiver = ScriptedReceiver()
    try:
        body = json.dumps({"id": "evt_1", "type": "processor.run.completed"}).encode()
        assert send_cut_off(receiver.url, body, keep=10) == b""  # closed unanswered
        assert send_cut_off(receiver.url, body, keep=0) == b""
        assert httpx.post(receiver.url, content=body, timeout=5).status_code == 200
        wait_for(lambda: len(receiver.requests) >= 1)
        assert [r.json for r in receiver.requests] == [json.loads(body)]
    finally:
        receiver.stop()
