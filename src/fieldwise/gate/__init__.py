"""fieldwise.gate: the release policy, the pure ``decide()`` and publishing what passed.

``policy = load_policy("examples/gate.toml")`` (or ``default_policy()``);
``verdict = decide(result, policy)`` (or ``decide_all`` for one verdict per candidate).
``verdict.status`` is ``pass`` (exit 0), ``fail`` (exit 1) or ``inconclusive`` (exit 3),
while :class:`GateError` means it could not decide (exit 2).
``publish_if_passed(client, processor_id, version_id, verdict)`` publishes.
"""

from __future__ import annotations

from fieldwise._errors import GateError, PublishRefused
from fieldwise.gate._decide import GATE_FIGURE, decide, decide_all
from fieldwise.gate._inputs import Figures, GateInput
from fieldwise.gate._policy import (
    Policy,
    default_policy,
    load_policy,
    policy_from_mapping,
    with_critical,
)
from fieldwise.gate._publish import publish_if_passed
from fieldwise.gate._verdict import (
    EXIT_CODES,
    STATUSES,
    FailedRun,
    RuleResult,
    Verdict,
    load_verdict,
    save_verdict,
    worst,
)

__all__ = [
    "EXIT_CODES",
    "GATE_FIGURE",
    "STATUSES",
    "FailedRun",
    "Figures",
    "GateError",
    "GateInput",
    "Policy",
    "PublishRefused",
    "RuleResult",
    "Verdict",
    "decide",
    "decide_all",
    "default_policy",
    "load_policy",
    "load_verdict",
    "policy_from_mapping",
    "publish_if_passed",
    "save_verdict",
    "with_critical",
    "worst",
]
