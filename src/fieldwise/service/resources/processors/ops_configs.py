"""Version configs are checked by the extraction engine when a version is created."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fieldwise.service.engines import extraction


def config_validator(*, allow_python: bool) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A ``ServiceState.config_validator``: raises ConfigError naming the bad key, else returns
    the config as given (stored as JSON exactly as the caller wrote it)."""

    def check(raw: dict[str, Any]) -> dict[str, Any]:
        # extraction's config module loads here, on the first version created, not at start-up
        extraction.validate_config(raw, allow_python=allow_python)
        return raw

    return check
