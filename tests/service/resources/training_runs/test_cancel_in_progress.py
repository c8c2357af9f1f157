"""Canceling a training run that is observed in progress: while it trains, and after the
model is trained and the worker's last check for a cancel, just before it is stored. Either
way the run ends canceled with no version, no model file or blob, and no completion event.

The worker is held on a gate (the real training, wrapped so that it waits on an event the
test sets), so the run is canceled while it is certainly ``in_progress``: no sleep races the
work.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from fieldwise._config import ServiceSettings
from fieldwise.client import Client, ops
from fieldwise.service.events.outbox import events
from fieldwise.service.resources.files.tables import files
from fieldwise.service.resources.training_runs import job as training_job
from fieldwise.service.state import Engines
from fieldwise.service.store import database_url
from tests.conftest import ServiceFactory
from tests.service.resources.training_runs.conftest import (
    FAST,
    mini_invoices,
    synced,
    wait_training,
)

#: Only guards against a hang; nothing waits this long when the code is right.
_BOUND = 600.0


class _Gate:
    """Where the worker waits: ``entered`` when it arrives, goes on after ``release``."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()  # the job's handler returned
        self.blobs: list[bytes] = []  # models the real training returned

    def hold(self) -> None:
        self.entered.set()
        if not self.release.wait(_BOUND):
            raise RuntimeError("the test never released the training")


def _gated_training(gate: _Gate, hold: bool) -> Callable[..., bytes]:
    """The real training; with ``hold``, it waits at its first step."""
    real = Engines().train

    def train(examples: Any, fields: Any, params: Any, **hooks: Any) -> bytes:
        progress = hooks.pop("progress")
        calls = []

        def report(done: int, total: int) -> None:
            calls.append(done)
            if hold and len(calls) == 1:
                gate.hold()
            progress(done, total)

        blob = real(examples, fields, params, progress=report, **hooks)
        gate.blobs.append(blob)
        return blob

    return train


@pytest.mark.parametrize("where", ["training", "storing"])
def test_a_training_canceled_in_progress_leaves_no_version_model_or_event(
    start_service: ServiceFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    gate = _Gate()
    # the service trains with the engine it is given: the real one, gated
    engines = Engines(train=_gated_training(gate, where == "training"))
    if where == "storing":  # trained, past the last check for a cancel, about to store
        real_record = training_job.TrainingRunJob._record

        def record(self: training_job.TrainingRunJob, *args: Any) -> None:
            gate.hold()
            real_record(self, *args)

        monkeypatch.setattr(training_job.TrainingRunJob, "_record", record)
    real_run = training_job.TrainingRunJob.run

    def run(self: training_job.TrainingRunJob, state: Any, job: Any) -> None:
        try:
            real_run(self, state, job)
        finally:
            gate.finished.set()

    monkeypatch.setattr(training_job.TrainingRunJob, "run", run)
    service = start_service(engines=engines)
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        root = mini_invoices(tmp_path / "mini", train=3, test=1)
        eval_set_id, processor_id = synced(client, root, service.base_url)
        before = {v.id for v in client.list_versions(processor_id)}
        run_id = client.call(
            ops.create_training_run(processor_id, eval_set_id, split="train", params=FAST)
        ).id
        assert gate.entered.wait(_BOUND), "the training never started"
        held = client.call(ops.get_training_run(run_id))
        assert held.status == "in_progress"
        canceled = client.call(ops.cancel_training_run(run_id))
        assert canceled.status == "canceled"
        gate.release.set()
        assert gate.finished.wait(_BOUND), "the worker never finished the canceled run"
        ended = wait_training(client, run_id)
        assert (ended.status, ended.version_id, ended.model) == ("canceled", None, None)
        assert {v.id for v in client.list_versions(processor_id)} == before
    settings = ServiceSettings(data_dir=tmp_path / "service")
    engine = create_engine(database_url(settings))
    with engine.connect() as conn:
        models = list(conn.execute(select(files.c.id).where(files.c.purpose == "model")))
        kinds = [
            r.type
            for r in conn.execute(select(events.c.type, events.c.data))
            if r.data.get("training_run_id") == run_id
        ]
    engine.dispose()
    assert models == []
    # the spec's events are for runs that complete or fail; a canceled run sends none
    assert kinds == []
    if where == "storing":  # the model existed: neither its blob nor a staged copy is left
        sha = hashlib.sha256(gate.blobs[0]).hexdigest()
        assert not settings.blob_dir.joinpath(sha[:2], sha[2:4], sha).exists()
    assert list(settings.blob_dir.joinpath("tmp").iterdir()) == []
