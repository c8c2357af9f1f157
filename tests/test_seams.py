"""The toolkit's seams: it reaches the service only over HTTP. Only the modules that start a
service may import ``fieldwise.service`` (checked on every import statement, including the
ones inside functions)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fieldwise._errors import ConfigError
from fieldwise.client import Client

SRC = Path(__file__).resolve().parents[1] / "src" / "fieldwise"

#: The embedded-mode starter, and the commands that run the service itself in the foreground
#: (``serve``: the HTTP service; ``worker``: its job workers).
STARTERS = {"fieldwise._connection", "fieldwise.cli._serve", "fieldwise.cli._worker"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_no_toolkit_module_imports_the_service() -> None:
    toolkit = [p for p in sorted(SRC.rglob("*.py")) if "service" not in p.relative_to(SRC).parts]
    assert len(toolkit) > 50  # the walk found the toolkit
    offenders = {
        _module_name(path): sorted(
            name
            for name in _imports(path)
            if name == "fieldwise.service" or name.startswith("fieldwise.service.")
        )
        for path in toolkit
        if _module_name(path) not in STARTERS
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_walk_sees_imports_inside_functions(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from fieldwise.service.ids import slugify\n")
    assert "fieldwise.service.ids" in _imports(probe)


def test_aliases_have_one_definition() -> None:
    from fieldwise.client import Version
    from fieldwise.runner import alias_targets

    def version(vid: str, number: int, status: str) -> Version:
        return Version(
            id=vid,
            object="version",
            processor_id="p",
            number=number,
            status=status,
            created_at="",
            updated_at="",
        )

    versions = [
        version("v1", 1, "published"),
        version("v3", 3, "drafted"),
        version("v2", 2, "drafted"),
    ]
    assert alias_targets("v1", versions) == {"published": "v1", "latest-draft": "v3"}
    assert alias_targets(None, versions[:1]) == {}


def test_critical_fields_merge_in_one_place() -> None:
    from fieldwise.compare import parse_field_specs
    from fieldwise.gate import Policy, with_critical

    policy = Policy(critical=("a",))
    specs = parse_field_specs({"b": {"type": "string", "critical": True}, "c": {"type": "string"}})
    assert with_critical(policy, specs).critical == ("a", "b")
    assert with_critical(policy, ["a"]) is policy


def test_sync_refuses_an_ambiguous_evaluation_set_name(client: Client, tmp_path: Path) -> None:
    from fieldwise.client import ops
    from fieldwise.datasets import load_dataset
    from fieldwise.sync import sync_dataset
    from tests.sync.test_sync import TRUTH, write_dataset

    first = client.call(ops.create_evaluation_set("twice"))
    second = client.call(ops.create_evaluation_set("twice"))
    dataset = load_dataset(write_dataset(tmp_path / "mini", TRUTH))
    with pytest.raises(ConfigError, match="several evaluation sets are named 'twice'") as caught:
        sync_dataset(
            client, dataset, state_dir=tmp_path / "state", service_identity="x", eval_set="twice"
        )
    assert first.id in str(caught.value)
    assert second.id in str(caught.value)


def test_one_private_module_convention() -> None:
    """Outside ``service/`` (one public module, internals by full path: see its layering test),
    a package's API is its ``__init__``; every other module is private and named ``_x.py``."""
    toolkit = [p for p in sorted(SRC.rglob("*.py")) if "service" not in p.relative_to(SRC).parts]
    public = sorted(
        _module_name(path)
        for path in toolkit
        if path.name != "__init__.py" and not path.name.startswith("_")
    )
    assert public == []
