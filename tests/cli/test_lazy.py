"""The command list is lazy: `fieldwise --help` imports no command module, and the one-line
help recorded for the listing stays equal to each command's own."""

from __future__ import annotations

import json
import subprocess
import sys

import click

from fieldwise.cli import cli
from fieldwise.cli._lazy import LazyGroup

HEAVY = (
    "fastapi",
    "pandas",
    "sqlalchemy",
    "numpy",
    "httpx",
    "fieldwise.service",
    "fieldwise.compare",
)


def _modules_after(*argv: str) -> set[str]:
    code = (
        "import json, sys\n"
        "from fieldwise.cli import main\n"
        "try:\n"
        f"    main({list(argv)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_help_and_version_import_no_heavy_module() -> None:
    for argv in (["--help"], ["--version"]):
        loaded = _modules_after(*argv)
        heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY))
        assert heavy == [], f"fieldwise {' '.join(argv)} imported {heavy[:5]}"


def test_recorded_short_help_matches_each_command() -> None:
    assert isinstance(cli, LazyGroup)
    ctx = click.Context(cli)
    for name, entry in cli.lazy.items():
        command = cli.get_command(ctx, name)
        assert command is not None, name
        assert command.name == name
        assert entry.short_help == command.get_short_help_str(limit=200), name


def test_root_help_lists_every_command() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from fieldwise.cli import main; main(['--help'])"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    for name in cli.lazy:
        assert f"\n  {name} " in done.stdout, name


def test_talking_to_a_remote_service_never_imports_the_service() -> None:
    # connect() to --base-url must not load the embedded service's frameworks (FastAPI,
    # SQLAlchemy, uvicorn): they cost a remote re-sync of 10k documents half its time.
    code = (
        "import json, sys\n"
        "from fieldwise._config import ClientSettings\n"
        "from fieldwise._connection import connect, identity_of\n"
        "s = ClientSettings(base_url='http://127.0.0.1:9/', api_key='k')\n"
        "assert connect(s).base_url == identity_of(s) == 'http://127.0.0.1:9'\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = set(json.loads(done.stderr.strip().splitlines()[-1]))
    service = sorted(m for m in loaded if m.split(".")[0] in ("fastapi", "sqlalchemy", "uvicorn"))
    assert service + sorted(m for m in loaded if m.startswith("fieldwise.service")) == []
