"""Reading policies from gate.toml and dataset.toml; every bad key names the file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from fieldwise._errors import ConfigError
from fieldwise.compare import parse_field_specs
from fieldwise.gate import default_policy, load_policy, policy_from_mapping

GATE_TOML = """
min_accuracy = 0.9
alpha = 0.01
min_support = 20
min_documents = 50
max_failed_run_share = 0.02
critical = ["total", "invoice_number"]
max_regression = 0.02

[min_field_accuracy]
default = 0.8
total = 0.98
seller.name = 0.7
"""


def test_gate_toml_at_top_level(tmp_path: Path) -> None:
    path = tmp_path / "gate.toml"
    path.write_text(GATE_TOML)
    policy = load_policy(path)
    assert policy.min_accuracy == 0.9
    assert policy.alpha == 0.01
    assert (policy.min_support, policy.min_documents) == (20, 50)
    assert policy.max_failed_run_share == 0.02
    assert policy.critical == ("invoice_number", "total")
    assert policy.min_accuracy_for("total") == 0.98
    assert policy.min_accuracy_for("seller.name") == 0.7
    assert policy.min_accuracy_for("other") == 0.8
    assert policy.max_regression_for("total") == 0.02
    assert policy.source == str(path)


def test_gate_toml_under_a_gate_table(tmp_path: Path) -> None:
    path = tmp_path / "gate.toml"
    path.write_text("[gate]\nmin_accuracy = 0.5\n[gate.max_regression]\nitems = 0.1\n")
    policy = load_policy(path)
    assert policy.min_accuracy == 0.5
    assert policy.max_regression is None
    assert policy.max_regression_for("items[].amount") == 0.1
    assert policy.max_regression_for("total") is None


def test_dataset_toml_gate_table_and_critical_fields(tmp_path: Path) -> None:
    path = tmp_path / "dataset.toml"
    path.write_text(
        '[dataset]\nname = "x"\n'
        '[fields.total]\ntype = "currency"\ncritical = true\n'
        '[fields.date]\ntype = "date"\n'
        '[gate]\nmin_documents = 3\ncritical = ["date"]\n'
    )
    policy = load_policy(path)
    assert policy.min_documents == 3
    assert policy.critical == ("date", "total")
    assert load_policy(path).is_critical("total")


def test_dataset_toml_without_gate_is_the_default_policy(tmp_path: Path) -> None:
    path = tmp_path / "dataset.toml"
    path.write_text('[dataset]\nname = "x"\n')
    assert load_policy(path) == default_policy(source=str(path))


def test_field_specs_add_critical_fields(tmp_path: Path) -> None:
    path = tmp_path / "gate.toml"
    path.write_text("min_documents = 1\n")
    specs = parse_field_specs({"total": {"type": "currency", "critical": True}})
    assert load_policy(path, field_specs=specs).critical == ("total",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("min_acuracy = 0.9\n", "gate.toml: [gate] unknown key 'min_acuracy'"),
        ("min_accuracy = 1.5\n", "key 'min_accuracy' must be a number in [0, 1]"),
        ("min_accuracy = true\n", "key 'min_accuracy' must be a number in [0, 1]"),
        ("alpha = 0\n", "key 'alpha' must be above 0"),
        ("min_documents = -1\n", "key 'min_documents' must be a whole number"),
        ("min_support = 2.5\n", "key 'min_support' must be a whole number"),
        ('critical = "total"\n', "key 'critical' must be a list of field names"),
        ('[max_regression]\ntotal = "a"\n', "key 'max_regression.total' must be a number"),
        ("min_accuracy = \n", "cannot read policy"),
        ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested more than 64 levels deep"),
    ],
)
def test_bad_policies_name_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "gate.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_policy(path)
    assert str(path) in str(info.value)
    assert message.removeprefix("gate.toml: ") in str(info.value)


def test_unknown_key_in_dataset_gate_table(tmp_path: Path) -> None:
    path = tmp_path / "dataset.toml"
    path.write_text('[dataset]\nname = "x"\n[gate]\nmax_regresion = 0.1\n')
    with pytest.raises(ConfigError, match=r"dataset\.toml: \[gate\] unknown key 'max_regresion'"):
        load_policy(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_policy(tmp_path / "nope.toml")


def test_policy_from_mapping_is_frozen() -> None:
    policy = policy_from_mapping({"min_field_accuracy": {"a": 0.5}}, source="inline")
    with pytest.raises(TypeError):
        policy.field_min_accuracy["b"] = 0.1  # type: ignore[index]
    assert policy.source == "inline"
