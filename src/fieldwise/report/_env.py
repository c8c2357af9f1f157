"""The one Jinja Environment of the report package: built by the caller, passed down."""

from __future__ import annotations

import jinja2

__all__ = ["make_environment", "md", "mde", "pct", "pp", "pvalue"]


def pct(value: float | None, digits: int = 1) -> str:
    """0.9123 -> "91.2%"; None -> "—"."""
    return "—" if value is None else f"{value * 100:.{digits}f}%"


def pp(value: float | None, digits: int = 1) -> str:
    """A difference of proportions in percentage points: 0.021 -> "+2.1 pp"."""
    if value is None:
        return "—"
    text = f"{value * 100:+.{digits}f}"
    # -0.0 and +0.0 both read as no change
    return f"{'±' + text[1:] if float(text) == 0 else text} pp"


def mde(value: float | None, digits: int = 1) -> str:
    """A minimum detectable effect in percentage points: 0.128 -> "±12.8 pp"; None -> "—"."""
    return "—" if value is None else f"±{value * 100:.{digits}f} pp"


def pvalue(value: float | None) -> str:
    """A p-value with three decimals ("<0.001" below that)."""
    if value is None:
        return "—"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def md(value: object) -> str:
    """Text safe in a Markdown table cell: one line, pipes escaped."""
    return " ".join(str(value).split()).replace("|", "\\|")


def make_environment() -> jinja2.Environment:
    """The Environment for every report template (HTML autoescaped, undefined names fail).

    Build it once per process (e.g. in the CLI command) and pass it to the renderers.
    """
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("fieldwise.report", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html",), default=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(md=md, mde=mde, pct=pct, pp=pp, pvalue=pvalue)
    return env
