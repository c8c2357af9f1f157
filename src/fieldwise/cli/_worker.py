"""``fieldwise worker``: a process that runs jobs of the local service's database, no HTTP."""

from __future__ import annotations

from pathlib import Path

import click

from fieldwise._config import service_settings
from fieldwise.service import work


@click.command()
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the blobs live (shared with the serving processes) "
    "[default: .fieldwise/service, or FIELDWISE_DATA_DIR].",
)
@click.option(
    "--database-url",
    help="SQLAlchemy URL of the shared database (e.g. postgresql+psycopg://user:pw@host/db).",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 256),
    help="Worker threads in this process [default: FIELDWISE_WORKERS, or 4].",
)
@click.option(
    "--allow-python-engines",
    is_flag=True,
    default=None,
    help="Let processor versions call Python entry points (engine = python).",
)
def worker(
    data_dir: Path | None,
    database_url: str | None,
    threads: int | None,
    allow_python_engines: bool | None,
) -> None:
    """Run processor, parse, workflow and evaluation jobs until interrupted.

    Start as many as the machine has cores, beside one or more ``fieldwise serve`` on the same
    PostgreSQL database and blob folder: every process claims jobs with a lease, so a job runs
    in one of them and a stopped or frozen one's jobs are taken over. On SQLite only one
    process at a time runs jobs; a second one says so and waits.
    """
    settings = service_settings(
        data_dir=data_dir,
        database_url=database_url,
        workers=threads,
        allow_python_engines=allow_python_engines,
    )
    click.echo(f"fieldwise worker (data: {settings.data_dir})", err=True)
    work(settings)
