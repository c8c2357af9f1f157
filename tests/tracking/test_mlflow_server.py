"""``--mlflow`` against a real ``mlflow server`` (conftest): one small evaluation of the bundled
invoices with the embedded service, logged by ``evaluate --mlflow`` and read back through
MLflow's own client: every param, metric, tag, artifact and the dataset input; ``gate`` on the
same run set finds the run instead of making another; another policy is another run. The
logger takes the document the command built: no run set is read back for it."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mlflow.entities import Run
from mlflow.tracking import MlflowClient

import fieldwise.runner._runset_store as runset_store
from fieldwise import __version__
from fieldwise.datasets.generate import generate_dataset
from fieldwise.tracking import Tracked, log_evaluation
from tests.cli_main import MainResult, run_main


@dataclass(frozen=True)
class Evaluated:
    """The evaluation logged by ``evaluate --mlflow`` and what it left on disk."""

    root: Path
    dataset: Path
    report: Path
    results: Path
    runset_id: str
    exit_code: int
    stderr: str
    #: how often the run set's records were read from disk while evaluating and logging
    records_reads: int

    @property
    def manifest(self) -> dict[str, Any]:
        return dict(json.loads((self.results / self.runset_id / "runset.json").read_text()))


@dataclass(frozen=True)
class Counted:
    """One command's result and how often it read a run set's records from disk."""

    result: MainResult
    records_reads: int


def _counted(root: Path, *args: str) -> Counted:
    """``fieldwise ARGS`` in ``root``, counting reads at the run-set store's one reader of
    records (every load of a run set goes through it)."""
    reads: list[Path] = []
    read_records = runset_store.read_records

    def counting(directory: Path) -> Any:
        reads.append(directory)
        return read_records(directory)

    # module fixtures run before the per-test folder (tests/conftest.py) is entered
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        for name in [n for n in os.environ if n.startswith(("FIELDWISE_", "MLFLOW_"))]:
            patch.delenv(name)
        patch.setattr(runset_store, "read_records", counting)
        return Counted(run_main(*args), len(reads))


def _in(root: Path, *args: str) -> MainResult:
    return _counted(root, *args).result


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory, mlflow_server: str) -> Evaluated:
    root = tmp_path_factory.mktemp("evaluated")
    dataset = root / "D"
    generate_dataset("invoices", count=8, seed=3, out_dir=dataset, scanned_share=0.0)
    report = root / "R"
    counted = _counted(
        root, "evaluate", str(dataset), "--quiet", "--json", "-o", str(report),
        f"--mlflow={mlflow_server}",
    )  # fmt: skip
    result = counted.result
    assert result.exit_code in (0, 1, 3), result.stderr
    runset_id = json.loads(result.stdout)["runset"]["runset_id"]
    results = root / ".fieldwise" / "results"
    return Evaluated(
        root, dataset, report, results, runset_id, result.exit_code, result.stderr,
        counted.records_reads,
    )  # fmt: skip


def _logged_run_id(stderr: str) -> str:
    found = re.search(r"^mlflow: (?:logged|already logged:) run (\w+) at ", stderr, re.MULTILINE)
    assert found is not None, stderr
    return found.group(1)


@dataclass(frozen=True)
class Gated:
    """``gate --json --mlflow`` on the evaluation's run set: the document, and the run it
    reported."""

    document: dict[str, Any]
    result: MainResult
    records_reads: int


@pytest.fixture(scope="module")
def gated(evaluated: Evaluated, mlflow_server: str) -> Gated:
    counted = _counted(
        evaluated.root, "gate", evaluated.runset_id, "--json", "--dataset", str(evaluated.dataset),
        "--results-dir", str(evaluated.results), "--mlflow", mlflow_server,
    )  # fmt: skip
    result = counted.result
    assert result.exit_code == evaluated.exit_code, result.stderr
    return Gated(json.loads(result.stdout), result, counted.records_reads)


@pytest.fixture(scope="module")
def client(mlflow_server: str) -> MlflowClient:
    return MlflowClient(tracking_uri=mlflow_server)


def _runs(client: MlflowClient, runset_id: str, digest: str | None = None) -> list[Run]:
    where = f"tags.`fieldwise.runset_id` = '{runset_id}'"
    if digest is not None:
        where += f" AND tags.`fieldwise.policy_digest` = '{digest}'"
    ids = [e.experiment_id for e in client.search_experiments()]
    return list(client.search_runs(ids, filter_string=where))


@pytest.fixture(scope="module")
def run(evaluated: Evaluated, gated: Gated, client: MlflowClient) -> Run:
    return client.get_run(_logged_run_id(evaluated.stderr))


def test_evaluate_logs_one_run_and_gate_finds_it(
    evaluated: Evaluated, gated: Gated, client: MlflowClient, run: Run
) -> None:
    assert "mlflow: logged run" in evaluated.stderr
    assert "mlflow: already logged: run" in gated.result.stderr
    assert _logged_run_id(gated.result.stderr) == run.info.run_id
    digest = run.data.tags["fieldwise.policy_digest"]
    assert [r.info.run_id for r in _runs(client, evaluated.runset_id, digest)] == [run.info.run_id]
    assert run.info.status == "FINISHED"


def test_the_logger_takes_the_document_the_command_built(
    evaluated: Evaluated, gated: Gated
) -> None:
    # evaluate holds the run set the runner recorded: logging it reads nothing back (it read
    # the records twice more when the logger re-gated the run set and loaded it again);
    # gate reads its run set once, for its own verdicts, and the logger reuses that read
    assert evaluated.records_reads == 0
    assert gated.records_reads == 1


def test_params_name_processor_versions_dataset_and_policy(
    evaluated: Evaluated, gated: Gated, run: Run
) -> None:
    doc, manifest = gated.document, evaluated.manifest
    base, (cand,) = doc["baseline"], doc["candidates"]
    params = run.data.params
    digest = params["policy_digest"]
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    assert params == {
        "runset_id": evaluated.runset_id,
        "processor_id": manifest["processor_id"],
        "dataset": manifest["dataset"],
        "ground_truth_hash": doc["ground_truth_hash"],
        "policy_digest": digest,
        "fieldwise_version": __version__,
        "version.baseline": base,
        "version.baseline.name": "published",
        "version.candidate": cand,
        "version.candidate.name": "latest-draft",
    }
    assert doc["ground_truth_hash"] == manifest["ground_truth_hash"]
    tags = run.data.tags
    assert tags["fieldwise.verdict"] == doc["status"]
    assert tags["fieldwise.verdict.candidate"] == doc["verdicts"][0]["status"]
    assert tags["fieldwise.command"] == "evaluate"
    assert tags["fieldwise.versions"] == f"{base},{cand}"
    assert tags["fieldwise.policy_digest"] == digest
    assert tags["fieldwise.logged"] == "complete"


def _key(field: str) -> str:
    # docs/mlflow.md: other characters become "_", and the name's SHA-256 prefix is appended
    if re.fullmatch(r"[A-Za-z0-9_.\-]+", field):
        return field
    digest = hashlib.sha256(field.encode()).hexdigest()[:8]
    return re.sub(r"[^A-Za-z0-9_.\-]", "_", field) + "-" + digest


def _expected_metrics(doc: dict[str, Any]) -> dict[str, float]:
    role = {doc["baseline"]: "baseline", doc["candidates"][0]: "candidate"}
    figures = ("field_accuracy", "field_accuracy_low", "field_accuracy_high", "precision",
               "recall", "f1", "strict_accuracy", "accuracy")  # fmt: skip
    out: dict[str, Any] = {}
    for row in doc["overall"]:
        for name in (*figures, "all_fields_correct_rate"):
            out[f"{role[row['version']]}/{name}"] = row.get(name)
    for row in doc["fields"]:
        for name in figures:
            out[f"{role[row['version']]}/fields/{_key(row['field'])}/{name}"] = row.get(name)
    for row in doc["tests"]:
        for name in ("delta", "delta_low", "delta_high", "p_value", "p_holm"):
            out[f"{role[row['candidate']]}/fields/{_key(row['field'])}/{name}"] = row[name]
    for cand, boot in doc["bootstraps"].items():
        for name, key in (("delta", "delta"), ("delta_low", "low"), ("delta_high", "high")):
            out[f"{role[cand]}/{name}"] = boot[key]
    # a figure the document does not carry, or carries as null, is not logged
    return {k: float(v) for k, v in out.items() if v is not None}


def test_every_figure_is_a_metric(gated: Gated, run: Run, client: MlflowClient) -> None:
    expected = _expected_metrics(gated.document)
    logged = run.data.metrics
    assert sorted(logged) == sorted(expected)
    assert all(math.isclose(logged[k], v, rel_tol=1e-12) for k, v in expected.items())
    # a list column's name is one that needs the documented mapping
    assert f"candidate/fields/{_key('line_items[].amount')}/field_accuracy" in logged
    assert _key("line_items[].amount").startswith("line_items__.amount-")
    # the key -> field mapping is logged with the run
    path = client.download_artifacts(run.info.run_id, "fieldwise/metric_keys.json")
    keys = json.loads(Path(path).read_text())
    assert keys == {_key(r["field"]): r["field"] for r in gated.document["fields"]}
    # metrics are logged once: one point each
    history = client.get_metric_history(run.info.run_id, "candidate/field_accuracy")
    assert len(history) == 1


def test_report_and_items_are_artifacts(
    evaluated: Evaluated, run: Run, client: MlflowClient, tmp_path: Path
) -> None:
    listed = {Path(a.path).name for a in client.list_artifacts(run.info.run_id, "report")}
    written = {p.name for p in evaluated.report.iterdir()}
    assert listed == written
    assert {"report.html", "summary.md", "junit.xml", "report.json", "items.parquet"} <= listed
    local = Path(client.download_artifacts(run.info.run_id, "report", str(tmp_path)))
    for name in written:
        assert (local / name).read_bytes() == (evaluated.report / name).read_bytes(), name


def test_dataset_input_carries_the_ground_truth_digest(
    evaluated: Evaluated, gated: Gated, run: Run
) -> None:
    (given,) = run.inputs.dataset_inputs
    assert given.dataset.name == evaluated.manifest["dataset"]
    assert given.dataset.digest == gated.document["ground_truth_hash"][:36]
    assert json.loads(given.dataset.profile)["num_rows"] == 8
    columns = [c["name"] for c in json.loads(given.dataset.schema)["mlflow_colspec"]]
    assert columns == ["file", "ground_truth"]
    assert {t.key: t.value for t in given.tags} == {"mlflow.data.context": "evaluation"}


def test_another_policy_is_another_run_and_logged_once(
    evaluated: Evaluated, gated: Gated, run: Run, client: MlflowClient, tmp_path: Path
) -> None:
    policy = tmp_path / "policy.toml"
    policy.write_text("[gate]\nmin_documents = 5\n")
    args = ("gate", evaluated.runset_id, "--results-dir", str(evaluated.results),
            "--policy", str(policy), f"--mlflow={client.tracking_uri}")  # fmt: skip
    first, again = _in(tmp_path, *args), _in(tmp_path, *args)
    assert "mlflow: logged run" in first.stderr
    other = _logged_run_id(first.stderr)
    assert _logged_run_id(again.stderr) == other != run.info.run_id
    runs = {r.info.run_id: r for r in _runs(client, evaluated.runset_id)}
    assert set(runs) >= {run.info.run_id, other}
    digests = {r.data.tags["fieldwise.policy_digest"] for r in runs.values()}
    assert len(digests) == len(runs)


def _tracked(evaluated: Evaluated, gated: Gated) -> Tracked:
    manifest = evaluated.manifest
    return Tracked(
        command="gate",
        document=gated.document,
        processor_id=manifest["processor_id"],
        dataset=manifest["dataset"],
        ground_truth=[{"file": "a.pdf", "ground_truth": {}}],
        fieldwise_version=__version__,
    )


def test_a_log_that_never_finished_is_logged_again(
    evaluated: Evaluated, gated: Gated, client: MlflowClient
) -> None:
    experiment = "unfinished"  # its own experiment: its runs meet no other test's
    tracked = _tracked(evaluated, gated)
    first = log_evaluation(tracked, tracking_uri=client.tracking_uri, experiment=experiment)
    # as if the process had died before the end: the run is there, not marked complete
    client.delete_tag(first.run_id, "fieldwise.logged")
    again = log_evaluation(tracked, tracking_uri=client.tracking_uri, experiment=experiment)
    assert again.created
    assert again.run_id != first.run_id
    assert client.get_run(first.run_id).info.lifecycle_stage == "deleted"
    third = log_evaluation(tracked, tracking_uri=client.tracking_uri, experiment=experiment)
    assert (third.created, third.run_id) == (False, again.run_id)


def test_compare_logs_figures_without_a_verdict(
    evaluated: Evaluated, client: MlflowClient, tmp_path: Path
) -> None:
    counted = _counted(
        tmp_path, "compare", evaluated.runset_id, "--json", "--results-dir",
        str(evaluated.results), f"--mlflow={client.tracking_uri}",
    )  # fmt: skip
    result = counted.result
    assert result.exit_code == 0, result.stderr
    assert counted.records_reads == 1  # compare's own read: the logger takes its document
    document = json.loads(result.stdout)
    logged = client.get_run(_logged_run_id(result.stderr))
    assert logged.data.tags["fieldwise.policy_digest"] == "none"
    assert logged.data.tags["fieldwise.command"] == "compare"
    assert not [t for t in logged.data.tags if t.startswith("fieldwise.verdict")]
    assert logged.data.metrics == pytest.approx(_expected_metrics(document), rel=1e-12)
    assert [a.path for a in client.list_artifacts(logged.info.run_id)] == ["fieldwise"]
