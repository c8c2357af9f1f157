"""Log one evaluation to MLflow, once: the only module that imports mlflow (lazily, so
fieldwise works without the ``mlflow`` extra and says how to install it when asked to log).

Idempotence: a run is found again by its tags ``fieldwise.runset_id``, ``fieldwise.versions``
(baseline first, then the candidates) and ``fieldwise.policy_digest``. A run with all three
that finished logging (tag ``fieldwise.logged = complete``) is returned as it is, nothing
logged; one that did not finish (the process died mid-log) is deleted and logged again from
the start, since MLflow params cannot be rewritten and metrics logged twice would be two
points. The same run set gated under another policy is another decision: it gets its own run
(same run set tag, another policy digest).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fieldwise._errors import ConfigError
from fieldwise.tracking._record import KEY_TAGS, RunRecord, Tracked, run_record

if TYPE_CHECKING:
    from mlflow.tracking import MlflowClient

__all__ = ["DEFAULT_EXPERIMENT", "Logged", "log_evaluation"]

DEFAULT_EXPERIMENT = "fieldwise"
#: MLflow's dataset digest column holds 36 characters; the full hash is the run's param
_DIGEST_CHARS = 36
#: MLflow's log_batch limits per call
_BATCH_METRICS, _BATCH_PARAMS = 1000, 100
_COMPLETE = ("fieldwise.logged", "complete")


@dataclass(frozen=True)
class Logged:
    """Where the evaluation is in MLflow, and whether this call created the run."""

    run_id: str
    experiment_id: str
    tracking_uri: str
    created: bool


def _experiment(client: MlflowClient, name: str) -> str:
    found = client.get_experiment_by_name(name)
    return found.experiment_id if found is not None else client.create_experiment(name)


def _existing(client: MlflowClient, experiment_id: str, record: RunRecord) -> list[Any]:
    # run set and version ids and digests are [A-Za-z0-9_,]; anything else is refused
    # rather than escaped into MLflow's filter language
    odd = [record.tags[key] for key in KEY_TAGS if "'" in record.tags[key]]
    if odd:
        raise ConfigError(f"cannot search MLflow for a run tagged {odd[0]!r}")
    where = " AND ".join(f"tags.`{key}` = '{record.tags[key]}'" for key in KEY_TAGS)
    return list(client.search_runs([experiment_id], filter_string=where))


def _dataset_input(tracked: Tracked) -> Any:
    """The ground truth as an MLflow dataset: one row per document (file, ground truth as
    JSON), its digest the dataset's ground-truth hash (cut to what MLflow stores)."""
    import pandas as pd
    from mlflow.data.pandas_dataset import from_pandas
    from mlflow.entities import DatasetInput, InputTag

    frame = pd.DataFrame(
        [
            {"file": str(r["file"]), "ground_truth": json.dumps(r["ground_truth"], sort_keys=True)}
            for r in tracked.ground_truth
        ],
        columns=["file", "ground_truth"],
    )
    digest = str(tracked.document["ground_truth_hash"])[:_DIGEST_CHARS]
    dataset = from_pandas(frame, name=tracked.dataset, digest=digest)
    context = InputTag(key="mlflow.data.context", value="evaluation")
    return DatasetInput(dataset=dataset._to_mlflow_entity(), tags=[context])


def _log(client: MlflowClient, run_id: str, tracked: Tracked, record: RunRecord) -> None:
    from mlflow.entities import Metric, Param

    stamp = int(time.time() * 1000)
    metrics = [Metric(k, v, stamp, 0) for k, v in sorted(record.metrics.items())]
    params = [Param(k, v) for k, v in sorted(record.params.items())]
    for start in range(0, len(metrics), _BATCH_METRICS):
        client.log_batch(run_id, metrics=metrics[start : start + _BATCH_METRICS])
    for start in range(0, len(params), _BATCH_PARAMS):
        client.log_batch(run_id, params=params[start : start + _BATCH_PARAMS])
    client.log_inputs(run_id, datasets=[_dataset_input(tracked)])
    for path in tracked.artifacts:
        client.log_artifact(run_id, str(path), artifact_path="report")
    client.log_dict(run_id, dict(tracked.document), "fieldwise/comparison.json")
    client.log_dict(run_id, record.field_keys, "fieldwise/metric_keys.json")
    client.set_tag(run_id, *_COMPLETE)
    client.set_terminated(run_id, "FINISHED")


def log_evaluation(
    tracked: Tracked,
    *,
    tracking_uri: str | None = None,
    experiment: str = DEFAULT_EXPERIMENT,
) -> Logged:
    """Log ``tracked`` as one run of ``experiment`` at ``tracking_uri`` (None: MLflow's own
    default, ``MLFLOW_TRACKING_URI`` or ``./mlruns``), unless it is logged already.

    Raises :class:`ConfigError` when MLflow is not installed or the tracking server refuses
    or cannot be reached."""
    record = run_record(tracked)
    try:
        from mlflow.exceptions import MlflowException
    except ImportError as exc:
        raise ConfigError("--mlflow needs MLflow: pip install 'fieldwise[mlflow]'") from exc
    from mlflow.tracking import MlflowClient

    uri = tracking_uri or "MLflow's default tracking URI"
    try:
        client = MlflowClient(tracking_uri=tracking_uri)
        uri = client.tracking_uri
        experiment_id = _experiment(client, experiment)
        runs = _existing(client, experiment_id, record)
        for run in runs:
            if run.data.tags.get(_COMPLETE[0]) == _COMPLETE[1]:
                return Logged(run.info.run_id, experiment_id, uri, created=False)
        for run in runs:  # a log that never finished: start it over
            client.delete_run(run.info.run_id)
        name = f"{tracked.dataset} {tracked.runset_id}"
        run = client.create_run(experiment_id, tags=record.tags, run_name=name)
        _log(client, run.info.run_id, tracked, record)
    except (MlflowException, OSError) as exc:
        raise ConfigError(f"cannot log to MLflow at {uri}: {exc}") from exc
    return Logged(run.info.run_id, experiment_id, uri, created=True)
