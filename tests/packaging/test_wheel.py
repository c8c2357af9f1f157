"""The package as a user installs it: ``python -m build`` makes an sdist and a wheel that carry
every template, static asset and data file of the source tree, and the wheel, installed (not
editable) into a new venv outside the repository, runs the generate → evaluate loop, prints its
version and serves the console's pages and assets.

The build and the install are real (pip reaches the package registries for the dependencies);
nothing here imports fieldwise from the checkout: every command runs the venv's own
``fieldwise`` with ``PYTHONPATH`` cleared, and the test checks where the package was imported
from.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

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
    """A new venv, outside the repository, with the wheel installed (dependencies from the
    registries)."""
    where = tmp_path_factory.mktemp("outside") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    (wheel,) = dist.glob("fieldwise-*.whl")
    # --no-compile: byte-compiling every dependency's modules was half the install's time
    # (286 s against 142 s on a loaded 2-core machine) and proves nothing about the wheel; the
    # modules a command uses are compiled when it first imports them
    subprocess.run(
        [
            str(where / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-compile",
            str(wheel),
        ],
        check=True,
        env=_clean_env(),
    )
    return where


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
