"""``fieldwise serve``: run the local service in the foreground."""

from __future__ import annotations

from pathlib import Path

import click

from fieldwise._config import service_settings
from fieldwise.service import serve as run_service


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--port",
    default=8765,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="TCP port (0 picks a free one).",
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the database and blobs live [default: .fieldwise/service, or FIELDWISE_DATA_DIR].",
)
@click.option(
    "--database-url",
    help="SQLAlchemy URL instead of the SQLite file in the data dir "
    "(e.g. postgresql+psycopg://user:pw@host/db).",
)
@click.option(
    "--allow-python-engines",
    is_flag=True,
    default=None,
    help="Let processor versions call Python entry points (engine = python).",
)
@click.option(
    "--allow-file-root",
    "file_roots",
    multiple=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="A folder whose files runs may read through file:// input paths. Repeatable.",
)
def serve(
    host: str,
    port: int,
    data_dir: Path | None,
    database_url: str | None,
    allow_python_engines: bool | None,
    file_roots: tuple[Path, ...],
) -> None:
    """Run the local Document Processing Service until interrupted.

    Admin API keys come from FIELDWISE_API_KEYS (comma-separated); without it, an admin key is
    created on the first start, printed once, and stored only as a hash. The web console is
    served under /console (its address is printed at start): sign in with an admin key to
    manage API keys, webhook endpoints and deliveries.
    """
    settings = service_settings(
        data_dir=data_dir,
        database_url=database_url,
        allow_python_engines=allow_python_engines,
        allowed_file_roots=tuple(p.resolve() for p in file_roots) or None,
    )
    run_service(settings, host=host, port=port, announce=lambda m: click.echo(m, err=True))
