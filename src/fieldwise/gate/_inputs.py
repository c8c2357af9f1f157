"""What the gate reads of a comparison: counts and tests, never cells.

:class:`GateInput` holds exactly the figures :func:`~fieldwise.gate.decide` checks: per
version and field the correct and expected counts with the weight, the critical and declared
fields, which versions produced a value, each candidate's flips and McNemar tests, all-null
columns and row tests. :meth:`GateInput.of` reads them off any :class:`Figures` (a
:class:`~fieldwise.compare.ComparisonResult`), whether its figures were reduced from merged
statistics alone (what ``gate`` decides on) or come with its cells: the same counts give the
same verdict whichever computed them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import pandas as pd

__all__ = ["Figures", "GateInput"]

_HAS_VALUE = ["correct", "wrong", "spurious"]
_FIELD_COLUMNS = ["version", "field", "correct", "support", "weight", "critical"]


class Figures(Protocol):
    """The frames of a comparison the gate reads (see the module docstring)."""

    @property
    def baseline(self) -> str: ...
    @property
    def candidates(self) -> tuple[str, ...]: ...
    @property
    def fields(self) -> pd.DataFrame: ...
    @property
    def overall(self) -> pd.DataFrame: ...
    @property
    def significance(self) -> pd.DataFrame: ...
    @property
    def empty_columns(self) -> pd.DataFrame: ...
    @property
    def row_tests(self) -> pd.DataFrame: ...
    @property
    def declared_fields(self) -> frozenset[str]: ...


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
    def of(cls, result: Figures) -> GateInput:
        """The gate's figures of a comparison. A document counts once however many versions
        have it; a version produced a value when any of its cells has one."""
        fields = result.fields
        valued: frozenset[str] = frozenset()
        scored = False
        if not fields.empty:
            fields = fields.assign(version=fields["version"].astype(str))
            with_value = fields.loc[fields[_HAS_VALUE].sum(axis=1).to_numpy() > 0, "version"]
            valued = frozenset(with_value)
            scored = int(fields["n_cells"].sum()) > 0
            fields = fields.loc[:, _FIELD_COLUMNS]
        overall = result.overall
        return cls(
            baseline=result.baseline,
            candidates=tuple(result.candidates),
            fields=fields,
            significance=result.significance,
            empty_columns=result.empty_columns,
            row_tests=result.row_tests,
            valued_versions=valued,
            declared_fields=frozenset(result.declared_fields),
            documents=int(overall["documents"].max()) if not overall.empty else 0,
            scored=scored,
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
