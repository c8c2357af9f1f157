"""The toolkit's seams: it reaches the service only over HTTP. Only the modules that start a
service may import ``fieldwise.service`` (checked on every import statement, including the
ones inside functions). No package reaches into another package's private modules or names:
what a neighbour uses is exported from the package's ``__init__``."""

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


def _package(module: str) -> str | None:
    """The package a module belongs to: a direct subfolder of ``src/fieldwise`` (top-level
    modules such as ``fieldwise._errors`` belong to none: they are shared ground)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "fieldwise" or parts[1].startswith("_"):
        return None
    if len(parts) == 2 and not (SRC / parts[1]).is_dir():
        return None
    return parts[1]


def _private_reaches(path: Path, importer: str | None = None) -> set[tuple[str, str, str | None]]:
    """Every import in ``path`` (module ``importer``, by default its name under ``src``) of
    another package's private module (a ``_x`` part below the package) or private name
    (``from fieldwise.pkg import _x``)."""
    importer = importer or _module_name(path)
    own = _package(importer)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[tuple[str, str, str | None]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [(node.module, alias.name) for alias in node.names]
        else:
            continue
        for module, name in targets:
            package = _package(module)
            if package is None or package == own:
                continue
            below = module.split(".")[2:]
            if any(part.startswith("_") for part in below) or (name or "").startswith("_"):
                found.add((importer, module, name))
    return found


def test_no_package_imports_another_packages_private_modules() -> None:
    reaches = set().union(*(_private_reaches(p) for p in sorted(SRC.rglob("*.py"))))
    assert len(list(SRC.rglob("*.py"))) > 100  # the walk found the whole source tree
    assert reaches == set()


def test_the_private_import_walk_sees_every_form(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import fieldwise.client._models\n"
        "from fieldwise.gate import _policy\n"
        "def f():\n    from fieldwise.runner._runset_store import RecordWriter\n"
        "from fieldwise.client import Client\n"
        "from fieldwise._errors import ConfigError\n"
    )
    found = _private_reaches(probe, "fieldwise.webhooks._probe")
    assert {(module, name) for _, module, name in found} == {
        ("fieldwise.client._models", None),
        ("fieldwise.gate", "_policy"),
        ("fieldwise.runner._runset_store", "RecordWriter"),
    }


def _runset_names_in(path: Path, files: tuple[str, ...], folders: tuple[str, ...]) -> list[str]:
    """The run-set entry names ``path`` spells: any string (docstrings included) containing a
    file name of the folder, and any folder name joined onto a path (``x / "cells"``; a plain
    ``"cells"`` is also a JSON key, so only the path join is telling)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [name for name in files if name in node.value]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            right = node.right
            if isinstance(right, ast.Constant) and right.value in folders:
                found.append(str(right.value))
    return found


def test_only_the_runset_store_names_a_file_of_a_runset_folder() -> None:
    from fieldwise.runner import RUNSET_ENTRIES

    store = SRC / "runner" / "_runset_store.py"
    files = tuple(name for name in RUNSET_ENTRIES if "." in name)
    folders = tuple(name for name in RUNSET_ENTRIES if "." not in name)
    assert len(files) == 5  # manifest, items, records, statistics, verdict; the cell store
    assert folders == ("cells",)
    assert _runset_names_in(store, files, folders)  # the scan sees the store's own names
    spelled = {
        _module_name(path): found
        for path in sorted(SRC.rglob("*.py"))
        if path != store and (found := _runset_names_in(path, files, folders))
    }
    assert spelled == {}


def test_the_runset_name_scan_sees_strings_and_path_joins(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        '"""Reads records.jsonl."""\n'
        'def f(d):\n    return d / "cells", {"cells": 1}, f"{d}/verdict.json"\n'
    )
    found = _runset_names_in(probe, ("records.jsonl", "verdict.json"), ("cells",))
    assert sorted(found) == ["cells", "records.jsonl", "verdict.json"]


def test_only_the_service_names_its_database_file() -> None:
    """The toolkit learns what the service holds over HTTP, never from its storage."""
    from fieldwise.service.store.engine import SQLITE_FILE

    toolkit = [p for p in sorted(SRC.rglob("*.py")) if "service" not in p.relative_to(SRC).parts]
    naming = sorted(
        _module_name(path)
        for path in toolkit
        if any(
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and SQLITE_FILE in node.value
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    )
    assert naming == []
