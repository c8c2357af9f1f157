"""Write reports to disk, and the default folder name for them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import jinja2

from fieldwise._errors import ReportError
from fieldwise.report._env import make_environment
from fieldwise.report._html import render_html
from fieldwise.report._model import ReportData
from fieldwise.report._subset import items_frame
from fieldwise.report._text import render_json, render_junit, render_markdown

__all__ = ["FORMATS", "ITEMS_FILE", "append_summary", "default_report_dir", "write_report"]

#: Format name -> file written in the output folder.
FORMATS = {"html": "report.html", "md": "summary.md", "junit": "junit.xml", "json": "report.json"}
#: every (document, field) unit, written beside the HTML report
ITEMS_FILE = "items.parquet"


def _slug(text: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")
    return slug or "unnamed"


def default_report_dir(data: ReportData, root: Path | str = "reports") -> Path:
    """``<root>/<dataset>/<timestamp>-<baseline>-vs-<candidate>/`` (timestamp from
    ``generated_at``, e.g. ``20260301T120000Z``); names are made filesystem-safe."""
    stamp = re.sub(r"[^0-9TZ]", "", data.generated_at.replace("+00:00", "Z")) or "undated"
    name = f"{stamp}-{_slug(data.baseline_id)}"
    if data.candidate_id is not None:
        name += f"-vs-{_slug(data.candidate_id)}"
    return Path(root) / _slug(data.dataset) / name


def write_report(
    data: ReportData,
    out_dir: Path | str,
    formats: Iterable[str] = tuple(FORMATS),
    env: jinja2.Environment | None = None,
    documents_root: Path | str | None = None,
    document: Mapping[str, Any] | None = None,
    wall_seconds: float | None = None,
) -> dict[str, Path]:
    """Render ``data`` in each of ``formats`` (html, md, junit, json) into ``out_dir`` (created)
    and return format -> file path; with html, every item unit also goes to ``items.parquet``
    (``documents_root``: where the document names point, for links relative to ``out_dir``
    and embedded thumbnails). The JSON carries ``document`` (the comparison document of
    docs/json.md) when given; JUnit's ``time`` is ``wall_seconds`` (default: the wall time
    of this process so far, i.e. the command's).
    Raises :class:`ReportError` for an unknown format or a folder that cannot be written."""
    wanted = list(dict.fromkeys(formats))
    unknown = [f for f in wanted if f not in FORMATS]
    if unknown:
        raise ReportError(f"unknown report format {unknown[0]!r} (one of {', '.join(FORMATS)})")
    env = env if env is not None else make_environment()
    folder = Path(out_dir)
    renderers = {
        "html": lambda: render_html(data, env, documents_root, folder),
        "md": lambda: render_markdown(data, env),
        "junit": lambda: render_junit(data, wall_seconds),
        "json": lambda: render_json(data, document),
    }
    written: dict[str, Path] = {}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for fmt in wanted:
            path = folder / FORMATS[fmt]
            path.write_text(renderers[fmt](), encoding="utf-8")
            written[fmt] = path
        if "html" in written:
            # the HTML keeps the top disagreements; every unit is in the Parquet beside it
            frame = items_frame(data.items, data.baseline, data.candidate)
            frame.to_parquet(folder / ITEMS_FILE, index=False)
    except OSError as exc:
        raise ReportError(f"cannot write the report to {folder}: {exc}") from exc
    return written


def append_summary(
    data: ReportData, path: Path | str, env: jinja2.Environment | None = None
) -> None:
    """Append the Markdown summary to ``path`` (GitHub's job summary file, which several steps
    share, so it is appended to, never overwritten). Raises :class:`ReportError` when it cannot
    be written."""
    text = render_markdown(data, env if env is not None else make_environment())
    try:
        with Path(path).open("a", encoding="utf-8") as handle:
            handle.write(text.rstrip("\n") + "\n\n")
    except OSError as exc:
        raise ReportError(f"cannot append the summary to {path}: {exc.strerror}") from exc
