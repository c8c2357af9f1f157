"""Named migrations: recorded once, idempotent, and data survives a restart."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, text

from fieldwise._config import ServiceSettings
from fieldwise.client import Client
from fieldwise.service import create_app, start_in_thread
from fieldwise.service.app import MIGRATIONS
from fieldwise.service.store import applied_migrations, make_engine, migrate


def test_migrations_are_named_recorded_and_applied_once(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    assert migrate(engine, MIGRATIONS) == [name for name, _ in MIGRATIONS]
    assert migrate(engine, MIGRATIONS) == []
    calls: list[str] = []

    def extra(conn: Connection) -> None:
        calls.append("ran")
        conn.execute(text("CREATE TABLE extra (x INTEGER)"))

    assert migrate(engine, [*MIGRATIONS, ("9999_extra", extra)]) == ["9999_extra"]
    assert migrate(engine, [*MIGRATIONS, ("9999_extra", extra)]) == []
    assert calls == ["ran"]
    assert applied_migrations(engine)[-1] == "9999_extra"


def test_data_survives_restart_on_the_same_data_dir(tmp_path: Path) -> None:
    settings = ServiceSettings(data_dir=tmp_path / "svc", api_keys=("k",))
    with (
        start_in_thread(settings, app=create_app(settings)) as first,
        Client(first.base_url, "k") as c,
    ):
        c.create_processor("kept")
        file_id = c.upload_file(b"bytes", filename="a.txt").id
    with (
        start_in_thread(settings, app=create_app(settings)) as second,
        Client(second.base_url, "k") as c,
    ):
        assert c.get_processor("kept").name == "kept"
        assert [f.id for f in c.list_files()] == [file_id]
