"""The package as a user installs it: ``python -m build`` makes an sdist and a wheel that carry
every template, static asset and data file of the source tree, and the wheel, installed (not
editable) into a new venv outside the repository, runs the generate → evaluate loop, prints its
version and serves the console's pages and assets.

The build is real; nothing here imports fieldwise from the checkout: every command runs the
venv's own ``fieldwise`` with ``PYTHONPATH`` cleared, and the test checks where the package was
imported from. The new venv takes the wheel itself from pip but its dependencies from the
suite's environment (one ``.pth`` line): resolving and unpacking three hundred megabytes of
dependencies again cost a CI run two to four minutes and proved what the CI's own install
of the same ``pyproject.toml`` already proves. What the wheel adds is held here: its files, its
entry point, its metadata (``pip check`` in the new venv: every requirement the wheel declares
is met), and :func:`test_every_import_is_a_declared_dependency` (nothing the package imports is
there only because the suite's environment happens to hold it).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import time
import tomllib
import zipfile
from collections.abc import Iterator
from importlib.metadata import packages_distributions
from pathlib import Path

import httpx
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.service.console.test_serve import _lines_until

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "fieldwise"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]

pytestmark = pytest.mark.slow


def _data_files() -> set[str]:
    """Every file of the package that is not Python source: templates, assets, py.typed, …,
    as paths inside the package (``fieldwise/report/templates/report.html``)."""
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard", "src"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return {
        str(Path(p).relative_to("src"))
        for p in tracked
        if not p.endswith(".py") and (ROOT / p).is_file()
    }


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """sdist and wheel built by ``python -m build`` from a copy of the checkout's files (what a
    clone holds, uncommitted edits included), so the build writes nothing into the repository."""
    checkout = tmp_path_factory.mktemp("checkout") / "fieldwise"
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    for name in listed:
        if (ROOT / name).is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, checkout / name)
    out = tmp_path_factory.mktemp("dist")
    # python -m build makes the sdist, then the wheel from the unpacked sdist: a file the sdist
    # leaves out is missing from the wheel too.
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(checkout)],
        check=True,
        capture_output=True,
        env=_clean_env(),
    )
    return out


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv, outside the repository, with the wheel installed and the suite's dependencies
    on its path (after its own site-packages, so the wheel's fieldwise comes first)."""
    where = tmp_path_factory.mktemp("outside") / "venv"
    # no pip of its own (ensurepip was most of a venv's making): the suite's pip installs into it
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    (site,) = where.glob("lib/python*/site-packages")
    # the dependencies' folder only: a path listed in a .pth is not scanned for .pth files, so
    # the suite's editable install of fieldwise (itself a .pth there) stays out of this venv
    (site / "_suite_dependencies.pth").write_text(
        "\n".join(_suite_site_packages()) + "\n", encoding="utf-8"
    )
    (wheel,) = dist.glob("fieldwise-*.whl")
    pip = [sys.executable, "-m", "pip", "--python", str(where / "bin" / "python")]
    subprocess.run(
        [*pip, "install", "--quiet", "--no-compile", "--no-deps", str(wheel)],
        check=True,
        env=_clean_env(),
    )
    # every requirement the wheel declares is met by what the venv can import
    checked = subprocess.run([*pip, "check"], capture_output=True, text=True, env=_clean_env())
    assert "fieldwise" not in checked.stdout, checked.stdout
    return where


def _suite_site_packages() -> list[str]:
    """The suite's site-packages folders (purelib and platlib, once each)."""
    return sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})


def _imported_top_level() -> set[str]:
    """The top-level names every module of the package imports (absolute imports only)."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def test_every_import_is_a_declared_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    declared = {
        canonicalize_name(Requirement(r).name)
        for r in [*project["dependencies"], *extras["postgres"], *extras["mlflow"]]
    }
    providers = packages_distributions()
    third_party = _imported_top_level() - set(sys.stdlib_module_names) - {"fieldwise"}
    unknown = sorted(n for n in third_party if n not in providers)
    assert unknown == [], f"imported but installed by no distribution: {unknown}"
    undeclared = {
        name: providers[name]
        for name in third_party
        if not {canonicalize_name(d) for d in providers[name]} & declared
    }
    assert undeclared == {}, f"imported but not a declared dependency: {undeclared}"


def test_the_sdist_and_the_wheel_carry_every_data_file(dist: Path) -> None:
    expected = _data_files()
    assert "fieldwise/report/templates/report.html" in expected
    assert "fieldwise/service/console/static/console.css" in expected
    (wheel,) = dist.glob(f"fieldwise-{VERSION}-*.whl")
    (sdist,) = dist.glob(f"fieldwise-{VERSION}.tar.gz")
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    with tarfile.open(sdist) as archive:
        prefix = f"fieldwise-{VERSION}/src/"
        in_sdist = {n.removeprefix(prefix) for n in archive.getnames() if n.startswith(prefix)}
    assert expected - in_wheel == set()
    assert expected - in_sdist == set()
    modules = {
        str(p.relative_to(PACKAGE.parent))
        for p in PACKAGE.rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert modules - in_wheel == set()


def test_the_installed_wheel_runs_generate_then_evaluate(venv: Path, tmp_path: Path) -> None:
    bin_dir = venv / "bin"
    env = _clean_env()
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import fieldwise; print(fieldwise.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    ).stdout.strip()
    assert Path(where).is_relative_to(venv), where

    version = subprocess.run(
        [str(bin_dir / "fieldwise"), "--version"],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    assert version.stdout.strip() == f"fieldwise, version {VERSION}"

    fieldwise = str(bin_dir / "fieldwise")
    subprocess.run(
        [
            fieldwise,
            "datasets",
            "generate",
            "invoices",
            "--count",
            "8",
            "--scanned-share",
            "0",
            "--seed",
            "3",
            "--out",
            "D",
        ],
        check=True,
        capture_output=True,
        cwd=tmp_path,
        env=env,
    )
    evaluated = subprocess.run(
        [fieldwise, "evaluate", "D", "--out", "R"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    # 0 pass, 1 fail, 3 inconclusive: a verdict either way; 2 would be an error
    assert evaluated.returncode in {0, 1, 3}, evaluated.stderr
    assert "verdict:" in evaluated.stdout
    report = (tmp_path / "R" / "report.html").read_text(encoding="utf-8")
    assert "<html" in report
    assert (tmp_path / "R" / "summary.md").is_file()


@pytest.fixture
def served(venv: Path, tmp_path: Path) -> Iterator[str]:
    """The installed ``fieldwise serve`` on a free loopback port; yields the console's address."""
    proc = subprocess.Popen(
        [
            str(venv / "bin" / "fieldwise"),
            "serve",
            "--port",
            "0",
            "--data-dir",
            str(tmp_path / "s"),
        ],
        env=_clean_env(FIELDWISE_API_KEYS="fw_wheel_key_0123456789"),
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    try:
        line = _lines_until(proc, "console: ")[-1]
        yield line.split("console: ", 1)[1].split()[0]
    finally:
        proc.kill()
        proc.wait()
        assert proc.stderr is not None
        proc.stderr.close()


def test_the_installed_service_serves_the_console_pages_and_assets(served: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            page = httpx.get(served + "/sign-in", timeout=30)
            break
        except httpx.TransportError:
            assert time.monotonic() < deadline, "the installed service did not answer"
            time.sleep(0.05)
    assert page.status_code == 200
    assert "<form" in page.text
    css = httpx.get(served + "/static/console.css", timeout=30)
    assert css.status_code == 200
    assert css.headers["content-type"].startswith("text/css")
