"""The values the gate produces: one result per rule, and the verdict over all of them."""

from __future__ import annotations

from dataclasses import dataclass

from fieldwise.errors import FieldwiseError

__all__ = ["FailedRun", "GateError", "RuleResult", "Verdict"]


class GateError(FieldwiseError):
    """The gate could not decide (no data, no candidate, a policy naming unknown fields).

    A *failing* gate is not an error: it is a :class:`Verdict` with ``passed=False``.
    """


@dataclass(frozen=True)
class FailedRun:
    """A processor run that produced no output: which document, which version, and why."""

    item: str
    version: str
    error: str
    run_id: str | None = None


@dataclass(frozen=True)
class RuleResult:
    """One rule checked on one subject (the whole comparison, or one field).

    ``name`` is ``rule`` or ``rule[field]``; ``observed`` and ``threshold`` are the unrounded
    figures that were compared (the comparison itself is exact, see :func:`decide`).
    """

    name: str
    rule: str
    field: str | None
    passed: bool
    observed: float
    threshold: float
    message: str


@dataclass(frozen=True)
class Verdict:
    """Whether ``candidate`` may replace ``baseline``: ``passed`` when every rule passed.

    ``reasons`` lists the failing rules' messages (or one summary line when all passed).
    """

    passed: bool
    reasons: tuple[str, ...]
    rules: tuple[RuleResult, ...]
    baseline: str
    candidate: str
    policy_source: str

    @property
    def failed_rules(self) -> tuple[RuleResult, ...]:
        """The rules that failed, in rule order."""
        return tuple(r for r in self.rules if not r.passed)
