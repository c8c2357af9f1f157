"""``fieldwise webhooks``: run a receiver, manage endpoints, send tests, inspect and retry
deliveries, and obtain the workspace signing secret."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from fieldwise.cli._context import CliContext, json_option, pass_cli
from fieldwise.cli._output import echo_json, echo_record, echo_rows
from fieldwise.client import ops
from fieldwise.webhooks import DEFAULT_TOLERANCE, Receiver

_ENDPOINT_FIELDS = (
    "id",
    "url",
    "description",
    "events",
    "enabled",
    "previous_secret_expires_at",
    "created_at",
    "updated_at",
)
_DELIVERY_FIELDS = (
    "id",
    "event_id",
    "event_type",
    "endpoint_id",
    "url",
    "state",
    "attempt_count",
    "next_attempt_at",
    "delivered_at",
    "last_status_code",
    "last_error",
    "created_at",
)
_SECRET_NOTE = "Store the secret now: it is not shown again."


@click.group()
def webhooks() -> None:
    """Receive webhooks, manage endpoints, and inspect or retry deliveries."""


@webhooks.command("listen")
@click.option("--port", type=click.IntRange(0, 65535), default=8787, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--secret",
    "secrets",
    multiple=True,
    required=True,
    help="Signing secret (whsec_…); repeat to accept an old and a new one.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Append each new event as one JSON line to this file.",
)
@click.option(
    "--tolerance",
    type=click.FloatRange(min=1),
    default=DEFAULT_TOLERANCE,
    show_default=True,
    help="Seconds a signature timestamp may differ from now.",
)
def webhooks_listen(
    port: int, host: str, secrets: tuple[str, ...], out: Path | None, tolerance: float
) -> None:
    """Receive deliveries: verify each signature, append each new event to --out, then answer
    202 (a 202 means recorded), skip repeated event ids, print one line per new event. Stop
    with Ctrl-C."""

    def show(event: dict[str, Any]) -> None:
        click.echo(f"{event.get('id')}  {event.get('type')}  {event.get('created_at')}")

    receiver = Receiver(
        list(secrets), host=host, port=port, out=out, tolerance=tolerance, on_event=show
    )
    click.echo(f"listening on {receiver.url}" + (f", appending to {out}" if out else ""))
    try:
        receiver.serve_forever()
    finally:
        receiver.stop()


@webhooks.group("endpoints")
def endpoints() -> None:
    """Register, list, change, delete endpoints and rotate their secrets."""


@endpoints.command("create")
@click.argument("url")
@click.option(
    "--event", "events", multiple=True, required=True, help="Event type to receive (repeat)."
)
@click.option("--description", default="", help="Free text.")
@click.option("--disabled", is_flag=True, help="Register without sending yet.")
@json_option
@pass_cli
def endpoints_create(
    cli: CliContext,
    url: str,
    events: tuple[str, ...],
    description: str,
    disabled: bool,
    as_json: bool,
) -> None:
    """Register URL for the given event types; prints the signing secret once."""
    op = ops.create_webhook_endpoint(
        url, list(events), description=description, enabled=not disabled
    )
    endpoint = cli.client().call(op)
    echo_record(endpoint, as_json, (*_ENDPOINT_FIELDS, "secret"))
    if not as_json:
        click.echo(_SECRET_NOTE, err=True)


@endpoints.command("list")
@json_option
@pass_cli
def endpoints_list(cli: CliContext, as_json: bool) -> None:
    """List endpoints (never their secrets)."""
    rows = list(cli.client().paginate(lambda c: ops.list_webhook_endpoints(cursor=c)))
    echo_rows(rows, as_json, ("id", "url", "events", "enabled"))


@endpoints.command("show")
@click.argument("endpoint_id")
@json_option
@pass_cli
def endpoints_show(cli: CliContext, endpoint_id: str, as_json: bool) -> None:
    """Show one endpoint."""
    echo_record(cli.client().call(ops.get_webhook_endpoint(endpoint_id)), as_json, _ENDPOINT_FIELDS)


@endpoints.command("update")
@click.argument("endpoint_id")
@click.option("--url", help="New URL.")
@click.option("--description", help="New description.")
@click.option("--event", "events", multiple=True, help="Replace the event types (repeat).")
@click.option("--enable/--disable", "enabled", default=None, help="Start or pause sending.")
@json_option
@pass_cli
def endpoints_update(
    cli: CliContext,
    endpoint_id: str,
    url: str | None,
    description: str | None,
    events: tuple[str, ...],
    enabled: bool | None,
    as_json: bool,
) -> None:
    """Change an endpoint's URL, description, event types or enabled state."""
    if url is None and description is None and not events and enabled is None:
        raise click.UsageError("nothing to update: give --url, --description, --event or --enable")
    op = ops.update_webhook_endpoint(
        endpoint_id,
        url=url,
        description=description,
        events=list(events) or None,
        enabled=enabled,
    )
    echo_record(cli.client().call(op), as_json, _ENDPOINT_FIELDS)


@endpoints.command("delete")
@click.argument("endpoint_id")
@pass_cli
def endpoints_delete(cli: CliContext, endpoint_id: str) -> None:
    """Delete an endpoint (its pending deliveries are dropped as dead)."""
    cli.client().call(ops.delete_webhook_endpoint(endpoint_id))
    click.echo(f"deleted {endpoint_id}")


