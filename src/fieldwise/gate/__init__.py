"""fieldwise.gate: the release policy, the pure ``decide()`` and publishing what passed.

``policy = load_policy("gate.toml")``; ``verdict = decide(result, policy)``; a failing gate is
``verdict.passed is False`` (exit 1), while :class:`GateError` means it could not decide
(exit 2). ``publish_if_passed(client, processor_id, version_id, verdict)`` publishes.
"""

from __future__ import annotations

from fieldwise.gate._decide import decide
from fieldwise.gate._policy import Policy, load_policy, policy_from_mapping
from fieldwise.gate._verdict import FailedRun, GateError, RuleResult, Verdict
from fieldwise.gate.publish import PublishRefused, publish_if_passed

__all__ = [
    "FailedRun",
    "GateError",
    "Policy",
    "PublishRefused",
    "RuleResult",
    "Verdict",
    "decide",
    "load_policy",
    "policy_from_mapping",
    "publish_if_passed",
]
