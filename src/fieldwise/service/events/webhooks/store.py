"""The delivery lifecycle in the database: fan-out of events, atomic claims, recorded attempts.

States: ``pending`` (not tried yet) → ``delivered`` on a 2xx, else ``retrying`` on the schedule,
and ``dead`` after the last retry (with an admin notification written in the same transaction).
A sender claims a delivery with one conditional UPDATE before sending, so two dispatchers (or a
manual retry racing the background one) never send the same attempt twice.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, insert, or_, select, update

from fieldwise._config import ServiceSettings
from fieldwise.service.events.outbox import envelope, events
from fieldwise.service.events.webhooks.delivery import AttemptResult
from fieldwise.service.events.webhooks.schedule import MAX_ATTEMPTS, next_delay
from fieldwise.service.events.webhooks.signing import active_secrets, workspace_row
from fieldwise.service.events.webhooks.tables import attempts, deliveries, endpoints, notifications
from fieldwise.service.ids import isoformat, new_id

OPEN_STATES = ("pending", "retrying")
#: Every state a delivery can be in, in lifecycle order.
STATES = ("pending", "retrying", "delivered", "dead")
#: The states of a delivery that has failed at least once and not been delivered since.
FAILING_STATES = ("retrying", "dead")


def encode_body(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def create_delivery(
    conn: Connection,
    now: datetime,
    *,
    event_id: str,
    event_type: str,
    endpoint_id: str | None,
    url: str,
    body: str,
) -> str:
    delivery_id = new_id("whd")
    stamp = isoformat(now)
    conn.execute(
        insert(deliveries).values(
            id=delivery_id,
            event_id=event_id,
            event_type=event_type,
            endpoint_id=endpoint_id,
            url=url,
            body=body,
            state="pending",
            attempt_count=0,
            next_attempt_at=stamp,
            claimed_until=None,
            last_status_code=None,
            last_error=None,
            delivered_at=None,
            created_at=stamp,
            updated_at=stamp,
        )
    )
    return delivery_id


def dispatch_events(conn: Connection, now: datetime, limit: int = 200) -> int:
    """Turn undispatched events into deliveries, marking each event in the same transaction.

    Returns the number of deliveries created. An event is claimed by a conditional UPDATE, so
    concurrent dispatchers fan each event out exactly once.
    """
    pending = list(
        conn.execute(
            select(events)
            .where(events.c.dispatched_at.is_(None))
            .order_by(events.c.seq)
            .limit(limit)
        )
    )
    if not pending:
        return 0
    subscribers = list(conn.execute(select(endpoints).where(endpoints.c.enabled.is_(True))))
    created = 0
    for event in pending:
        marked = conn.execute(
            update(events)
            .where(events.c.id == event.id, events.c.dispatched_at.is_(None))
            .values(dispatched_at=isoformat(now))
        )
        if marked.rowcount != 1:
            continue
        body = encode_body(envelope(event))
        target_url = getattr(event, "target_url", None)
        if target_url:
            targets: list[tuple[str | None, str]] = [(None, target_url)]
        else:
            targets = [(e.id, e.url) for e in subscribers if event.type in (e.events or [])]
        for endpoint_id, url in targets:
            create_delivery(
                conn,
                now,
                event_id=event.id,
                event_type=event.type,
                endpoint_id=endpoint_id,
                url=url,
                body=body,
            )
            created += 1
    return created


def due_ids(conn: Connection, now: datetime, limit: int) -> list[str]:
    stamp = isoformat(now)
    query = (
        select(deliveries.c.id)
        .where(
            deliveries.c.state.in_(OPEN_STATES),
            deliveries.c.next_attempt_at <= stamp,
            or_(deliveries.c.claimed_until.is_(None), deliveries.c.claimed_until < stamp),
        )
        .order_by(deliveries.c.next_attempt_at, deliveries.c.seq)
        .limit(limit)
    )
    return [row.id for row in conn.execute(query)]


def claim(
    conn: Connection, delivery_id: str, now: datetime, lease: timedelta, *, scheduled: bool
) -> Any | None:
    """Claim a delivery for one attempt; None if it is claimed elsewhere (or, when
    ``scheduled``, no longer due). The claim is one conditional UPDATE: atomic."""
    stamp = isoformat(now)
    condition = and_(
        deliveries.c.id == delivery_id,
        or_(deliveries.c.claimed_until.is_(None), deliveries.c.claimed_until < stamp),
    )
    if scheduled:
        condition = and_(
            condition,
            deliveries.c.state.in_(OPEN_STATES),
            deliveries.c.next_attempt_at <= stamp,
        )
    result = conn.execute(
        update(deliveries).where(condition).values(claimed_until=isoformat(now + lease))
    )
    if result.rowcount != 1:
        return None
    return conn.execute(select(deliveries).where(deliveries.c.id == delivery_id)).one()


def signing_target(conn: Connection, row: Any, now: datetime) -> tuple[str, list[str]] | None:
    """The URL and the secrets that sign a delivery now; None if its endpoint is gone."""
    if row.endpoint_id is None:
        return row.url, active_secrets(workspace_row(conn, now), now)
    endpoint = conn.execute(select(endpoints).where(endpoints.c.id == row.endpoint_id)).first()
    if endpoint is None:
        return None
    return endpoint.url, active_secrets(endpoint, now)


def record_attempt(
    conn: Connection,
    row: Any,
    result: AttemptResult,
    *,
    trigger: str,
    url: str,
    started: datetime,
    now: datetime,
    settings: ServiceSettings,
) -> str:
    """Store the attempt, move the delivery to its next state, release the claim; return the
    delivery's state.

    ``trigger`` is ``automatic`` (counts toward the schedule) or ``manual`` (a retry asked
    for through the API: it can deliver, but never kills or reschedules a delivery).
    """
    conn.execute(
        insert(attempts).values(
            delivery_id=row.id,
            trigger=trigger,
            url=url,
            started_at=isoformat(started),
            status_code=result.status_code,
            latency_ms=result.latency_ms,
            error=result.error,
            response_excerpt=result.response_excerpt,
        )
    )
    values: dict[str, Any] = {
        "claimed_until": None,
        "url": url,
        "last_status_code": result.status_code,
        "last_error": result.error,
        "updated_at": isoformat(now),
    }
    count = row.attempt_count + (1 if trigger == "automatic" else 0)
    values["attempt_count"] = count
    if result.ok:
        values.update(state="delivered", next_attempt_at=None, delivered_at=isoformat(now))
    elif trigger == "automatic" and row.state in OPEN_STATES:
        delay = next_delay(count)
        if delay is None:
            values.update(state="dead", next_attempt_at=None)
        else:
            values.update(state="retrying", next_attempt_at=isoformat(now + delay))
    # Only under the claim this attempt was made with: a sender that froze past its claim
    # (another process has re-claimed the delivery since) records its attempt and nothing else.
    moved = conn.execute(
        update(deliveries)
        .where(deliveries.c.id == row.id, deliveries.c.claimed_until == row.claimed_until)
        .values(**values)
    ).rowcount
    if not moved:
        current = conn.execute(select(deliveries.c.state).where(deliveries.c.id == row.id))
        return str(current.scalar() or row.state)
    if values.get("state") == "dead":
        _notify_dead(conn, row, result, count, now, settings)
    return str(values.get("state", row.state))


def kill(conn: Connection, row: Any, reason: str, now: datetime) -> None:
    """Mark a delivery dead without an attempt (its endpoint was deleted): no e-mail."""
    conn.execute(
        update(deliveries)
        .where(deliveries.c.id == row.id)
        .values(
            state="dead",
            next_attempt_at=None,
            claimed_until=None,
            last_error=reason,
            updated_at=isoformat(now),
        )
    )


def _notify_dead(
    conn: Connection,
    row: Any,
    result: AttemptResult,
    count: int,
    now: datetime,
    settings: ServiceSettings,
) -> None:
    subject = f"[fieldwise] webhook delivery {row.id} is dead ({row.event_type})"
    body = "\n".join(
        [
            f"A webhook delivery failed {count} times (the first try and {MAX_ATTEMPTS - 1} "
            "retries over about 24 hours) and is now dead.",
            "",
            f"delivery:   {row.id}",
            f"event:      {row.event_id} ({row.event_type})",
            f"endpoint:   {row.endpoint_id or '(webhook_url of the request)'}",
            f"url:        {row.url}",
            f"last error: {result.error}",
            "",
            f"Re-send it with: POST /webhooks/deliveries/{row.id}/retry "
            f"(fieldwise webhooks deliveries retry {row.id}).",
        ]
    )
    stamp = isoformat(now)
    conn.execute(
        insert(notifications).values(
            id=new_id("whn"),
            delivery_id=row.id,
            recipients=list(settings.admin_emails),
            subject=subject,
            body=body,
            status="pending",
            tries=0,
            error=None,
            created_at=stamp,
            updated_at=stamp,
        )
    )
