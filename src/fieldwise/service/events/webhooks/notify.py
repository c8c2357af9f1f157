"""E-mail to the workspace admins when a delivery dies, over SMTP (``smtp://`` or ``smtps://``).

Notifications are rows written with the ``dead`` transition, then sent here. With no SMTP URL
or no admin addresses configured, a notification is marked ``logged`` and written to the log:
recorded and visible, never dropped silently. A failing SMTP server is retried on later passes.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy import Engine, select, update

from fieldwise._config import ServiceSettings
from fieldwise.service.events.webhooks.tables import notifications
from fieldwise.service.ids import isoformat

log = logging.getLogger("fieldwise.service.webhooks")

MAX_TRIES = 5
SMTP_TIMEOUT = 10.0
DEFAULT_SENDER = "fieldwise@localhost"


def send_mail(smtp_url: str, recipients: list[str], subject: str, body: str) -> None:
    """Send one plain-text message; raises ``OSError``/``smtplib.SMTPException`` on failure."""
    parts = urlsplit(smtp_url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError(f"SMTP URL must look like smtp://host:port, got {smtp_url!r}")
    query = parse_qs(parts.query)
    sender = query.get("from", [DEFAULT_SENDER])[0]
    message = EmailMessage()
    message["From"] = sender
    message["To"] = ", ".join(recipients)
    message["Subject"] = subject
    message.set_content(body)
    port = parts.port or (465 if parts.scheme == "smtps" else 25)
    smtp_class = smtplib.SMTP_SSL if parts.scheme == "smtps" else smtplib.SMTP
    with smtp_class(parts.hostname, port, timeout=SMTP_TIMEOUT) as smtp:
        if parts.scheme == "smtp" and query.get("starttls", ["0"])[0] in ("1", "true", "yes"):
            smtp.starttls()
        if parts.username:
            smtp.login(unquote(parts.username), unquote(parts.password or ""))
        smtp.send_message(message)


def send_pending(engine: Engine, settings: ServiceSettings, now: datetime) -> int:
    """Send (or log) every pending notification; return how many were e-mailed."""
    with engine.connect() as conn:
        rows = list(
            conn.execute(
                select(notifications)
                .where(notifications.c.status == "pending")
                .order_by(notifications.c.seq)
            )
        )
    sent = 0
    for row in rows:
        with engine.begin() as conn:
            # Claim first, so two dispatchers never e-mail the same notification.
            claimed = conn.execute(
                update(notifications)
                .where(notifications.c.id == row.id, notifications.c.status == "pending")
                .values(status="sending")
            )
        if claimed.rowcount != 1:
            continue
        recipients = list(row.recipients or settings.admin_emails)
        status, error = "sent", None
        if not settings.smtp_url or not recipients:
            missing = "FIELDWISE_SMTP_URL" if not settings.smtp_url else "FIELDWISE_ADMIN_EMAILS"
            status, error = "logged", f"not e-mailed: {missing} is not set"
            log.warning(
                "webhook notification %s (%s): %s\n%s", row.id, error, row.subject, row.body
            )
        else:
            try:
                send_mail(settings.smtp_url, recipients, row.subject, row.body)
                sent += 1
            except (OSError, ValueError, smtplib.SMTPException) as exc:
                error = f"{type(exc).__name__}: {exc}"
                status = "failed" if row.tries + 1 >= MAX_TRIES else "pending"
                log.error("webhook notification %s: SMTP failed: %s", row.id, error)
        with engine.begin() as conn:
            conn.execute(
                update(notifications)
                .where(notifications.c.id == row.id)
                .values(
                    status=status,
                    tries=row.tries + 1,
                    error=error,
                    recipients=recipients,
                    updated_at=isoformat(now),
                )
            )
    return sent
