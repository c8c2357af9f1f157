"""The release policy: read from ``gate.toml`` or the ``[gate]`` table of ``dataset.toml``.

```toml
[gate]
min_accuracy = 0.90            # overall field accuracy (correct / expected, weighted by field)
min_field_accuracy = 0.80      # or a table: {default = 0.80, total = 0.98}
max_regression = 0.02          # absolute field-accuracy drop per field; or a table like above
margin = 0.01                  # non-inferiority margin per field; or {default = .., total = 0.005}
overall_margin = 0.02          # overall non-inferiority margin (default 0.02)
critical = ["total"]           # may not regress at all (also fields with critical = true)
alpha = 0.05                   # a significant regression (Holm-adjusted McNemar) fails
min_support = 20               # expected values needed per field
min_documents = 50
max_failed_run_share = 0.0     # failed, canceled or missing runs / runs (default 0: none)
max_row_recall_drop = 0.0      # list fields: allowed row-recall drop; or a table per list
```

Every rule works on exact fractions: see :mod:`fieldwise.gate._decide`.

A table (or file) sets the keys it names; every other key keeps the value of
:func:`default_policy`, which passes only on evidence (``overall_margin = 0.02``,
``min_documents = 10``). ``Policy(...)`` built in code sets only what it is given.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from fieldwise._errors import ConfigError
from fieldwise._nesting import TooDeep, loads_toml

__all__ = ["Policy", "default_policy", "load_policy", "policy_from_mapping"]

_SCALAR_KEYS = frozenset(
    {
        "min_accuracy",
        "alpha",
        "min_support",
        "min_documents",
        "max_failed_run_share",
        "overall_margin",
    }
)
#: The default policy's overall non-inferiority margin: the candidate passes only when the
#: paired interval of its overall accuracy change lies above -2 pp.
DEFAULT_OVERALL_MARGIN = 0.02
#: The default policy's fewest documents: under 10 no interval here means much (a bootstrap
#: over 6 documents has 462 distinct resamples; Wilson and Newcombe bounds span tens of pp).
DEFAULT_MIN_DOCUMENTS = 10
_PER_FIELD_KEYS = frozenset(
    {"min_field_accuracy", "max_regression", "margin", "max_row_recall_drop"}
)
_PER_FIELD_TARGETS = {
    "min_field_accuracy": "field_min_accuracy",
    "max_regression": "field_max_regression",
    "margin": "field_margin",
    "max_row_recall_drop": "field_max_row_recall_drop",
}
_KNOWN_KEYS = _SCALAR_KEYS | _PER_FIELD_KEYS | {"critical"}


def _empty() -> Mapping[str, float]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Policy:
    """What a candidate must satisfy to be published. ``None`` switches a rule off.

    Per-field thresholds: ``field_min_accuracy`` / ``field_max_regression`` /
    ``field_margin`` / ``field_max_row_recall_drop`` override the defaults
    ``min_field_accuracy`` / ``max_regression`` / ``margin`` / ``max_row_recall_drop`` for the
    fields they name. ``max_failed_run_share`` is 0 unless the policy says otherwise: a failed,
    canceled or missing run fails the gate. ``overall_margin`` asks for evidence: the lower
    bound of the paired interval of the overall accuracy change must reach -overall_margin
    (else the verdict is inconclusive, or fails when the whole interval lies below).

    ``Policy()`` has only the rules that always hold; :func:`default_policy` is the policy
    used when none is given, and the base every policy file or table is read onto.
    """

    min_accuracy: float | None = None
    min_field_accuracy: float | None = None
    field_min_accuracy: Mapping[str, float] = field(default_factory=_empty)
    max_regression: float | None = None
    field_max_regression: Mapping[str, float] = field(default_factory=_empty)
    critical: tuple[str, ...] = ()
    alpha: float = 0.05
    min_support: int = 0
    min_documents: int = 1
    max_failed_run_share: float | None = 0.0
    margin: float | None = None
    field_margin: Mapping[str, float] = field(default_factory=_empty)
    max_row_recall_drop: float | None = None
    field_max_row_recall_drop: Mapping[str, float] = field(default_factory=_empty)
    overall_margin: float | None = None
    source: str = "<default policy>"

    def min_accuracy_for(self, name: str) -> float | None:
        """The minimum accuracy field ``name`` must reach, if any (a line-item column
        ``items[].amount`` falls back to the array's ``items`` entry)."""
        return _lookup(self.field_min_accuracy, name, self.min_field_accuracy)

    def max_regression_for(self, name: str) -> float | None:
        """The largest accuracy drop field ``name`` may show, if any."""
        return _lookup(self.field_max_regression, name, self.max_regression)

    def margin_for(self, name: str) -> float | None:
        """The non-inferiority margin of field ``name``, if any."""
        return _lookup(self.field_margin, name, self.margin)

    def max_row_recall_drop_for(self, name: str) -> float | None:
        """The row-recall drop list field ``name`` may show, if the policy sets one."""
        return _lookup(self.field_max_row_recall_drop, name, self.max_row_recall_drop)

    def digest(self) -> str:
        """A SHA-256 of every setting (not of where it was read from): two policies with the
        same digest decide the same way. ``overall_margin`` is left out while unset, so the
        digests of policies recorded before it existed still match."""
        settings = {
            f.name: dict(value) if isinstance(value := getattr(self, f.name), Mapping) else value
            for f in fields(self)
            if f.name != "source"
            and not (f.name == "overall_margin" and self.overall_margin is None)
        }
        canonical = json.dumps(settings, sort_keys=True)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def is_critical(self, name: str) -> bool:
        """Whether the policy lists ``name`` (or its array) as critical."""
        return name in self.critical or _parent(name) in self.critical

    def named_fields(self) -> frozenset[str]:
        """Every field the policy names explicitly (they must exist in the comparison)."""
        return frozenset(
            {
                *self.field_min_accuracy,
                *self.field_max_regression,
                *self.field_margin,
                *self.field_max_row_recall_drop,
                *self.critical,
            }
        )


def _parent(name: str) -> str:
    return name.partition("[].")[0]


def _lookup(table: Mapping[str, float], name: str, default: float | None) -> float | None:
    if name in table:
        return table[name]
    return table.get(_parent(name), default)


def default_policy(source: str = "default policy") -> Policy:
    """The policy used when none is given: a pass needs evidence. The candidate must be shown
    non-inferior overall (the lower bound of the paired interval of the overall accuracy
    change at 1 - alpha at least -2 pp) with at least 10 documents, and no field may be
    significantly worse (Holm-adjusted McNemar at alpha 0.05); too little evidence is
    inconclusive, and the verdict says how many documents would decide it."""
    return Policy(
        min_documents=DEFAULT_MIN_DOCUMENTS,
        overall_margin=DEFAULT_OVERALL_MARGIN,
        source=source,
    )


def load_policy(path: Path | str, *, field_specs: Mapping[str, Any] | None = None) -> Policy:
    """Read a policy file onto :func:`default_policy` (keys the file does not set keep their
    defaults).

    ``dataset.toml`` (any file with a ``[dataset]`` table) contributes its ``[gate]`` table and
    the fields marked ``critical = true``; any other file is a ``gate.toml`` whose keys sit at
    the top level or under ``[gate]``. ``field_specs`` (the parsed ``[fields]`` of the dataset)
    adds more critical fields. Raises :class:`ConfigError` naming the file and the key, and
    :class:`TypeError` when ``path`` is ``None`` (for the default, call :func:`default_policy`:
    a missing path is never silently read as "no policy").
    """
    if not isinstance(path, str | Path):
        raise TypeError(
            f"load_policy() needs the path of a policy file, not {path!r}; "
            "for the default policy call fieldwise.default_policy()"
        )
    path = Path(path)
    try:
        data = loads_toml(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: policy file not found") from exc
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, TooDeep) as exc:
        raise ConfigError(f"{path}: cannot read policy: {exc}") from exc
    critical: set[str] = set()
    if "dataset" in data:
        table = data.get("gate", {})
        fields = data.get("fields", {})
        if isinstance(fields, Mapping):
            critical |= {
                str(k) for k, v in fields.items() if isinstance(v, Mapping) and v.get("critical")
            }
    elif set(data) == {"gate"}:
        table = data["gate"]
    else:
        table = data
    policy = with_critical(policy_from_mapping(table, source=str(path)), critical)
    return with_critical(policy, field_specs or {})


def with_critical(policy: Policy, fields: Iterable[str] | Mapping[str, Any]) -> Policy:
    """``policy`` with ``fields`` counted as critical too: names, or field specs of which
    those marked ``critical`` count. The one place critical fields are merged; returns
    ``policy`` itself when nothing is added."""
    if isinstance(fields, Mapping):
        names = {str(n) for n, spec in fields.items() if getattr(spec, "critical", False)}
    else:
        names = {str(n) for n in fields}
    merged = tuple(sorted({*policy.critical, *names}))
    return policy if merged == policy.critical else replace(policy, critical=merged)


def policy_from_mapping(table: Any, *, source: str = "gate.toml") -> Policy:
    """Build a :class:`Policy` from the parsed TOML table, validating every key and value;
    keys the table does not set keep the value of :func:`default_policy`."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"{source}: [gate] must be a table")
    unknown = sorted(set(map(str, table)) - _KNOWN_KEYS)
    if unknown:
        raise ConfigError(
            f"{source}: [gate] unknown key {unknown[0]!r} (known: {', '.join(sorted(_KNOWN_KEYS))})"
        )
    kwargs: dict[str, Any] = {"source": source}
    for key in ("min_accuracy", "max_failed_run_share", "overall_margin"):
        if key in table:
            kwargs[key] = _share(table[key], source, key)
    if "alpha" in table:
        alpha = _share(table["alpha"], source, "alpha")
        if alpha == 0:
            raise ConfigError(f"{source}: [gate] key 'alpha' must be above 0")
        kwargs["alpha"] = alpha
    for key in ("min_support", "min_documents"):
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"{source}: [gate] key {key!r} must be a whole number >= 0")
            kwargs[key] = value
    for key, per_field in _PER_FIELD_TARGETS.items():
        if key in table:
            default, by_field = _per_field(table[key], source, key)
            kwargs[key] = default
            kwargs[per_field] = MappingProxyType(by_field)
    if "critical" in table:
        names = table["critical"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ConfigError(f"{source}: [gate] key 'critical' must be a list of field names")
        kwargs["critical"] = tuple(sorted(set(names)))
    return replace(default_policy(), **kwargs)


def _share(value: Any, source: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ConfigError(f"{source}: [gate] key {key!r} must be a number in [0, 1]")
    return float(value)


def _per_field(value: Any, source: str, key: str) -> tuple[float | None, dict[str, float]]:
    """A number (the default for every field) or a table ``{default = x, <field> = y}``;
    nested tables are dotted field names (``seller.name = 0.9`` in TOML nests)."""
    if not isinstance(value, Mapping):
        return _share(value, source, key), {}
    flat: dict[str, Any] = {}

    def walk(table: Mapping[str, Any], prefix: str) -> None:
        for k, v in table.items():
            if isinstance(v, Mapping):
                walk(v, f"{prefix}{k}.")
            else:
                flat[f"{prefix}{k}"] = v

    walk(value, "")
    default = flat.pop("default", None)
    out = {name: _share(v, source, f"{key}.{name}") for name, v in sorted(flat.items())}
    return (None if default is None else _share(default, source, f"{key}.default")), out
