"""``--mlflow [URI]`` of ``evaluate``, ``compare`` and ``gate``: once the command has built its
document (docs/json.md), log that document as one MLflow run (docs/mlflow.md).

The logger takes what the command already holds, the document and the run set it was
reduced from: nothing is read or scored a second time for MLflow.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import click

from fieldwise import __version__
from fieldwise._errors import ConfigError
from fieldwise.evaluate import Evaluation, analysis_document
from fieldwise.runner import LoadedRunSet

__all__ = [
    "MLFLOW_OPTION",
    "log_outcome",
    "mlflow_option",
    "report_artifacts",
    "track",
]

F = TypeVar("F", bound=Callable[..., Any])

#: ``--mlflow`` alone is this value: MLflow then picks the URI (MLFLOW_TRACKING_URI, or its
#: default), which fieldwise leaves to MLflow rather than reading MLflow's variables itself
_MLFLOW_DEFAULT = ""

MLFLOW_OPTION = click.option(
    "--mlflow",
    "mlflow_uri",
    is_flag=False,
    flag_value=_MLFLOW_DEFAULT,
    default=None,
    metavar="[URI]",
    help="Also log the evaluation as one MLflow run (experiment: the dataset's name) at this "
    "tracking URI; --mlflow alone uses MLFLOW_TRACKING_URI or MLflow's default. Logging the "
    "same run set again creates no second run. Needs pip install 'fieldwise[mlflow]'. Write "
    "--mlflow=URI, or put --mlflow last, so that it does not take the next argument as URI.",
)


def report_artifacts(paths: Mapping[str, Path]) -> list[Path]:
    """The files of the report folders of ``paths`` (format -> path): the reports and the
    ``items.parquet`` the HTML report writes beside it."""
    folders = sorted({p.parent for p in paths.values()})
    return [f for folder in folders for f in sorted(folder.iterdir()) if f.is_file()]


def track(
    uri: str | None,
    command: str,
    document: Mapping[str, Any],
    runset: LoadedRunSet,
    artifacts: Iterable[Path] = (),
) -> None:
    """Log ``document`` (the comparison's JSON, schema 2, as the command built it) with the
    facts of ``runset`` (the run set it was reduced from) and ``artifacts``; say on standard
    error where (standard output may be the JSON). Nothing without ``--mlflow`` (``uri`` None)."""
    if uri is None:
        return
    from fieldwise.tracking import Tracked, log_evaluation  # mlflow is imported on use

    manifest = runset.manifest
    dataset = manifest.dataset or manifest.eval_set_name
    tracked = Tracked(
        command=command,
        document=document,
        processor_id=manifest.processor_id,
        dataset=dataset,
        ground_truth=[{"file": i.file, "ground_truth": i.ground_truth} for i in runset.items],
        fieldwise_version=__version__,
        artifacts=tuple(artifacts),
    )
    logged = log_evaluation(tracked, tracking_uri=uri or None, experiment=dataset)
    what = "logged" if logged.created else "already logged:"
    click.echo(f"mlflow: {what} run {logged.run_id} at {logged.tracking_uri}", err=True)


def log_outcome(
    uri: str | None, outcome: Evaluation, document: Mapping[str, Any] | None = None
) -> None:
    """``evaluate --mlflow``: log the evaluation's document (``document`` when the command
    built it already for ``--json``) with the report folder's files; nothing without
    ``--mlflow``."""
    if uri is None:
        return
    analysis = outcome.analysis
    built = document if document is not None else analysis_document(analysis)
    track(uri, "evaluate", built, analysis.runset, report_artifacts(outcome.report_paths))


def mlflow_option(func: F) -> F:
    """``--mlflow [URI]`` for a run-set command (its ``target`` keyword; placed above
    ``pass_cli``): the command receives ``mlflow_uri`` and logs the document it built with
    :func:`track`. What one MLflow run cannot stand for is refused before the command runs,
    not after it printed its results."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if kwargs["mlflow_uri"] is not None:
            if kwargs.get("split") is not None:
                raise ConfigError("--mlflow logs the whole run set: drop --split")
            if len(kwargs["target"].runset_ids) > 1:
                raise ConfigError(
                    "--mlflow logs one run set: merge them first (fieldwise runsets merge)"
                )
        return func(*args, **kwargs)

    return MLFLOW_OPTION(wrapper)  # type: ignore[return-value]