@endpoints.command("rotate-secret")
@click.argument("endpoint_id")
@click.option(
    "--grace",
    type=click.IntRange(0, 7 * 24 * 3600),
    default=None,
    help="Seconds the old secret keeps signing too [default: 86400].",
)
@json_option
@pass_cli
def endpoints_rotate(cli: CliContext, endpoint_id: str, grace: int | None, as_json: bool) -> None:
    """Make a new signing secret (printed once); the old one also signs during the grace."""
    endpoint = cli.client().call(ops.rotate_webhook_secret(endpoint_id, grace_period_seconds=grace))
    echo_record(endpoint, as_json, ("id", "secret", "previous_secret_expires_at"))
    if not as_json:
        click.echo(_SECRET_NOTE, err=True)


@webhooks.command("test")
@click.argument("event")
@click.option("--endpoint", "endpoint_id", required=True, help="Endpoint id (wh_…).")
@json_option
@pass_cli
def webhooks_test(cli: CliContext, event: str, endpoint_id: str, as_json: bool) -> None:
    """Send a signed test EVENT (e.g. processor.run.completed) to an endpoint now."""
    delivery = cli.client().call(ops.send_test_webhook(event, endpoint_id))
    echo_record(delivery, as_json, _DELIVERY_FIELDS)


@webhooks.group("deliveries")
def deliveries() -> None:
    """Inspect deliveries (payload, every attempt, state) and re-send them."""


@deliveries.command("list")
@click.option("--endpoint", "endpoint_id", help="Only this endpoint's deliveries.")
@click.option("--event-id", help="Only deliveries of this event (evt_…).")
@json_option
@pass_cli
def deliveries_list(
    cli: CliContext, endpoint_id: str | None, event_id: str | None, as_json: bool
) -> None:
    """List deliveries, oldest first."""
    rows = list(
        cli.client().paginate(
            lambda c: ops.list_webhook_deliveries(endpoint_id, cursor=c, event_id=event_id)
        )
    )
    echo_rows(
        rows, as_json, ("id", "event_id", "event_type", "state", "attempt_count", "last_error")
    )


def _show_delivery(delivery: Any, as_json: bool) -> None:
    if as_json:
        echo_json(delivery)
        return
    echo_record(delivery, False, _DELIVERY_FIELDS)
    click.echo("attempts:")
    for number, item in enumerate(delivery.attempts, 1):
        outcome = item.error or f"HTTP {item.status_code}"
        click.echo(
            f"  {number}. {item.started_at}  {item.trigger:<9} {outcome}  {item.latency_ms:.0f} ms"
        )
    click.echo("payload:")
    click.echo(json.dumps(delivery.payload, indent=2, sort_keys=True, ensure_ascii=False))


@deliveries.command("show")
@click.argument("delivery_id")
@json_option
@pass_cli
def deliveries_show(cli: CliContext, delivery_id: str, as_json: bool) -> None:
    """Show a delivery: state, every attempt, and the payload."""
    _show_delivery(cli.client().call(ops.get_webhook_delivery(delivery_id)), as_json)


@deliveries.command("retry")
@click.argument("delivery_id")
@json_option
@pass_cli
def deliveries_retry(cli: CliContext, delivery_id: str, as_json: bool) -> None:
    """Re-send a delivery now (same payload, same event id), whatever its state."""
    _show_delivery(cli.client().call(ops.retry_webhook_delivery(delivery_id)), as_json)


@webhooks.group("workspace-secret")
def workspace_secret() -> None:
    """The secret that signs webhook_url notifications (POST /parse/file/async)."""


@workspace_secret.command("show")
@json_option
@pass_cli
def workspace_secret_show(cli: CliContext, as_json: bool) -> None:
    """When the workspace secret was made (the secret itself: only from `rotate`)."""
    fields = ("created_at", "updated_at", "previous_secret_expires_at")
    echo_record(cli.client().call(ops.get_workspace_secret()), as_json, fields)


@workspace_secret.command("rotate")
@click.option(
    "--grace",
    type=click.IntRange(0, 7 * 24 * 3600),
    default=None,
    help="Seconds the old secret keeps signing too [default: 86400].",
)
@json_option
@pass_cli
def workspace_secret_rotate(cli: CliContext, grace: int | None, as_json: bool) -> None:
    """Make a new workspace secret and print it once."""
    secret = cli.client().call(ops.rotate_workspace_secret(grace_period_seconds=grace))
    echo_record(secret, as_json, ("secret", "updated_at", "previous_secret_expires_at"))
    if not as_json:
        click.echo(_SECRET_NOTE, err=True)


@webhooks.command("notifications")
@json_option
@pass_cli
def webhooks_notifications(cli: CliContext, as_json: bool) -> None:
    """Dead-letter notifications to the admins, and whether each was e-mailed or only logged."""
    rows = list(cli.client().paginate(lambda c: ops.list_webhook_notifications(cursor=c)))
    echo_rows(rows, as_json, ("id", "delivery_id", "status", "recipients", "created_at"))
