"""All-null columns: a field the candidate leaves empty on every document where the baseline
had a value. Missed values already count against it, but when the baseline got few of them
right the flips are too few to be significant, and a whole column silently lost must not pass."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

__all__ = ["EMPTY_COLUMN_COLUMNS", "empty_columns"]

EMPTY_COLUMN_COLUMNS = ("candidate", "field", "baseline_documents", "expected_documents")

_HAS_VALUE = ("correct", "wrong", "spurious")


def empty_columns(cells: pd.DataFrame, baseline: str, candidates: Sequence[str]) -> pd.DataFrame:
    """Per candidate, the fields it predicts nothing for on any document where ``baseline``
    predicted something (at least one such document). ``baseline_documents`` counts those
    documents, ``expected_documents`` the documents with an expected value for the field."""
    units = pd.DataFrame(
        {
            "version": cells["version"].astype(str),
            "field": cells["field"].astype(str),
            "item": cells["item"].astype(str),
            "value": cells["outcome"].isin(_HAS_VALUE).to_numpy(),
            "expected": cells["outcome"].isin(("correct", "wrong", "missed")).to_numpy(),
        }
    )
    per_doc = units.groupby(["version", "field", "item"], sort=True)[["value", "expected"]].any()
    rows = []
    if baseline not in per_doc.index.get_level_values("version"):
        return pd.DataFrame(columns=list(EMPTY_COLUMN_COLUMNS))
    base = per_doc.xs(baseline, level="version")
    for candidate in candidates:
        if candidate not in per_doc.index.get_level_values("version"):
            continue
        cand = per_doc.xs(candidate, level="version")
        for field, group in base.groupby(level="field", sort=True):
            had = group.loc[group["value"]].index
            if not len(had):
                continue
            got = cand.reindex(had)["value"].fillna(False).astype(bool)
            if not got.any():
                rows.append(
                    {
                        "candidate": candidate,
                        "field": str(field),
                        "baseline_documents": len(had),
                        "expected_documents": int(group["expected"].sum()),
                    }
                )
    return pd.DataFrame(rows, columns=list(EMPTY_COLUMN_COLUMNS))
