"""The same service on PostgreSQL (--database-url): migrations, resources, state rules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fieldwise._config import ServiceSettings
from fieldwise._errors import ConflictError
from fieldwise.client import Client, ops
from fieldwise.service import create_app, start_in_thread
from tests.postgres import postgres_server


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def test_core_flow_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    settings = ServiceSettings(data_dir=tmp_path / "svc", database_url=pg_url, api_keys=("k",))
    with (
        start_in_thread(settings, app=create_app(settings)) as running,
        Client(running.base_url, "k") as c,
    ):
        c.create_processor("pg")
        version = c.create_version("pg", {"fields": [{"name": "total", "type": "currency"}]})
        c.publish_version("pg", version.id)
        with pytest.raises(ConflictError):
            c.publish_version("pg", version.id)
        file_id = c.upload_file(b"x", filename="a.txt").id
        eval_set = c.create_evaluation_set("s")
        item = c.call(ops.create_item(eval_set.id, file_id, {"a": {"b": "1"}}))
        before = c.call(ops.evaluation_set_etag(eval_set.id))
        patched = c.call(ops.update_item(eval_set.id, item.id, ground_truth={"a": {"c": 2}}))
        assert patched.ground_truth == {"a": {"b": "1", "c": 2}}
        # The ETag digests the JSON columns' stored text (cast in SQL): on PostgreSQL too it
        # holds still while nothing changes and moves with the ground truth.
        after = c.call(ops.evaluation_set_etag(eval_set.id))
        assert before is not None
        assert after not in (None, before)
        assert c.call(ops.evaluation_set_etag(eval_set.id)) == after
        assert not (tmp_path / "svc" / "fieldwise.db").exists()
    # A restart on the same database applies no migration twice and keeps the data.
    with (
        start_in_thread(settings, app=create_app(settings)) as running,
        Client(running.base_url, "k") as c,
    ):
        assert c.get_processor("pg").default_version_id == version.id
