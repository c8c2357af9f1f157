"""The main job: score run sets, decide, report — and ``evaluate`` a dataset end to end."""

from fieldwise._entry import make_callable
from fieldwise.evaluate._analysis import (
    VERDICT_FILE,
    Analysis,
    analyze,
    resolve_policy,
    run_seconds,
    save_verdict,
    write_outputs,
)
from fieldwise.evaluate._bootstrap import ProcessorSetup, ensure_processor
from fieldwise.evaluate._combine import (
    Combined,
    IncomparableError,
    combine_runsets,
    only_split,
)
from fieldwise.evaluate._document import analysis_document, compared_document, gated_document
from fieldwise.evaluate._pipeline import Evaluation, EvaluationOptions, evaluate
from fieldwise.evaluate._regate import Regated, regate
from fieldwise.evaluate._scale import ScaledScore, score_at_scale
from fieldwise.evaluate._scoring import Scored, resolve_version, score_runset

__all__ = [
    "VERDICT_FILE",
    "Analysis",
    "Combined",
    "Evaluation",
    "EvaluationOptions",
    "IncomparableError",
    "ProcessorSetup",
    "Regated",
    "ScaledScore",
    "Scored",
    "analysis_document",
    "analyze",
    "combine_runsets",
    "compared_document",
    "ensure_processor",
    "evaluate",
    "gated_document",
    "only_split",
    "regate",
    "resolve_policy",
    "resolve_version",
    "run_seconds",
    "save_verdict",
    "score_at_scale",
    "score_runset",
    "write_outputs",
]

# ``fieldwise.evaluate(dataset)`` is the top-level entry point (see fieldwise._entry)
make_callable(__name__, "fieldwise._api:evaluate")
