"""Evaluation runs over HTTP: metrics against a hand computation and against
``fieldwise.compare``, results pagination, the ``evaluation.completed`` event, and failures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from fieldwise.client import Client, ops
from fieldwise.compare import build_frame, compare, parse_field_specs
from fieldwise.service.events.outbox import events
from tests.service.resources.evaluation_runs.conftest import World, make_set, wait_evaluation


def _events(service_dir: Path, kind: str) -> list[dict[str, Any]]:
    engine = create_engine(f"sqlite:///{service_dir / 'fieldwise.db'}")
    with engine.connect() as conn:
        rows = [
            r.data for r in conn.execute(select(events).order_by(events.c.seq)) if r.type == kind
        ]
    engine.dispose()
    return rows


def test_evaluation_scores_the_published_version(
    client: Client, world: World, tmp_path: Path
) -> None:
    created = client.call(ops.create_evaluation_run(world.eval_set_id, world.processor_id))
    assert created.id.startswith("evrun_")
    assert (created.status, created.version_id, created.metrics) == (
        "queued",
        world.version_id,
        None,
    )
    run = wait_evaluation(client, world.eval_set_id, created.id)
    assert run.status == "succeeded", run
    assert run.started_at
    assert run.finished_at
    assert run.attempts == 1
    m = run.metrics
    assert m is not None
    # the hand computation of the conftest docstring
    assert m["outcomes"] == {"correct": 5, "wrong": 1, "missed": 3, "spurious": 1, "both_empty": 0}
    assert m["accuracy"] == pytest.approx(5 / 10)
    assert m["precision"] == pytest.approx(5 / 7)
    assert m["recall"] == pytest.approx(5 / 9)
    assert m["f1"] == pytest.approx(0.625)
    assert m["all_fields_correct_rate"] == pytest.approx(1 / 5)
    assert (m["items"], m["documents"], m["cells"], m["support"]) == (5, 5, 10, 9)
    assert m["runs"] == {"succeeded": 4, "failed": 1, "canceled": 0, "deleted": 0}
    total = m["fields"]["total"]
    assert (total["correct"], total["wrong"], total["missed"], total["spurious"]) == (1, 1, 2, 1)
    assert total["precision"] == pytest.approx(1 / 3)
    assert total["recall"] == pytest.approx(1 / 4)
    number = m["fields"]["invoice_number"]
    assert (number["correct"], number["missed"], number["accuracy"]) == (4, 1, pytest.approx(0.8))

    (event,) = _events(tmp_path / "service", "evaluation.completed")
    assert event == {
        "eval_set_id": world.eval_set_id,
        "evaluation_run_id": run.id,
        "processor_id": world.processor_id,
        "version_id": world.version_id,
        "status": "succeeded",
        "accuracy": m["accuracy"],
        "precision": m["precision"],
        "recall": m["recall"],
        "f1": m["f1"],
        "all_fields_correct_rate": m["all_fields_correct_rate"],
        "items": 5,
        "runs_failed": 1,
    }
    listed = client.call(ops.list_evaluation_runs(world.eval_set_id))
    assert [r.id for r in listed.data] == [run.id]
    assert client.call(ops.list_evaluation_runs(world.eval_set_id, status="failed")).data == []


def test_metrics_equal_compare_on_the_same_outputs(client: Client, world: World) -> None:
    spec = {"date_order": "YMD", "fields": {"total": {"type": "currency", "atol": 3.0}}}
    client.call(ops.update_evaluation_set(world.eval_set_id, metadata={"compare_spec": spec}))
    created = client.call(ops.create_evaluation_run(world.eval_set_id, world.processor_id))
    run = wait_evaluation(client, world.eval_set_id, created.id)
    assert run.status == "succeeded"
    cells = list(
        client.paginate(lambda c: ops.list_evaluation_results(world.eval_set_id, run.id, 3, c))
    )
    # the same outputs, fetched from the processor runs the evaluation made, scored locally
    truth = {i.id: i.ground_truth for i in client.list_items(world.eval_set_id)}
    outputs: dict[str, Any] = {}
    for cell in cells:
        pr = client.call(ops.get_run(world.processor_id, cell.processor_run_id))
        assert pr.params["evaluation_run_id"] == run.id
        if pr.status == "succeeded":
            outputs[cell.item_id] = pr.output
    specs = parse_field_specs(spec["fields"], date_order="YMD")
    local = compare(build_frame(truth, {"v": outputs}), specs, baseline="v")
    overall = local.overall.iloc[0]
    m = run.metrics
    assert m is not None
    for key in ("accuracy", "precision", "recall", "f1", "all_fields_correct_rate"):
        assert m[key] == float(overall[key]), key
    # atol 3.0 makes b's total (7.00 for 9.99) correct: 6 of 10 cells
    assert m["accuracy"] == pytest.approx(6 / 10)
    for row in local.fields.to_dict("records"):
        mine = m["fields"][row["field"]]
        for key in ("accuracy", "precision", "recall", "f1", "support", "correct", "wrong"):
            assert mine[key] == row[key], (row["field"], key)
    local_cells = local.cells.sort_values(["item", "field"])
    assert [(c.item_id, c.field, c.outcome) for c in cells] == [
        (str(i), str(f), str(o))
        for i, f, o in zip(
            local_cells["item"], local_cells["field"], local_cells["outcome"], strict=True
        )
    ]


def test_results_are_paginated_by_item_and_field(client: Client, world: World) -> None:
    created = client.call(ops.create_evaluation_run(world.eval_set_id, world.processor_id))
    run = wait_evaluation(client, world.eval_set_id, created.id)
    everything = client.call(ops.list_evaluation_results(world.eval_set_id, run.id, 1000))
    assert everything.next_cursor is None
    first = client.call(ops.list_evaluation_results(world.eval_set_id, run.id, 4))
    assert len(first.data) == 4
    assert first.next_cursor
    paged = list(
        client.paginate(lambda c: ops.list_evaluation_results(world.eval_set_id, run.id, 4, c))
    )
    assert paged == everything.data
    keys = [(c.item_id, c.field) for c in paged]
    assert keys == sorted(keys)
    assert len(keys) == 10
    b_total = client.call(
        ops.list_evaluation_results(
            world.eval_set_id, run.id, item_id=world.items["b"], field="total"
        )
    ).data
    assert [(c.expected, c.predicted, c.outcome) for c in b_total] == [(9.99, 7.0, "wrong")]
    assert b_total[0].confidence is not None
    assert 0 < b_total[0].confidence <= 1
    missed = client.call(
        ops.list_evaluation_results(world.eval_set_id, run.id, outcome="missed")
    ).data
    e_cells = [c for c in missed if c.item_id == world.items["e"]]
    assert [(c.field, c.predicted, c.run_status) for c in e_cells] == [
        ("invoice_number", None, "failed"),
        ("total", None, "failed"),
    ]


def test_all_runs_failing_fails_the_evaluation(client: Client, tmp_path: Path) -> None:
    processor = client.create_processor("broken")
    version = client.create_version(
        processor.id, {"fields": [{"name": "total", "type": "currency"}]}
    )
    eval_set_id, _ = make_set(client, "ee", "only-broken")
    created = client.call(
        ops.create_evaluation_run(eval_set_id, processor.id, version_id=version.id)
    )
    run = wait_evaluation(client, eval_set_id, created.id)
    assert (run.status, run.failure_reason) == ("failed", "all_runs_failed")
    assert run.failure_message
    assert "none of the 2 processor runs" in run.failure_message
    assert run.metrics == {
        "items": 2,
        "runs": {"succeeded": 0, "failed": 2, "canceled": 0, "deleted": 0},
    }
    assert client.call(ops.list_evaluation_results(eval_set_id, run.id)).data == []
    (event,) = _events(tmp_path / "service", "evaluation.completed")
    assert (event["status"], event["failure_reason"], event["accuracy"]) == (
        "failed",
        "all_runs_failed",
        None,
    )


def test_an_empty_set_fails(client: Client) -> None:
    processor_id, _ = (client.create_processor("p").id, None)
    version = client.create_version(processor_id, {"fields": [{"name": "x", "type": "string"}]})
    eval_set = client.create_evaluation_set("empty")
    created = client.call(
        ops.create_evaluation_run(eval_set.id, processor_id, version_id=version.id)
    )
    run = wait_evaluation(client, eval_set.id, created.id)
    assert (run.status, run.failure_reason) == ("failed", "empty_evaluation_set")


def test_an_invalid_compare_spec_fails_the_evaluation(client: Client, world: World) -> None:
    bad = {"fields": {"total": {"type": "bogus"}}}
    client.call(ops.update_evaluation_set(world.eval_set_id, metadata={"compare_spec": bad}))
    created = client.call(ops.create_evaluation_run(world.eval_set_id, world.processor_id))
    run = wait_evaluation(client, world.eval_set_id, created.id)
    assert (run.status, run.failure_reason) == ("failed", "invalid_compare_spec")
    assert run.failure_message
    assert "bogus" in run.failure_message
