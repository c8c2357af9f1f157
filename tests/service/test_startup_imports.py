"""Starting the service and answering a request loads no heavy engine.

`fieldwise sync` starts the embedded service in its own process to ask one ``ETag`` (benchmark
B4: an unchanged re-sync in 1.5 s, whole process). pandas, numpy, scikit-learn, the parsers
(PDF, images, OCR) and the extraction engine cost seconds to import; they must load where an
evaluation, a training run, a parse or an extraction needs them, not at start-up. Checked on
``sys.modules`` of a fresh interpreter, not on a clock, so the test holds on a loaded machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

#: Modules a start-up plus one GET must not load: top-level packages, and the web console
#: (the embedded service has none: nobody else knows its port or key).
HEAVY = (
    "PIL",
    "fieldwise.service.console.routes",
    "fieldwise.service.engines.extraction.engine",
    "fieldwise.service.engines.parsing.api",
    "jinja2",
    "lxml",
    "numpy",
    "pandas",
    "pypdfium2",
    "rapidocr_onnxruntime",
    "scipy",
    "skops",
    "sklearn",
)

# The CLI's own path: connect() with no base URL starts the embedded service in-process.
_SCRIPT = """
import json, sys
from pathlib import Path

from fieldwise._config import ClientSettings
from fieldwise._connection import connect
from fieldwise.client import ops

with connect(ClientSettings(), data_dir=Path(sys.argv[1])) as connection:
    with connection.client() as client:
        created = client.call(ops.create_evaluation_set("startup"))
        etag = client.call(ops.evaluation_set_etag(created.id))
names = set(sys.modules) | {name.split(".")[0] for name in sys.modules}
print(json.dumps({"etag": etag, "loaded": sorted(names & set(sys.argv[2:]))}))
"""


def _start_and_get(data_dir: Path) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(data_dir), *HEAVY],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result: dict[str, object] = json.loads(out.stdout.splitlines()[-1])
    return result


def test_embedded_start_and_one_get_load_no_heavy_engine_nor_console(tmp_path: Path) -> None:
    result = _start_and_get(tmp_path / "service")
    assert isinstance(result["etag"], str)  # the request really was answered
    assert result["etag"]
    assert result["loaded"] == []


def test_the_check_sees_a_heavy_module_when_one_is_loaded(tmp_path: Path) -> None:
    # The same probe after importing the scoring job (pandas) and the console must report
    # both, so an empty list above means "not loaded", not "not looked for".
    script = (
        "import fieldwise.service.resources.evaluation_runs.job_scoring\n"
        "import fieldwise.service.console.routes\n" + _SCRIPT
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "service"), *HEAVY],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    loaded = json.loads(out.stdout.splitlines()[-1])["loaded"]
    assert {"pandas", "fieldwise.service.console.routes"} <= set(loaded)
