"""The same evaluation on PostgreSQL: the figures of the hand computation, all cells stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from fieldwise._config import ServiceSettings
from fieldwise.client import Client, ops
from fieldwise.service import create_app, start_in_thread
from tests.postgres import postgres_server
from tests.service.resources.evaluation_runs.conftest import (
    make_processor,
    make_set,
    wait_evaluation,
)


def test_evaluation_on_postgresql(tmp_path: Path) -> None:
    with postgres_server() as url:
        settings = ServiceSettings(
            data_dir=tmp_path / "svc", database_url=url, api_keys=("k",), workers=2
        )
        with (
            start_in_thread(settings, app=create_app(settings, announce=lambda _m: None)) as svc,
            Client(svc.base_url, "k") as client,
        ):
            processor_id, _ = make_processor(client)
            eval_set_id, _ = make_set(client)
            created = client.call(ops.create_evaluation_run(eval_set_id, processor_id))
            run = wait_evaluation(client, eval_set_id, created.id)
            assert run.status == "succeeded", run
            assert run.metrics is not None
            assert run.metrics["accuracy"] == pytest.approx(0.5)
            assert run.metrics["f1"] == pytest.approx(0.625)
            cells = list(
                client.paginate(lambda c: ops.list_evaluation_results(eval_set_id, run.id, 3, c))
            )
            assert [c.outcome for c in cells].count("missed") == 3
            assert len(cells) == 10
