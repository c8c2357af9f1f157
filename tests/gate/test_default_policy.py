"""The default policy passes only on evidence (issue 39, "Pass means evidence"), and every
policy snippet in the README and docs is a policy that loads."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import fieldwise
from fieldwise.gate import Policy, decide, default_policy, load_policy, policy_from_mapping
from tests.gate._build import scores

REPO = Path(__file__).resolve().parents[2]


def test_default_policy_is_exposed_and_asks_for_evidence() -> None:
    policy = fieldwise.default_policy()
    assert policy == default_policy()
    assert (policy.overall_margin, policy.min_documents, policy.alpha) == (0.02, 10, 0.05)
    assert "default_policy" in fieldwise.__all__


def test_load_policy_of_none_refuses_by_name() -> None:
    with pytest.raises(TypeError, match=r"default_policy\(\)"):
        load_policy(None)  # type: ignore[arg-type]


def test_a_table_keeps_the_defaults_for_the_keys_it_does_not_set(tmp_path: Path) -> None:
    path = tmp_path / "dataset.toml"
    path.write_text('[dataset]\nname = "x"\n\n[gate]\nmin_accuracy = 0.9\n')
    policy = load_policy(path)
    assert policy.min_accuracy == 0.9
    assert (policy.overall_margin, policy.min_documents) == (0.02, 10)
    assert policy_from_mapping({"overall_margin": 0.05}).overall_margin == 0.05
    # a bare Policy() holds only what it is given: its digest is the one recorded before
    assert Policy().overall_margin is None
    assert Policy().digest() != default_policy().digest()


def test_sixteen_unchanged_documents_are_inconclusive_and_say_how_many_would_decide() -> None:
    verdict = decide(scores(12, 12, 16), default_policy())
    assert verdict.status == "inconclusive", verdict.reasons
    assert verdict.exit_code == 3
    (reason,) = verdict.reasons
    assert "over 16 documents reaches below -2.00 pp" in reason
    assert re.search(r"about \d+ documents would decide it", reason), reason
    # the same comparison under a bare Policy() (the old default) passed on nothing
    assert decide(scores(12, 12, 16), Policy()).status == "pass"


def test_a_clear_improvement_passes_on_sixteen_documents() -> None:
    verdict = decide(scores(4, 14, 16), default_policy())
    assert verdict.status == "pass", verdict.reasons
    (rule,) = [r for r in verdict.rules if r.rule == "overall_non_inferiority"]
    assert rule.passed
    assert rule.observed > 0


def test_a_regression_beyond_the_margin_fails() -> None:
    verdict = decide(scores(40, 10, 40), default_policy())
    assert verdict.status == "fail"
    (rule,) = [r for r in verdict.rules if r.rule == "overall_non_inferiority"]
    assert not rule.passed
    assert not rule.inconclusive


def _toml_blocks(path: Path) -> list[str]:
    return re.findall(r"```toml\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.DOTALL)


@pytest.mark.parametrize("doc", ["README.md", "docs/gate.md", "docs/datasets.md"])
def test_every_policy_snippet_loads(doc: str) -> None:
    """Each ```toml block with a [gate] table (or gate keys at the top) is a valid policy."""
    assert _toml_blocks(REPO / doc) or doc == "README.md"
    for block in _toml_blocks(REPO / doc):
        data = tomllib.loads(block)
        if "gate" in data:
            policy_from_mapping(data["gate"], source=doc)
        elif {"min_accuracy", "margin", "overall_margin", "min_documents"} & set(data):
            policy_from_mapping(data, source=doc)  # a gate.toml with top-level keys


def test_the_gate_toml_the_docs_name_exists_and_loads() -> None:
    named = set()
    for doc in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        named |= set(re.findall(r"--policy (\S+\.toml)", text))
        named |= set(re.findall(r"load_policy\(\"([^\"]+)\"\)", text))
        named |= set(re.findall(r"policy: (\S+\.toml)", text))
    # NEW.toml in docs/scale.md stands for "a policy of yours" when re-gating
    assert named - {"NEW.toml"} == {"examples/gate.toml"}
    policy = load_policy(REPO / "examples" / "gate.toml")
    assert policy.overall_margin == 0.02
    assert policy.critical == ("total",)
