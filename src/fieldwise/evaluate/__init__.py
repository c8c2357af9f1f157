"""The main job: score run sets, decide, report — and ``evaluate`` a dataset end to end."""

from fieldwise._entry import make_callable
from fieldwise.evaluate._analysis import (
    Analysis,
    analyze,
    resolve_policy,
    run_seconds,
    save_verdict,
    write_outputs,
)
from fieldwise.evaluate._combine import (
    Combined,
    IncomparableError,
    combine_runsets,
    only_split,
    training_notes,
)
from fieldwise.evaluate._document import analysis_document, compared_document, gated_document
from fieldwise.evaluate._open import (
    Opened,
    RunsetSelection,
    analyze_runsets,
    now_iso,
    open_runsets,
    regate_runsets,
    score_runsets_at_scale,
)
from fieldwise.evaluate._pipeline import Evaluation, EvaluationOptions, evaluate
from fieldwise.evaluate._planning import plan_dataset
from fieldwise.evaluate._processor_setup import ProcessorSetup, ensure_processor
from fieldwise.evaluate._publish import publish_passed, record_at_service
from fieldwise.evaluate._regate import Regated, regate
from fieldwise.evaluate._scale import ScaledScore, score_at_scale
from fieldwise.evaluate._scoring import Scored, resolve_version, score_runset
from fieldwise.evaluate._specs import ResolvedSpecs, resolve_specs, spec_file, specs_of

__all__ = [
    "Analysis",
    "Combined",
    "Evaluation",
    "EvaluationOptions",
    "IncomparableError",
    "Opened",
    "ProcessorSetup",
    "Regated",
    "ResolvedSpecs",
    "RunsetSelection",
    "ScaledScore",
    "Scored",
    "analysis_document",
    "analyze",
    "analyze_runsets",
    "combine_runsets",
    "compared_document",
    "ensure_processor",
    "evaluate",
    "gated_document",
    "now_iso",
    "only_split",
    "open_runsets",
    "plan_dataset",
    "publish_passed",
    "record_at_service",
    "regate",
    "regate_runsets",
    "resolve_policy",
    "resolve_specs",
    "resolve_version",
    "run_seconds",
    "save_verdict",
    "score_at_scale",
    "score_runset",
    "score_runsets_at_scale",
    "spec_file",
    "specs_of",
    "training_notes",
    "write_outputs",
]

# ``fieldwise.evaluate(dataset)`` is the top-level entry point (see fieldwise._entry)
make_callable(__name__, "fieldwise._api:evaluate")
