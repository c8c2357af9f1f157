"""The evaluation set's ``ETag``: kept in the set's row once computed, never kept stale.

Every write to a set or its items adds one to the set's revision and drops the kept digest in
its own transaction; a digest is kept only if the revision it was read at still holds. Both
database backends run the race where a write commits between reading the set and keeping its
digest (real SQLite, real PostgreSQL; the service over HTTP on loopback)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import update

from fieldwise._config import ServiceSettings
from fieldwise.client import Client, ops
from fieldwise.service import create_app, start_in_thread
from fieldwise.service.http.dependencies import fetch
from fieldwise.service.resources.evaluation_sets.ops import keep_digest
from fieldwise.service.resources.evaluation_sets.tables import evaluation_sets
from fieldwise.service.store import database_url, make_engine
from tests.postgres import postgres_server


def _tag(client: Client, eval_set_id: str) -> tuple[str, int | None]:
    found, etag = client.call(ops.tagged_evaluation_set(eval_set_id))
    assert etag is not None
    return etag, found.revision


def test_every_write_moves_the_tag_and_counts_one_revision(client: Client) -> None:
    file_id = client.upload_file(b"%PDF-1.4 x", filename="a.pdf").id
    es = client.create_evaluation_set("s").id
    seen = [_tag(client, es)]
    item = client.call(ops.create_item(es, file_id, {"total": "1"}))
    seen.append(_tag(client, es))
    assert _tag(client, es) == seen[-1]  # read twice, unchanged
    client.call(ops.update_item(es, item.id, ground_truth={"total": "2"}))
    seen.append(_tag(client, es))
    client.call(ops.update_evaluation_set(es, metadata={"source": "here"}))
    seen.append(_tag(client, es))
    client.call(ops.delete_item(es, item.id))
    seen.append(_tag(client, es))
    assert [revision for _tag_, revision in seen] == [0, 1, 2, 3, 4]
    assert len({etag for etag, _revision in seen}) == 5
    assert client.call(ops.get_evaluation_set(es)).revision == 4


def test_a_deleted_file_moves_the_tag(client: Client) -> None:
    es = client.create_evaluation_set("s").id
    kept, gone = (client.upload_file(b, filename="a.txt").id for b in (b"kept", b"gone"))
    for file_id in (kept, gone):
        client.call(ops.create_item(es, file_id, {"total": "1"}))
    before = _tag(client, es)
    client.call(ops.delete_file(gone))
    after = _tag(client, es)
    assert after[0] != before[0]
    assert after[1] == before[1]  # the set's rows did not change
    assert _tag(client, es) == after


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServiceSettings]:
    data_dir = tmp_path / "svc"
    if request.param == "sqlite":
        yield ServiceSettings(data_dir=data_dir, api_keys=("k",))
        return
    with postgres_server() as url:
        yield ServiceSettings(data_dir=data_dir, database_url=url, api_keys=("k",))


def test_a_digest_read_before_a_write_is_never_kept(settings: ServiceSettings) -> None:
    engine = make_engine(database_url(settings))
    with (
        start_in_thread(settings, app=create_app(settings, console=False)) as running,
        Client(running.base_url, "k") as client,
    ):
        file_id = client.upload_file(b"x", filename="a.txt").id
        es = client.create_evaluation_set("s").id
        item = client.call(ops.create_item(es, file_id, {"total": "1"}))
        with engine.connect() as conn:
            stale = fetch(conn, evaluation_sets, es, "evaluation set")
            conn.commit()
        # a writer commits between the read of the set and the keeping of its digest
        client.call(ops.update_item(es, item.id, ground_truth={"total": "2"}))
        with engine.connect() as conn:
            assert keep_digest(conn, stale) is None
            assert fetch(conn, evaluation_sets, es, "evaluation set").content_digest is None
        etag, revision = _tag(client, es)
        assert revision == 2
        with engine.connect() as conn:
            row = fetch(conn, evaluation_sets, es, "evaluation set")
            assert f'"{row.content_digest}"' == etag  # kept for the revision it describes
            # what is kept is what is served: nothing reads the items again
            conn.execute(
                update(evaluation_sets)
                .where(evaluation_sets.c.id == es)
                .values(content_digest="0" * 64)
            )
            conn.commit()
        assert _tag(client, es) == (f'"{"0" * 64}"', 2)
        client.call(ops.update_item(es, item.id, ground_truth={"total": "1"}))
        assert _tag(client, es)[0] not in (etag, f'"{"0" * 64}"')
    engine.dispose()
