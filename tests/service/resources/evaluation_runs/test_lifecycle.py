"""Cancel, and a service restart while an evaluation waits for its processor runs.

The version is the test-only gated python engine of
``tests.service.resources.runs.slow_engine``: a run waits in
its extract stage until the gate file named in the document exists.
"""

from __future__ import annotations

import threading
from pathlib import Path

from sqlalchemy import create_engine, select

from fieldwise.client import Client, ops
from fieldwise.service.events.outbox import events
from fieldwise.service.resources.evaluation_runs.tables import evaluation_runs
from tests.conftest import ServiceFactory
from tests.service.resources.evaluation_runs.conftest import wait_evaluation, wait_for

GATED = {"engine": "python", "entrypoint": "tests.service.resources.runs.slow_engine:gated"}
GUARD = 120.0  # seconds: only guards against a hang


def _gated_set(client: Client, gates: list[Path]) -> tuple[str, str]:
    processor = client.create_processor("slow")
    client.publish_version(processor.id, client.create_version(processor.id, GATED).id)
    eval_set = client.create_evaluation_set("gated")
    for gate in gates:
        file_id = client.upload_file(f"gate: {gate}\n".encode(), filename="g.txt").id
        client.call(ops.create_item(eval_set.id, file_id, {"gate": "opened"}))
    return eval_set.id, processor.id


def _evaluation_status(service_dir: Path, run_id: str) -> str | None:
    engine = create_engine(f"sqlite:///{service_dir / 'fieldwise.db'}")
    with engine.connect() as conn:
        query = select(evaluation_runs.c.status).where(evaluation_runs.c.id == run_id)
        status = conn.execute(query).scalar()
    engine.dispose()
    return status


def _event_types(service_dir: Path) -> list[str]:
    engine = create_engine(f"sqlite:///{service_dir / 'fieldwise.db'}")
    with engine.connect() as conn:
        kinds = [r.type for r in conn.execute(select(events).order_by(events.c.seq))]
    engine.dispose()
    return kinds


def test_cancel_stops_the_evaluation_and_its_processor_runs(
    start_service: ServiceFactory, tmp_path: Path
) -> None:
    service = start_service(allow_python_engines=True, workers=1)
    gate = tmp_path / "gate"
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        eval_set_id, processor_id = _gated_set(client, [gate, gate])
        run = client.call(ops.create_evaluation_run(eval_set_id, processor_id))
        wait_for(Path(f"{gate}.started").exists)
        canceled = client.call(ops.cancel_evaluation_run(eval_set_id, run.id))
        assert canceled.status == "canceled"
        assert canceled.finished_at
        gate.touch()
        runs = list(client.paginate(lambda c: ops.list_runs(processor_id, cursor=c)))
        assert [r.status for r in runs] == ["canceled", "canceled"]
        assert wait_evaluation(client, eval_set_id, run.id).status == "canceled"
        assert client.call(ops.list_evaluation_results(eval_set_id, run.id)).data == []
    assert "evaluation.completed" not in _event_types(tmp_path / "service")


def test_a_restart_requeues_the_evaluation_and_reuses_its_processor_runs(
    start_service: ServiceFactory, tmp_path: Path
) -> None:
    gates = [tmp_path / "g1", tmp_path / "g2"]
    first = start_service(allow_python_engines=True, workers=1)
    with Client(first.base_url, first.api_key, max_retries=0) as client:
        eval_set_id, processor_id = _gated_set(client, gates)
        run = client.call(ops.create_evaluation_run(eval_set_id, processor_id))
        wait_for(Path(f"{gates[0]}.started").exists)
    # Stop while the evaluation waits on the gated run. The evaluation pool stops first and
    # requeues the evaluation; once that is observed, open both gates so the runs pool (which
    # waits for its current run) can stop. Whether the second run is run now or after the
    # restart, it is made once and the evaluation's second attempt finds both.
    stopper = threading.Thread(target=first.stop)
    stopper.start()
    wait_for(lambda: _evaluation_status(tmp_path / "service", run.id) == "queued", GUARD)
    for gate in gates:
        gate.touch()
    stopper.join(GUARD)
    wait_for(lambda: not first.thread.is_alive(), GUARD)  # stop() gives up waiting after 10 s
    second = start_service(allow_python_engines=True, workers=1)
    with Client(second.base_url, second.api_key, max_retries=0) as client:
        done = wait_evaluation(client, eval_set_id, run.id)
        assert done.status == "succeeded", done
        assert done.attempts == 2
        assert done.metrics is not None
        assert done.metrics["accuracy"] == 1.0
        assert done.metrics["runs"]["succeeded"] == 2
        runs = list(client.paginate(lambda c: ops.list_runs(processor_id, cursor=c)))
        assert len(runs) == 2  # made once, by the first attempt
    assert _event_types(tmp_path / "service").count("evaluation.completed") == 1
