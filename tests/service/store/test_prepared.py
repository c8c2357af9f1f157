"""Statements built once hang off their engine: each engine has its own, none is shared by the
process, and an engine made without them still runs every statement (built each time)."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from fieldwise.service.store import make_engine
from fieldwise.service.store.prepared import prepared


def test_a_statement_is_built_once_per_engine() -> None:
    built: list[str] = []

    def build(sql: str) -> object:
        built.append(sql)
        return text(sql)

    first, second = make_engine("sqlite://"), make_engine("sqlite://")
    try:
        with first.connect() as conn:
            one = prepared(conn, "answer", lambda: build("SELECT 1"))
            assert prepared(conn, "answer", lambda: build("SELECT 2")) is one
            assert conn.execute(one).scalar() == 1
        with second.connect() as conn:
            # the other engine's cache is its own: this key is built again, here differently
            assert conn.execute(prepared(conn, "answer", lambda: build("SELECT 3"))).scalar() == 3
        assert prepared(first, "answer", lambda: build("SELECT 4")) is one
    finally:
        first.dispose()
        second.dispose()
    assert built == ["SELECT 1", "SELECT 3"]


def test_an_engine_made_elsewhere_builds_each_time() -> None:
    engine = create_engine("sqlite://")
    try:
        with engine.connect() as conn:
            assert conn.execute(prepared(conn, "k", lambda: text("SELECT 5"))).scalar() == 5
            assert conn.execute(prepared(conn, "k", lambda: text("SELECT 6"))).scalar() == 6
    finally:
        engine.dispose()
