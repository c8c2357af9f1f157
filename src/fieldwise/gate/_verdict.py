"""The values the gate produces: one result per rule, and the verdict over all of them.

Three verdicts, each with its exit code: ``pass`` (0) every rule passed; ``fail`` (1) a rule
failed; ``inconclusive`` (3) nothing failed but the data cannot rule out a regression beyond a
non-inferiority margin. Exit code 2 is reserved for errors: :class:`GateError`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldwise._errors import ConfigError, GateError

__all__ = [
    "EXIT_CODES",
    "STATUSES",
    "FailedRun",
    "GateError",
    "RuleResult",
    "Verdict",
    "load_verdict",
    "save_verdict",
    "worst",
]

#: Verdict statuses, from best to worst.
STATUSES = ("pass", "inconclusive", "fail")
#: The process exit code of each verdict (2 means "could not decide": an error).
EXIT_CODES = {"pass": 0, "fail": 1, "inconclusive": 3}


@dataclass(frozen=True)
class FailedRun:
    """A processor run that produced no output (failed, canceled, or never recorded): which
    document, which version, and why. ``document`` is the name shown (default: the item id)."""

    item: str
    version: str
    error: str
    run_id: str | None = None
    document: str = ""

    @property
    def shown(self) -> str:
        """The document's name, or its item id."""
        return self.document or self.item


@dataclass(frozen=True)
class RuleResult:
    """One rule checked on one subject (the whole comparison, or one field).

    ``name`` is ``rule`` or ``rule[field]``; ``observed`` and ``threshold`` are the unrounded
    figures that were compared (the comparison itself is exact, see :func:`decide`).
    ``inconclusive`` marks a rule that neither passed nor failed (``passed`` is then False).
    """

    name: str
    rule: str
    field: str | None
    passed: bool
    observed: float
    threshold: float
    message: str
    inconclusive: bool = False

    @property
    def status(self) -> str:
        """``pass``, ``fail`` or ``inconclusive``."""
        if self.passed:
            return "pass"
        return "inconclusive" if self.inconclusive else "fail"


def worst(statuses: list[str] | tuple[str, ...]) -> str:
    """The worst of some statuses (``pass`` when there are none)."""
    return max(statuses, key=STATUSES.index, default="pass")


@dataclass(frozen=True)
class Verdict:
    """Whether ``candidate`` may replace ``baseline``.

    ``status`` is ``fail`` when a rule failed, else ``inconclusive`` when a rule could not
    decide, else ``pass``; ``passed`` is ``status == "pass"``. ``reasons`` lists the failing
    rules' messages, then the inconclusive ones (or one summary line when all passed).
    ``figure`` names the accuracy figure the rules use. ``not_evaluated`` are the fields a
    version output that the dataset does not declare and no document expects: no rule is
    about them, so they never fail the gate.
    """

    passed: bool
    reasons: tuple[str, ...]
    rules: tuple[RuleResult, ...]
    baseline: str
    candidate: str
    policy_source: str
    status: str = ""
    figure: str = ""
    not_evaluated: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        status = self.status or ("pass" if self.passed else "fail")
        if status not in STATUSES:
            raise ValueError(f"unknown verdict status {status!r}")
        if self.passed != (status == "pass"):
            raise ValueError(f"a verdict with status {status!r} cannot have passed={self.passed}")
        object.__setattr__(self, "status", status)

    @property
    def exit_code(self) -> int:
        """0 pass, 1 fail, 3 inconclusive."""
        return EXIT_CODES[self.status]

    @property
    def failed_rules(self) -> tuple[RuleResult, ...]:
        """The rules that failed, in rule order."""
        return tuple(r for r in self.rules if r.status == "fail")

    @property
    def inconclusive_rules(self) -> tuple[RuleResult, ...]:
        """The rules that could not decide, in rule order."""
        return tuple(r for r in self.rules if r.status == "inconclusive")


def _verdict_json(verdict: Verdict) -> dict[str, Any]:
    return {
        "candidate": verdict.candidate,
        "passed": verdict.passed,
        "status": verdict.status,
        "reasons": list(verdict.reasons),
    }


def save_verdict(
    path: Path, verdicts: Sequence[Verdict], *, runset_id: str, processor_id: str
) -> Path:
    """Record the verdicts of one run set at ``path`` (written whole or not at all), where
    :func:`load_verdict` finds them before publishing. Top-level fields are the first
    candidate's verdict; ``verdicts`` holds every candidate's. Rules are not kept: publishing
    needs the status and the reasons, and the report holds the rest."""
    if not verdicts:
        raise GateError(f"run set {runset_id}: no verdict to save")
    first = verdicts[0]
    payload = {
        "runset_id": runset_id,
        "processor_id": processor_id,
        "baseline": first.baseline,
        **_verdict_json(first),
        "verdicts": [_verdict_json(v) for v in verdicts],
    }
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def load_verdict(path: Path, *, runset_id: str, processor_id: str, version_id: str) -> Verdict:
    """The verdict saved at ``path`` for ``version_id`` (the first candidate's when the run set
    has no verdict naming it: :func:`~fieldwise.gate.publish_if_passed` then refuses it as
    another version's). :class:`ConfigError` when there is none, or it is for another
    processor."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(
            f"run set {runset_id} has no verdict yet: run `fieldwise gate {runset_id}` first"
        ) from None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: unreadable verdict: {exc}") from exc
    if not isinstance(saved, dict) or saved.get("processor_id") != processor_id:
        found = saved.get("processor_id") if isinstance(saved, dict) else None
        raise ConfigError(
            f"run set {runset_id} evaluated processor {found!r}, not {processor_id!r}"
        )
    mine = [v for v in saved.get("verdicts", []) if v.get("candidate") == version_id]
    chosen = mine[0] if mine else saved
    try:
        return Verdict(
            passed=bool(chosen["passed"]),
            reasons=tuple(str(r) for r in chosen.get("reasons", ())),
            rules=(),
            baseline=str(saved.get("baseline")),
            candidate=str(chosen.get("candidate")),
            policy_source=str(path),
            status=str(chosen.get("status") or ""),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"{path}: unreadable verdict: {exc}") from exc
