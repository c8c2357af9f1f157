"""``--mlflow`` is refused, before any work, where one run could not stand for what was
compared: several run sets side by side, or a split of one."""

from __future__ import annotations

import pytest

from tests.cli_main import run_main


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("rs_a", "rs_b"), "merge them first"),
        (("rs_a", "--split", "test"), "drop --split"),
    ],
)
def test_compare_refuses_what_one_run_cannot_hold(args: tuple[str, ...], message: str) -> None:
    # the refusal comes first: these run sets do not exist and are never looked for
    result = run_main("compare", *args, "--mlflow=http://127.0.0.1:9")
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""
