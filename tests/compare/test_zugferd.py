"""Real values from the zugferd-dev ground truth, predicted as the German pages print them.

The first five documents' amounts become German strings ("1.021,91", "-8,79") and dates
"05.03.2018"; every such cell must be correct. Then one grand_total is shifted by one cent
beyond the currency tolerance and must be the only wrong cell.

The amounts are the ground truth's numbers (the EN 16931 monetary summation the set was read
from): the test takes them from the data rather than naming the e-invoice reader's terms again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from fieldwise.compare import build_frame, compare, parse_field_specs
from tests.shared_data import shared_dataset


def german(amount: float) -> str:
    return f"{amount:,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def is_amount(value: Any) -> bool:
    """The ground truth holds amounts of money as JSON numbers, and nothing else."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def amounts(truths: Iterable[Mapping[str, Any]]) -> list[str]:
    return sorted({k for t in truths for k, v in t.items() if is_amount(v)})


def printed(truth: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in truth.items():
        if is_amount(value):
            out[key] = german(value)
        elif key.endswith("_date"):
            y, m, d = value.split("-")
            out[key] = f"{d}.{m}.{y}"
        else:
            out[key] = value
    return out


def test_german_numbers_and_dates_are_correct() -> None:
    ground_truth = shared_dataset("zugferd-dev") / "ground_truth.jsonl"
    lines = [json.loads(line) for line in ground_truth.read_text().splitlines()[:5]]
    truth = {row["file"]: row["ground_truth"] for row in lines}
    money = amounts(truth.values())
    assert {"grand_total", "tax_total"} <= set(money)
    preds = {file: {"value": printed(gt), "metadata": {}} for file, gt in truth.items()}
    wrong = dict(preds)
    first = sorted(truth)[0]
    shifted = dict(printed(truth[first]))
    shifted["grand_total"] = german(truth[first]["grand_total"] + 0.01)
    wrong[first] = {"value": shifted, "metadata": {}}
    specs = parse_field_specs(
        {
            **{k: {"type": "currency"} for k in money},
            "issue_date": {"type": "date"},
            "payment_due_date": {"type": "date"},
            "seller_name": {"type": "text"},
        },
        date_order="DMY",
    )
    assert german(1021.91) == "1.021,91"
    assert german(-8.79) == "-8,79"
    result = compare(
        build_frame(truth, {"printed": preds, "shifted": wrong}),
        specs,
        baseline="printed",
        candidate="shifted",
        n_bootstrap=50,
    )
    cells = result.cells
    printed_cells = cells.loc[cells["version"] == "printed"]
    assert set(printed_cells["outcome"].astype(str)) == {"correct"}
    bad = cells.loc[cells["outcome"] != "correct"]
    assert bad[["item", "field", "version"]].values.tolist() == [[first, "grand_total", "shifted"]]
