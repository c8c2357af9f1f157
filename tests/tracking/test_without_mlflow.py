"""fieldwise works without the ``mlflow`` extra: nothing imports it until asked to log, and
asking to log without it says how to install it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fieldwise._errors import ConfigError
from fieldwise.tracking import Tracked, log_evaluation


def test_the_commands_with_the_option_do_not_import_mlflow() -> None:
    # their modules (and the option's) are loaded for --help; mlflow only when logging
    code = (
        "import sys\n"
        "from fieldwise.cli import main\n"
        "for command in ('evaluate', 'compare', 'gate'):\n"
        "    try:\n"
        "        main([command, '--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('fieldwise.cli._mlflow' in sys.modules, 'mlflow' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip().splitlines()[-1] == "True False"


def test_logging_without_mlflow_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n == "mlflow" or n.startswith("mlflow.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "mlflow", None)  # import mlflow now raises ImportError
    tracked = Tracked(
        command="compare",
        document={
            "source": {"runset_id": "rs_1"},
            "ground_truth_hash": "00",
            "baseline": "a",
            "candidates": [],
        },
        processor_id="proc_1",
        dataset="d",
        ground_truth=(),
        fieldwise_version="0",
    )
    with pytest.raises(ConfigError, match=r"pip install 'fieldwise\[mlflow\]'"):
        log_evaluation(tracked, tracking_uri="http://127.0.0.1:9")
