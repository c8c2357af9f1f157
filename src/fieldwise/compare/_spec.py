"""Field specs: how each field of a dataset is compared, from ``[fields.*]`` of dataset.toml."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fieldwise._errors import ConfigError

__all__ = [
    "BOOL_OPTIONS",
    "DATE_ORDERS",
    "FIELD_KEYS",
    "FIELD_TYPES",
    "NUMBER_OPTIONS",
    "FieldSpec",
    "declared_fields",
    "default_spec",
    "parse_field_specs",
    "specs_from_recorded",
]

#: The one list of field types and field option keys: dataset.toml's checks read them here.
FIELD_TYPES = ("string", "number", "currency", "date", "enum", "boolean", "text", "array")
DATE_ORDERS = ("DMY", "MDY", "YMD")

BOOL_OPTIONS = (
    "critical",
    "case_sensitive",
    "normalize_whitespace",
    "ignore_punctuation",
    "ignore_spaces",
    "fold_lines",
    "currency_required",
)
NUMBER_OPTIONS = ("weight", "atol", "rtol", "threshold")
FIELD_KEYS = ("type", *BOOL_OPTIONS, *NUMBER_OPTIONS, "values", "date_order", "columns")
_KNOWN_KEYS = frozenset(FIELD_KEYS)


@dataclass(frozen=True)
class FieldSpec:
    """How one field (or one column of an array field) is compared.

    ``ignore_spaces`` drops every space before comparing (IBANs, VAT ids, invoice numbers);
    ``fold_lines`` reads a multi-line value (an address) as one line (see
    :func:`~fieldwise.compare.score._normalize.normalize_text`). ``columns`` is only set for
    ``type="array"``: one spec per column of the row objects, named by the column
    (``description``), not by the dotted cell path.
    """

    name: str
    type: str = "string"
    critical: bool = False
    weight: float = 1.0
    case_sensitive: bool = False
    normalize_whitespace: bool = True
    ignore_punctuation: bool = False
    ignore_spaces: bool = False
    fold_lines: bool = False
    atol: float = 0.0
    rtol: float = 0.0
    threshold: float = 0.9
    values: tuple[str, ...] = ()
    date_order: str = "YMD"
    currency_required: bool = False
    columns: tuple[FieldSpec, ...] = ()
    #: False for the folded-string spec of a field dataset.toml does not describe (a version
    #: may output fields nobody declared: they are not evaluated).
    declared: bool = True

    def column(self, name: str) -> FieldSpec:
        """The spec of one array column; unknown columns compare as plain strings."""
        for col in self.columns:
            if col.name == name:
                return col
        return default_spec(name, date_order=self.date_order)


def default_spec(name: str, *, date_order: str = "YMD") -> FieldSpec:
    """The spec used for a field that dataset.toml does not describe: a folded string."""
    return FieldSpec(name=name, date_order=date_order, declared=False)


def parse_field_specs(
    mapping: Mapping[str, Mapping[str, Any]],
    *,
    date_order: str = "YMD",
    source: str = "dataset.toml",
) -> dict[str, FieldSpec]:
    """Read the ``[fields.*]`` tables of dataset.toml into specs, keyed by field name.

    ``date_order`` is the dataset-level default (``[dataset].date_order``). Raises
    :class:`~fieldwise._errors.ConfigError` naming ``source``, the field and the key on an unknown
    key, a value of the wrong type, a threshold outside [0, 1] or an unknown type.
    """
    if date_order not in DATE_ORDERS:
        raise ConfigError(f"{source}: [dataset].date_order must be one of {DATE_ORDERS}")
    if not isinstance(mapping, Mapping):
        raise ConfigError(f"{source}: [fields] must be a table")
    return {
        str(name): _parse_one(str(name), table, date_order, source, f"fields.{name}")
        for name, table in sorted(mapping.items())
    }


def _parse_one(name: str, table: Any, date_order: str, source: str, where: str) -> FieldSpec:
    if not isinstance(table, Mapping):
        raise ConfigError(f"{source}: [{where}] must be a table")
    unknown = sorted(set(table) - _KNOWN_KEYS)
    if unknown:
        raise ConfigError(f"{source}: [{where}] unknown key {unknown[0]!r}")
    if "type" not in table:
        raise ConfigError(f"{source}: [{where}] missing key 'type'")
    ftype = table["type"]
    if ftype not in FIELD_TYPES:
        raise ConfigError(
            f"{source}: [{where}] key 'type': unknown type {ftype!r} (one of {FIELD_TYPES})"
        )
    kwargs: dict[str, Any] = {"name": name, "type": ftype}
    for key in BOOL_OPTIONS:
        if key in table:
            if not isinstance(table[key], bool):
                raise ConfigError(f"{source}: [{where}] key {key!r} must be true or false")
            kwargs[key] = table[key]
    for key in NUMBER_OPTIONS:
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(f"{source}: [{where}] key {key!r} must be a number")
            if value < 0:
                raise ConfigError(f"{source}: [{where}] key {key!r} must not be negative")
            kwargs[key] = float(value)
    if not 0.0 <= kwargs.get("threshold", 0.9) <= 1.0:
        raise ConfigError(f"{source}: [{where}] key 'threshold' must be in [0, 1]")
    if ftype == "currency" and "atol" not in kwargs:
        kwargs["atol"] = 0.005
    if "values" in table:
        values = table["values"]
        if not isinstance(values, list | tuple) or not all(isinstance(v, str) for v in values):
            raise ConfigError(f"{source}: [{where}] key 'values' must be a list of strings")
        kwargs["values"] = tuple(values)
    order = table.get("date_order", date_order)
    if order not in DATE_ORDERS:
        raise ConfigError(f"{source}: [{where}] key 'date_order' must be one of {DATE_ORDERS}")
    kwargs["date_order"] = order
    if "columns" in table:
        if ftype != "array":
            raise ConfigError(f"{source}: [{where}] key 'columns' is only for type 'array'")
        columns = table["columns"]
        if not isinstance(columns, Mapping):
            raise ConfigError(f"{source}: [{where}] key 'columns' must be a table")
        parsed = []
        for col, col_table in sorted(columns.items()):
            spec = _parse_one(str(col), col_table, order, source, f"{where}.columns.{col}")
            if spec.type == "array":
                raise ConfigError(f"{source}: [{where}.columns.{col}] arrays cannot nest")
            parsed.append(spec)
        kwargs["columns"] = tuple(parsed)
    return FieldSpec(**kwargs)


def specs_from_recorded(compare_spec: Mapping[str, Any] | None) -> dict[str, FieldSpec]:
    """Specs from the ``compare_spec`` (``{"date_order", "fields"}``) that ``fieldwise sync``
    records in an evaluation set's metadata; none recorded: every field compares as a folded
    string. Raises :class:`ConfigError` when it is malformed."""
    if not compare_spec:
        return {}
    return parse_field_specs(
        compare_spec.get("fields") or {},
        date_order=str(compare_spec.get("date_order") or "YMD"),
        source="evaluation set compare_spec",
    )


def declared_fields(specs: Mapping[str, FieldSpec], fields: Sequence[str]) -> frozenset[str]:
    """The cell fields the specs describe (a list column counts when its list declares it)."""
    out = set()
    for name in fields:
        parent, sep, column = name.partition("[].")
        if (name in specs and specs[name].declared) or (
            sep and parent in specs and any(c.name == column for c in specs[parent].columns)
        ):
            out.add(name)
    return frozenset(out)
