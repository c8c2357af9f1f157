"""The service's layering, checked on its source: imports flow one way, modules stay small,
and every resource names its modules with one vocabulary.

app/server → resources → core → engines, and inside the core, lowest first: the kernel
(clock, ids, run_states) → store → http → jobs → state → events. Every import counts,
including the ones inside functions (a circle hidden behind a function-level import is still a
circle).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import fieldwise.service

ROOT = Path(fieldwise.service.__file__).parent
PACKAGE = "fieldwise.service"
#: The core's layers, lowest first: a module imports its own layer and those below it only.
CORE_ORDER = {
    "clock": 0,
    "ids": 0,
    "run_states": 0,
    "store": 1,
    "http": 2,
    "jobs": 3,
    "state": 4,
    "events": 5,
}
CORE = tuple(CORE_ORDER)
MAX_LINES = 400
#: The roles of a resource's modules (the README's "Inside a resource"): each module is named
#: for its role, alone or with a topic after an underscore (``ops_retention``, ``job_scoring``).
VOCABULARY = ("routes", "schemas", "tables", "ops", "views", "lifecycle", "job")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _imported(tree: ast.AST, module: str, is_package: bool, known: Mapping[str, Path]) -> set[str]:
    """Every fieldwise module imported anywhere in ``tree`` (a ``from m import x`` names the
    module ``m.x`` when that is a module, else ``m``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {name for name in found if name.startswith("fieldwise.")}


def import_graph() -> dict[str, set[str]]:
    """Module → the service modules it imports."""
    known = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        deps = _imported(tree, name, path.name == "__init__.py", known)
        graph[name] = {d for d in deps if d in known and d != name}
    return graph


def _toolkit_imports() -> dict[str, set[str]]:
    """Module → every fieldwise module outside the service it imports."""
    known = _modules()
    result: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        deps = _imported(tree, name, path.name == "__init__.py", known)
        result[name] = {d for d in deps if not d.startswith(PACKAGE)}
    return result


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _layer(module: str) -> tuple[str, ...]:
    return tuple(module.removeprefix(PACKAGE).strip(".").split("."))


def _is_routes(parts: tuple[str, ...]) -> bool:
    return parts[-1] == "routes" or parts[-1].startswith("routes_")


def upward_arrows(graph: Mapping[str, set[str]]) -> list[str]:
    """The imports inside the core from a lower layer to a higher one."""
    found = []
    for module, deps in graph.items():
        here = _layer(module)[0]
        for dep in deps:
            there = _layer(dep)[0]
            if here in CORE_ORDER and there in CORE_ORDER and CORE_ORDER[there] > CORE_ORDER[here]:
                found.append(f"{module} -> {dep}")
    return sorted(found)


def off_vocabulary(resources: Path) -> list[str]:
    """The modules under ``resources`` (one folder per resource) not named for a role of
    :data:`VOCABULARY`, and any module in a folder deeper than a resource's."""
    found = []
    for path in sorted(resources.rglob("*.py")):
        parts = path.relative_to(resources).parts
        if len(parts) == 1:  # resources/__init__.py
            continue
        role = path.stem.split("_", 1)[0]
        if len(parts) > 2 or (path.stem != "__init__" and role not in VOCABULARY):
            found.append("/".join(parts))
    return found


def re_exports_only(resources: Path) -> list[str]:
    """The modules under ``resources`` that define nothing: only a docstring, imports and
    ``__all__`` (a resource imports the core's definitions where they live instead)."""
    found = []
    for path in sorted(resources.rglob("*.py")):
        if path.stem == "__init__":
            continue
        body = ast.parse(path.read_text(encoding="utf-8")).body
        if all(_defines_nothing(node) for node in body):
            found.append("/".join(path.relative_to(resources).parts))
    return found


def _defines_nothing(node: ast.stmt) -> bool:
    if isinstance(node, ast.Import | ast.ImportFrom):
        return True
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return True  # the docstring
    targets = node.targets if isinstance(node, ast.Assign) else []
    return [getattr(t, "id", None) for t in targets] == ["__all__"]


def test_every_resource_module_is_named_for_its_role() -> None:
    assert off_vocabulary(ROOT / "resources") == []


def test_no_resource_module_only_re_exports() -> None:
    assert re_exports_only(ROOT / "resources") == []


def test_the_re_export_check_finds_a_module_that_defines_nothing(tmp_path: Path) -> None:
    resource = tmp_path / "things"
    resource.mkdir()
    (resource / "__init__.py").write_text('"""A resource."""\n', encoding="utf-8")
    (resource / "tables.py").write_text(
        '"""Its tables."""\nfrom x import t\n__all__ = ["t"]\n', encoding="utf-8"
    )
    (resource / "ops.py").write_text(
        '"""Its ops."""\nfrom x import t\n__all__ = ["f"]\ndef f(): return t\n', encoding="utf-8"
    )
    assert re_exports_only(tmp_path) == ["things/tables.py"]


def test_the_vocabulary_check_finds_a_stray_module(tmp_path: Path) -> None:
    """A resource that adds ``helpers.py`` (or a sub-package) fails the check above."""
    resource = tmp_path / "resources" / "things"
    (resource / "deep").mkdir(parents=True)
    names = ("__init__", "routes", "ops", "ops_import", "job", "helpers", "opsish", "deep/routes")
    for name in names:
        (resource / f"{name}.py").write_text('"""A module."""\n', encoding="utf-8")
    (tmp_path / "resources" / "__init__.py").write_text("", encoding="utf-8")
    found = off_vocabulary(tmp_path / "resources")
    assert found == ["things/deep/routes.py", "things/helpers.py", "things/opsish.py"]


def test_no_upward_arrows_inside_the_core() -> None:
    assert upward_arrows(import_graph()) == []


def test_the_arrow_check_finds_an_upward_arrow() -> None:
    graph = {
        "fieldwise.service.store.engine": {"fieldwise.service.http.unicode"},
        "fieldwise.service.http.unicode": {"fieldwise.service.store.json_reader"},
        "fieldwise.service.jobs.pool": {"fieldwise.service.state", "fieldwise.service.clock"},
    }
    assert upward_arrows(graph) == [
        "fieldwise.service.jobs.pool -> fieldwise.service.state",
        "fieldwise.service.store.engine -> fieldwise.service.http.unicode",
    ]


def test_no_resource_imports_another_resources_routes() -> None:
    offenders = []
    for module, deps in import_graph().items():
        parts = _layer(module)
        if parts[0] != "resources" or len(parts) < 2:
            continue
        for dep in deps:
            target = _layer(dep)
            other = target[0] == "resources" and len(target) > 2 and target[1] != parts[1]
            if other and _is_routes(target):
                offenders.append(f"{module} -> {dep}")
    assert offenders == []


def test_no_import_circles_in_the_service() -> None:
    assert cycles(import_graph()) == []


def test_engines_import_nothing_of_the_service_above_them() -> None:
    offenders = [
        f"{module} -> {dep}"
        for module, deps in import_graph().items()
        if _layer(module)[0] == "engines"
        for dep in deps
        if _layer(dep)[0] != "engines"
    ]
    assert offenders == []


def test_the_core_imports_no_resource_and_not_the_app() -> None:
    offenders = [
        f"{module} -> {dep}"
        for module, deps in import_graph().items()
        if _layer(module)[0] in CORE
        for dep in deps
        if _layer(dep)[0] in ("resources", "app", "server")
    ]
    assert offenders == []


def test_only_the_app_and_server_import_the_app() -> None:
    offenders = [
        f"{module} -> {dep}"
        for module, deps in import_graph().items()
        if _layer(module)[0] not in ("app", "server", "")
        for dep in deps
        if _layer(dep)[0] in ("app", "server")
    ]
    assert offenders == []


def test_the_service_never_imports_the_client_or_the_cli() -> None:
    offenders = [
        f"{module} -> {dep}"
        for module, deps in _toolkit_imports().items()
        for dep in deps
        if dep.split(".")[1] in ("client", "cli", "runner", "sync", "evaluate")
    ]
    assert offenders == []


def test_no_module_is_longer_than_400_lines() -> None:
    lengths = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in _modules().items()
    }
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


def test_the_circle_finder_finds_a_hidden_circle() -> None:
    """The check above would pass vacuously if the finder missed circles: it does not."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_function_level_imports_count() -> None:
    tree = ast.parse("def f():\n    from fieldwise.service.clock import Clock\n")
    known = _modules()
    assert _imported(tree, "fieldwise.service.x", False, known) == {"fieldwise.service.clock"}
