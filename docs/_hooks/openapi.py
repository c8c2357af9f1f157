"""mkdocs hook: write the local service's OpenAPI document before the build.

The API page renders this file, so the documented API is always the one the code serves; the
file is generated, never edited (and git-ignored).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from fieldwise._config import ServiceSettings
from fieldwise.service import create_app

OUT = Path(__file__).resolve().parents[1] / "openapi.json"


def on_pre_build(config: Any, **_: Any) -> None:
    with tempfile.TemporaryDirectory(prefix="fieldwise-docs-") as data_dir:
        settings = ServiceSettings(data_dir=Path(data_dir), api_keys=("docs-build-key-0000",))
        spec = create_app(settings, announce=lambda _message: None).openapi()
    OUT.write_text(json.dumps(spec, indent=2, sort_keys=True) + "\n", encoding="utf-8")
