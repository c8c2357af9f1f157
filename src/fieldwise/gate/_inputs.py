"""What the gate reads of a comparison: counts and tests, never cells.

:class:`GateInput` holds exactly the figures :func:`~fieldwise.gate.decide` checks: per
version and field the correct and expected counts with the weight, the critical and declared
fields, which versions produced a value, each candidate's flips and McNemar tests, all-null
columns and row tests. It is built from a whole :class:`~fieldwise.compare.ComparisonResult`
(:meth:`GateInput.of_result`) or from statistics reduced shard by shard
(:meth:`GateInput.of_reduced`, see :mod:`fieldwise.scale`), and both go through the one
``decide``: the same counts give the same verdict, whichever way they were computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from fieldwise.compare import ComparisonResult, FieldSpec
from fieldwise.compare._outcomes import cell_specs
from fieldwise.compare._reduce import ReducedResult
from fieldwise.compare._result import _declared as declared_fields

__all__ = ["GateInput"]

_HAS_VALUE = ("correct", "wrong", "spurious")
_FIELD_COLUMNS = ["version", "field", "correct", "support", "weight", "critical"]


@dataclass(frozen=True)
class GateInput:
    """The figures the gate decides on (see the module docstring). ``fields`` has one row per
    (version, field): ``correct``, ``support`` (expected values), ``weight``, ``critical``;
    ``significance``, ``empty_columns`` and ``row_tests`` carry a ``candidate`` column.
    ``documents`` is how many documents the comparison holds."""

    baseline: str
    candidates: tuple[str, ...]
    fields: pd.DataFrame
    significance: pd.DataFrame
    empty_columns: pd.DataFrame
    row_tests: pd.DataFrame
    valued_versions: frozenset[str]
    declared_fields: frozenset[str]
    documents: int
    scored: bool

    @classmethod
    def of_result(cls, result: ComparisonResult) -> GateInput:
        """The gate's figures of a whole comparison."""
        cells = result.cells
        valued = cells.loc[cells["outcome"].isin(_HAS_VALUE), "version"].astype(str).unique()
        fields = result.fields.assign(version=result.fields["version"].astype(str))
        return cls(
            baseline=result.baseline,
            candidates=tuple(result.candidates),
            fields=fields.loc[:, _FIELD_COLUMNS] if not fields.empty else fields,
            significance=result.significance,
            empty_columns=result.empty_columns,
            row_tests=result.row_tests,
            valued_versions=frozenset(str(v) for v in valued),
            declared_fields=frozenset(result.declared_fields),
            documents=int(cells["item"].nunique()),
            scored=not cells.empty and not result.fields.empty,
        )

    @classmethod
    def of_reduced(cls, result: ReducedResult, specs: Mapping[str, FieldSpec]) -> GateInput:
        """The gate's figures of merged statistics; ``specs`` says which fields are critical
        and declared (as the whole comparison does). A document counts once however many
        versions have it."""
        fields = result.fields
        names = sorted({str(f) for f in fields["field"]}) if not fields.empty else []
        resolved = cell_specs(names, specs)
        if not fields.empty:
            fields = fields.assign(
                version=fields["version"].astype(str),
                critical=[resolved[str(f)].critical for f in fields["field"]],
            ).loc[:, _FIELD_COLUMNS]
        valued = set()
        for row in result.fields.to_dict("records") if not result.fields.empty else []:
            if sum(int(row[o]) for o in _HAS_VALUE):
                valued.add(str(row["version"]))
        overall = result.overall
        documents = int(overall["documents"].max()) if not overall.empty else 0
        return cls(
            baseline=result.baseline,
            candidates=tuple(result.candidates),
            fields=fields,
            significance=result.significance,
            empty_columns=result.empty_columns,
            row_tests=result.row_tests,
            valued_versions=frozenset(valued),
            declared_fields=declared_fields(resolved, names),
            documents=documents,
            scored=not fields.empty and int(result.fields["n_cells"].sum()) > 0,
        )

    def for_candidate(self, candidate: str) -> GateInput:
        """Only the baseline and ``candidate``: their field rows and the candidate's tests
        (p-values keep the Holm adjustment made across every candidate)."""
        pair = {self.baseline, candidate}

        def mine(frame: pd.DataFrame) -> pd.DataFrame:
            if "candidate" not in frame:
                return frame
            return frame.loc[(frame["candidate"] == candidate).to_numpy()].reset_index(drop=True)

        fields = self.fields
        if not fields.empty:
            fields = fields.loc[fields["version"].isin(pair).to_numpy()].reset_index(drop=True)
        return GateInput(
            baseline=self.baseline,
            candidates=(candidate,),
            fields=fields,
            significance=mine(self.significance),
            empty_columns=mine(self.empty_columns),
            row_tests=mine(self.row_tests),
            valued_versions=self.valued_versions & pair,
            declared_fields=self.declared_fields,
            documents=self.documents,
            scored=self.scored and not fields.empty,
        )
