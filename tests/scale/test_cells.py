"""The cell store: typed values survive the round trip, the header carries provenance, and
any number of shards (or parts written in chunks) gives the same figures."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from fieldwise._errors import CompareError
from fieldwise.scale import read_header, score_store, write_cells, write_header, write_parts
from fieldwise.scale._cells import read_shard
from tests.scale._data import SPECS, figures_of, generated_frame


def test_values_keep_their_types(tmp_path: Path) -> None:
    values = ["text", 12.5, 7, True, None, {"a": [1, 2]}, [1, "x"], float("nan"), 2**60]
    frame = pd.DataFrame(
        {
            "item": [f"d{i}" for i in range(len(values))],
            "field": "f",
            "version": "v1",
            "expected": pd.Series(values, dtype=object),
            "predicted": pd.Series(list(reversed(values)), dtype=object),
            "confidence": 0.5,
        }
    )
    write_cells(frame, str(tmp_path / "store"), shards=1)
    back = read_shard(str(tmp_path / "store"), 0, ["v1"]).set_index("item").loc[frame["item"]]
    got = back["expected"].tolist()
    assert got[:7] == values[:7]
    assert [type(v) for v in got[:4]] == [str, float, int, bool]
    assert got[7] is None  # NaN is no value
    assert got[8] == 2**60  # integers stay exact
    assert back["predicted"].tolist()[0] == 2**60


def test_header_provenance_and_a_missing_store(tmp_path: Path) -> None:
    root = str(tmp_path / "store")
    with pytest.raises(CompareError, match="no cell store"):
        read_header(root)
    header = write_cells(generated_frame(50), root, shards=3, provenance={"spec_hash": "abc"})
    assert read_header(root) == header
    assert header["provenance"] == {"spec_hash": "abc"}
    assert header["documents"] == 50
    assert header["cells"] == {"v1": 150, "v2": 150}
    (tmp_path / "store" / "header.json").write_text(json.dumps({"format": "other/9"}))
    with pytest.raises(CompareError, match="cell store format 'other/9'"):
        read_header(root)


def test_shards_and_chunked_parts_give_identical_figures(tmp_path: Path) -> None:
    frame = generated_frame(900, seed=2)
    found = []
    for shards in (1, 4, 13):
        root = str(tmp_path / f"s{shards}")
        write_cells(frame, root, shards=shards)
        result = score_store(root, SPECS, baseline="v1", candidates=["v2"], n_resamples=200)
        assert result.partitions == shards
        found.append(figures_of(result))
    # the same documents written in three chunks, as a generator of a huge set would
    root = str(tmp_path / "chunked")
    items = sorted(frame["item"].unique())
    counts: dict[str, int] = {}
    for part, chunk in enumerate((items[:100], items[100:500], items[500:])):
        written = write_parts(frame.loc[frame["item"].isin(chunk)], root, shards=5, part=part)
        counts = {v: counts.get(v, 0) + n for v, n in written.items()}
    write_header(root, shards=5, versions=["v1", "v2"], documents=900, cells=counts)
    chunked = score_store(root, SPECS, baseline="v1", candidates=["v2"], n_resamples=200)
    assert found[0] == found[1] == found[2] == figures_of(chunked)


def test_rewriting_a_store_leaves_no_stale_shards(tmp_path: Path) -> None:
    root = str(tmp_path / "store")
    write_cells(generated_frame(200), root, shards=8)
    write_cells(generated_frame(200), root, shards=2)
    assert sorted(p.name for p in (tmp_path / "store" / "version=v1").iterdir()) == [
        "shard=0000",
        "shard=0001",
    ]
