"""``POST /webhooks/test`` answers at once with the queued delivery; the dispatcher sends it.

It used to send inside the request, so each call to a receiver that never answers held a
request thread for the whole delivery timeout, and a few such calls stopped the API. Here the
receiver holds every request open and the timeout is longer than the test's hang guard: the
old behaviour can only fail (the first call never answers in time).
"""

from __future__ import annotations

import httpx

from fieldwise.client import ops
from tests.conftest import TEST_KEY
from tests.service.events.webhooks.conftest import Start
from tests.service.events.webhooks.test_delivery import Receivers, register
from tests.webhooks.receivers import wait_for

SENDS = 6
GUARD = 60.0  # seconds: only guards against a hang, never races the work


def test_test_sends_to_a_receiver_that_never_answers_leave_the_api_answering(
    start_webhooks: Start, receivers: Receivers
) -> None:
    hooks = start_webhooks(extra={"webhooks.poll_interval": 0.05, "webhooks.timeout": GUARD * 10})
    receiver = receivers(hold_from=0)  # holds every request open, unanswered
    endpoint_id, _ = register(hooks, receiver.url)
    body = {"event": "processor.run.completed", "endpoint_id": endpoint_id}
    headers = {"x-api-key": TEST_KEY}
    with httpx.Client(base_url=hooks.running.base_url, headers=headers, timeout=GUARD) as http:
        answers = [http.post("/webhooks/test", json=body) for _ in range(SENDS)]
        assert [a.status_code for a in answers] == [200] * SENDS
        queued = [a.json() for a in answers]
        assert {(d["state"], len(d["attempts"])) for d in queued} == {("pending", 0)}
        assert len({d["id"] for d in queued}) == SENDS

        # The dispatcher has a delivery in flight, held by the receiver...
        wait_for(lambda: len(receiver.requests) >= 1, timeout=GUARD)
        # ...and meanwhile every other endpoint answers, another test send included.
        assert http.get("/webhooks/endpoints").status_code == 200
        assert http.get(f"/webhooks/endpoints/{endpoint_id}/deliveries").status_code == 200
        assert http.get("/files").status_code == 200
        extra = http.post("/webhooks/test", json=body)
        assert (extra.status_code, extra.json()["state"]) == (200, "pending")
        ids = [d["id"] for d in queued] + [extra.json()["id"]]

    receiver.release()

    def delivered() -> bool:
        states = {hooks.client.call(ops.get_webhook_delivery(i)).state for i in ids}
        return states == {"delivered"}

    wait_for(delivered, timeout=GUARD)
    event_ids = {r.json["id"] for r in receiver.requests}
    assert event_ids == {hooks.client.call(ops.get_webhook_delivery(i)).event_id for i in ids}
