"""``--mlflow [URI]`` of ``evaluate``, ``compare`` and ``gate``: after the command has written
its outputs, log the evaluation as one MLflow run (docs/mlflow.md)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import click

from fieldwise import __version__
from fieldwise._errors import ConfigError
from fieldwise.cli._context import CliContext
from fieldwise.cli._loading import RunsetTarget, load_regated, load_scaled
from fieldwise.evaluate import Evaluation, compared_document, gated_document
from fieldwise.runner import load_runset

__all__ = [
    "MLFLOW_OPTION",
    "log_outcome",
    "log_target",
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
    uri: str,
    command: str,
    document: Mapping[str, Any],
    results_dir: Path,
    artifacts: Iterable[Path] = (),
) -> None:
    """Log ``document`` (the comparison's JSON, schema 2) with its run set's facts and
    ``artifacts``; say on standard error where (standard output may be the JSON)."""
    from fieldwise.tracking import Tracked, log_evaluation  # mlflow is imported on use

    runset = load_runset(str(document["source"]["runset_id"]), results_dir)
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


def log_target(
    cli: CliContext, uri: str, command: str, target: RunsetTarget, policy_path: Path | None
) -> None:
    """Log the run set ``target`` names: for ``gate``, its figures and verdicts under the
    policy (``gate --json``); for ``compare``, its figures (``compare --json``)."""
    if command == "gate":
        document = gated_document(load_regated(cli, target, policy_path=policy_path))
    else:
        document = compared_document(load_scaled(cli, target, "in-process", None))
    track(uri, command, document, target.results_dir)


def log_outcome(
    cli: CliContext, uri: str | None, outcome: Evaluation, dataset: Path, policy: Path | None
) -> None:
    """``evaluate --mlflow``: log the evaluation's run set as ``gate --json`` sees it (the
    same policy), with the report folder's files; nothing without ``--mlflow``."""
    if uri is None:
        return
    analysis = outcome.analysis
    target = RunsetTarget(
        runset_ids=(outcome.runset.runset_id,),
        baseline=analysis.baseline,
        candidates=analysis.scored.candidates,
        dataset_path=dataset,
        results_dir=outcome.runset.directory.parent,
    )
    document = gated_document(load_regated(cli, target, policy_path=policy))
    track(uri, "evaluate", document, target.results_dir, report_artifacts(outcome.report_paths))


def mlflow_option(command: str) -> Callable[[F], F]:
    """``--mlflow [URI]`` for a run-set command (its ``target`` and, for a gate,
    ``policy_path`` keywords; placed above ``pass_cli``): logs once the command finished,
    whatever its exit code (a failing verdict is a result too), never after an error."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            uri = kwargs.pop("mlflow_uri")
            # refused before the command runs, not after it printed its results
            if uri is not None and kwargs.get("split") is not None:
                raise ConfigError("--mlflow logs the whole run set: drop --split")
            if uri is not None and len(kwargs["target"].runset_ids) > 1:
                raise ConfigError(
                    "--mlflow logs one run set: merge them first (fieldwise runsets merge)"
                )
            finished = False
            try:
                result = func(*args, **kwargs)
                finished = True
                return result
            except click.exceptions.Exit:  # ctx.exit(code): the command finished
                finished = True
                raise
            finally:
                if finished and uri is not None:
                    # pass_cli (inside this wrapper) found the context and applied its flags
                    cli = click.get_current_context().find_object(CliContext)
                    assert cli is not None
                    log_target(cli, uri, command, kwargs["target"], kwargs.get("policy_path"))

        return MLFLOW_OPTION(wrapper)  # type: ignore[return-value]

    return decorate
