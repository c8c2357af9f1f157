"""The one Jinja Environment of the report package: built by the caller, passed down."""

from __future__ import annotations

import jinja2

from fieldwise.compare import format_p
from fieldwise.gate import RuleResult

__all__ = ["figure", "make_environment", "md", "mde", "pct", "pp", "pvalue", "rule_figures"]

#: rules whose observed figure and threshold are p-values (the threshold is alpha)
_P_RULES = frozenset({"significant_regression"})


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
    """A p-value as the README promises: three decimals, "<0.001" below that; "—" when none.
    The digits come from compare's :func:`format_p`, so every output prints p alike."""
    return "—" if value is None else format_p(value)


def figure(value: float) -> str:
    """A plain figure without exponent: whole numbers as such, others with up to four
    decimals (16.0 -> "16", 0.87654 -> "0.8765", 3.8e-06 -> "0")."""
    if float(value).is_integer():
        return f"{value:.0f}"
    return f"{value:.4f}".rstrip("0").rstrip(".")


def rule_figures(rule: RuleResult) -> tuple[str, str]:
    """A gate rule's observed figure and threshold as printed in every output: p-values (and
    alpha beside them) by :func:`pvalue`, every other figure by :func:`figure`."""
    fmt = pvalue if rule.rule in _P_RULES else figure
    return fmt(rule.observed), fmt(rule.threshold)


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
    env.globals.update(rule_figures=rule_figures)
    return env
