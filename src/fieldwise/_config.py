"""Settings, and the only reader of ``FIELDWISE_*`` environment variables.

Precedence, written once here: explicit argument (a CLI flag) > environment > default.
Everything else in fieldwise receives these values as arguments.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fieldwise._errors import ConfigError

__all__ = [
    "ClientSettings",
    "ServiceSettings",
    "client_settings",
    "dask_scheduler",
    "service_settings",
]

DEFAULT_DATA_DIR = Path(".fieldwise") / "service"


@dataclass(frozen=True)
class ServiceSettings:
    """Everything the local service needs to start; built once at the entry point."""

    data_dir: Path = DEFAULT_DATA_DIR
    database_url: str | None = None
    api_keys: tuple[str, ...] = ()
    max_upload_mb: float = 100.0
    retention_days: float = 30.0
    # Job threads: twice the cores of a small machine, so that while one thread writes to the
    # database another keeps each engine process fed (engine processes stay at the cores).
    workers: int = 4
    allowed_file_roots: tuple[Path, ...] = ()
    allow_python_engines: bool = False
    webhook_allow_http: tuple[str, ...] = ()
    admin_emails: tuple[str, ...] = ()
    smtp_url: str | None = None
    public_base_url: str | None = None
    rate_limit_per_second: float | None = None  # per API key; None: no limit
    rate_limit_burst: int = 20
    body_read_timeout: float = 60.0  # seconds for a whole request body, else 408
    lease_seconds: float = 30.0  # a claimed job is recovered this long after its last heartbeat
    heartbeat_seconds: float = 5.0  # how often a worker renews its leases
    # Parsing bounds (None: the parser's safe default, see ParseLimits in the parsing engine).
    max_csv_columns: int | None = None
    max_csv_cells: int | None = None
    max_page_pixels: int | None = None  # a PDF page rendered for OCR; larger is downscaled
    max_document_pixels: int | None = None  # all of a PDF's rendered pages
    max_markup_bytes: int | None = None  # a DOCX's parts inflated, an HTML document
    max_inflation_ratio: int | None = None  # a DOCX's inflated size over its own
    max_markup_elements: int | None = None  # DOCX parts or HTML, counted before parsing
    max_markup_depth: int | None = None
    max_words: int | None = None  # laid out on the text grid (DOCX, HTML, text, CSV)
    # A synchronous POST /parse/file stops past this and answers 413 (the async route has no
    # budget): a 25 KB PDF of 500 blank pages is minutes of OCR on a request thread.
    sync_parse_seconds: float = 30.0
    max_pattern_seconds: float = 2.0  # all field-pattern searches on one document, else failed
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def blob_dir(self) -> Path:
        return self.data_dir / "blobs"

    @property
    def max_upload_bytes(self) -> int:
        return int(self.max_upload_mb * 1024 * 1024)

    def with_overrides(self, **overrides: Any) -> ServiceSettings:
        """Return a copy with the non-None ``overrides`` applied (CLI flags win)."""
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})


@dataclass(frozen=True)
class ClientSettings:
    """Where the toolkit finds the service; ``base_url`` None means the embedded local service."""

    base_url: str | None = None
    api_key: str | None = None
    timeout: float = 30.0
    max_retries: int = 4
    #: GitHub Actions' job summary file (GITHUB_STEP_SUMMARY): evaluate and gate append their
    #: Markdown summary to it when it is set.
    step_summary: Path | None = None


def _split(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    return tuple(part.strip() for part in value.split(",") if part.strip())


def _number(env: Mapping[str, str], name: str, default: float, *, minimum: float = 0) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be >= {minimum}, got {raw!r}")
    return value


def _count(env: Mapping[str, str], name: str) -> int | None:
    """A positive whole number, or None when unset (the consumer's default applies)."""
    if not env.get(name):
        return None
    return int(_number(env, name, 0, minimum=1))


def _flag(env: Mapping[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def service_settings(env: Mapping[str, str] | None = None, **overrides: Any) -> ServiceSettings:
    """Build :class:`ServiceSettings` from the environment, then apply non-None ``overrides``."""
    env = os.environ if env is None else env
    data_dir = Path(env.get("FIELDWISE_DATA_DIR") or DEFAULT_DATA_DIR)
    settings = ServiceSettings(
        data_dir=data_dir,
        database_url=env.get("FIELDWISE_DATABASE_URL") or None,
        api_keys=_split(env.get("FIELDWISE_API_KEYS")),
        max_upload_mb=_number(env, "FIELDWISE_MAX_UPLOAD_MB", 100.0, minimum=0.001),
        retention_days=_number(env, "FIELDWISE_RETENTION_DAYS", 30.0),
        workers=int(_number(env, "FIELDWISE_WORKERS", 4, minimum=1)),
        allowed_file_roots=tuple(Path(p) for p in _split(env.get("FIELDWISE_ALLOWED_FILE_ROOTS"))),
        allow_python_engines=_flag(env, "FIELDWISE_ALLOW_PYTHON_ENGINES"),
        webhook_allow_http=_split(env.get("FIELDWISE_WEBHOOK_ALLOW_HTTP")),
        admin_emails=_split(env.get("FIELDWISE_ADMIN_EMAILS")),
        smtp_url=env.get("FIELDWISE_SMTP_URL") or None,
        public_base_url=env.get("FIELDWISE_PUBLIC_BASE_URL") or None,
        rate_limit_per_second=_number(env, "FIELDWISE_RATE_LIMIT", 0.0, minimum=0) or None,
        rate_limit_burst=int(_number(env, "FIELDWISE_RATE_BURST", 20, minimum=1)),
        lease_seconds=_number(env, "FIELDWISE_LEASE_SECONDS", 30.0, minimum=0.1),
        heartbeat_seconds=_number(env, "FIELDWISE_HEARTBEAT_SECONDS", 5.0, minimum=0.05),
        max_csv_columns=_count(env, "FIELDWISE_MAX_CSV_COLUMNS"),
        max_csv_cells=_count(env, "FIELDWISE_MAX_CSV_CELLS"),
        max_page_pixels=_count(env, "FIELDWISE_MAX_PAGE_PIXELS"),
        max_document_pixels=_count(env, "FIELDWISE_MAX_DOCUMENT_PIXELS"),
        max_markup_bytes=_count(env, "FIELDWISE_MAX_MARKUP_BYTES"),
        max_inflation_ratio=_count(env, "FIELDWISE_MAX_INFLATION_RATIO"),
        max_markup_elements=_count(env, "FIELDWISE_MAX_MARKUP_ELEMENTS"),
        max_markup_depth=_count(env, "FIELDWISE_MAX_MARKUP_DEPTH"),
        max_words=_count(env, "FIELDWISE_MAX_WORDS"),
        sync_parse_seconds=_number(env, "FIELDWISE_SYNC_PARSE_SECONDS", 30.0, minimum=0.01),
        max_pattern_seconds=_number(env, "FIELDWISE_MAX_PATTERN_SECONDS", 2.0, minimum=0.01),
    )
    return settings.with_overrides(**overrides)


def client_settings(env: Mapping[str, str] | None = None, **overrides: Any) -> ClientSettings:
    """Build :class:`ClientSettings` from the environment, then apply non-None ``overrides``."""
    env = os.environ if env is None else env
    settings = ClientSettings(
        base_url=env.get("FIELDWISE_BASE_URL") or None,
        api_key=env.get("FIELDWISE_API_KEY") or None,
        timeout=_number(env, "FIELDWISE_TIMEOUT", 30.0, minimum=0.1),
        step_summary=Path(env["GITHUB_STEP_SUMMARY"]) if env.get("GITHUB_STEP_SUMMARY") else None,
    )
    return replace(settings, **{k: v for k, v in overrides.items() if v is not None})


def dask_scheduler(flag: str | None, env: Mapping[str, str] | None = None) -> str | None:
    """The Dask scheduler address: ``--scheduler``, else ``FIELDWISE_DASK_SCHEDULER``, else
    None (a local cluster)."""
    env = os.environ if env is None else env
    return flag or env.get("FIELDWISE_DASK_SCHEDULER") or None
