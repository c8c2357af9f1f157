"""``evaluate``: sync → processor set-up → run → compare → gate → report (→ publish)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from fieldwise._errors import ConfigError
from fieldwise.client import Client, Version
from fieldwise.compare import FieldSpec
from fieldwise.datasets import Dataset, load_dataset
from fieldwise.evaluate._analysis import Analysis, analyze, resolve_policy, write_outputs
from fieldwise.evaluate._processor_setup import ProcessorSetup, ensure_processor, existing_processor
from fieldwise.evaluate._publish import record_at_service
from fieldwise.evaluate._specs import spec_file, specs_of
from fieldwise.gate import Policy, publish_if_passed
from fieldwise.report import make_environment
from fieldwise.runner import (
    DEFAULT_RESULTS_DIR,
    Connection,
    Progress,
    RunOptions,
    RunSet,
    run_versions,
)
from fieldwise.sync import SyncResult, sync_dataset

Stage = Callable[[str], None]
RunProgress = Callable[[Progress], None]


class ServiceLink(Connection, Protocol):
    def client(self) -> Client: ...


@dataclass(frozen=True)
class EvaluationOptions:
    """How to evaluate; ``candidates`` (when given) replaces the one ``candidate``."""

    baseline: str = "published"
    candidate: str = "latest-draft"
    candidates: tuple[str, ...] = ()
    policy: Path | None = None
    publish: bool = False
    formats: tuple[str, ...] = ("html", "md", "junit", "json")
    out_dir: Path | None = None
    reports_root: Path = Path("reports")
    state_dir: Path = Path(".fieldwise")
    results_dir: Path = DEFAULT_RESULTS_DIR
    concurrency: int = 8
    use_cache: bool = True
    seed: int = 0
    split: str | None = None
    force: bool = False
    #: An existing processor (id or name) to evaluate instead of the dataset's [processor].
    processor: str | None = None


@dataclass(frozen=True)
class Evaluation:
    sync: SyncResult
    setup: ProcessorSetup
    runset: RunSet
    analysis: Analysis
    report_paths: dict[str, Path]
    published: Version | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)


def evaluate(
    link: ServiceLink,
    dataset_path: Path,
    options: EvaluationOptions,
    *,
    generated_at: str,
    stage: Stage = lambda _s: None,
    progress: RunProgress | None = None,
) -> Evaluation:
    """Run the whole evaluation of a dataset folder and return every step's outcome.

    The verdict is a value (``analysis.verdict.passed``); errors that stop the evaluation are
    raised as :class:`~fieldwise._errors.FieldwiseError`.
    """
    wanted = options.candidates or (options.candidate,)
    if options.publish and len(wanted) > 1:
        raise ConfigError("--publish needs a single candidate; evaluate one, then publish it")
    dataset = load_dataset(dataset_path)
    specs = specs_of(dataset)
    policy = resolve_policy(
        policy_path=options.policy,
        dataset_toml=spec_file(dataset),
        recorded_gate=None,
        specs=specs,
    )
    with link.client() as client:
        return _evaluate(
            link, client, dataset, specs, policy, options, generated_at, stage, progress
        )


def _evaluate(
    link: ServiceLink,
    client: Client,
    dataset: Dataset,
    specs: dict[str, FieldSpec],
    policy: Policy,
    options: EvaluationOptions,
    generated_at: str,
    stage: Stage,
    progress: RunProgress | None,
) -> Evaluation:
    stage(f"syncing {dataset.name} ({len(dataset.items)} documents)")
    synced = sync_dataset(
        client, dataset, state_dir=options.state_dir, service_identity=link.identity
    )
    assert synced.eval_set_id is not None
    stage("setting up the processor and its versions")
    setup = (
        existing_processor(client, options.processor)
        if options.processor is not None
        else ensure_processor(client, dataset)
    )
    # the names go to the runner as typed: it reads them with the one resolver, so an alias
    # means in ``evaluate`` what it means in ``run``, ``compare`` and ``publish``
    versions = [options.baseline, *(options.candidates or (options.candidate,))]
    stage(f"running {setup.processor_id}: {versions[0]} vs {', '.join(versions[1:])}")
    run = RunOptions(
        eval_set=synced.eval_set_id,
        processor_id=setup.processor_id,
        versions=tuple(versions),
        concurrency=options.concurrency,
        use_cache=options.use_cache,
        results_dir=options.results_dir,
        progress=progress,
        split=options.split,
        force=options.force,
    )
    runset = run_versions(link, run)
    stage("comparing")
    # the runner hands back what it recorded; reading it back from disk would only repeat it
    loaded = runset.loaded
    assert loaded is not None  # run_versions always sets it
    analysis = analyze(loaded, specs, policy, generated_at=generated_at, seed=options.seed)
    env = make_environment()
    paths = write_outputs(
        analysis,
        list(options.formats),
        options.out_dir,
        env,
        root=options.reports_root,
        documents_root=dataset.root,
    )
    notes: list[str] = []
    # the service keeps each candidate's verdict: its console asks before publishing a failure
    record_at_service(analysis, identity=link.identity, client=lambda: client, note=notes.append)
    published = None
    verdict = analysis.verdict
    if options.publish and verdict is not None and verdict.passed and analysis.scored.candidate:
        stage("publishing")
        published = publish_if_passed(
            client, setup.processor_id, analysis.scored.candidate, verdict
        )
    return Evaluation(synced, setup, runset, analysis, paths, published, tuple(notes))
