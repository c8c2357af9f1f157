"""The benchmarks' shared measuring (``benchmarks/_measure.py``): what every figure rests on."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.benchmarks.modules import load


@pytest.fixture(scope="module")
def measure() -> ModuleType:
    return load("_measure")


def test_cold_run_gives_the_childs_own_peak_not_the_parents(measure: ModuleType) -> None:
    # The parent holds 300 MB the child never touches: ru_maxrss alone would report it.
    ballast = bytearray(300 * 1024 * 1024)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    # it then waits, so the 10 ms sampler sees its peak (the time it grows in is not sampled)
    grow = (
        "import time; b = bytearray(120 * 1024 * 1024); b[::4096] = b'x' * len(b[::4096]); "
        "time.sleep(0.3); print('ok')"
    )
    seconds, peak, out = measure.cold_run([sys.executable, "-c", grow])
    del ballast
    assert out.strip() == "ok"
    assert seconds > 0
    assert 120 <= peak < 300


def test_cold_run_runs_in_cwd_with_extra_env_and_raises_with_stderr(
    measure: ModuleType, tmp_path: Path
) -> None:
    code = "import os, sys; print(os.getcwd(), os.environ['BENCH_X']); sys.exit(0)"
    _seconds, _peak, out = measure.cold_run(
        [sys.executable, "-c", code], env={"BENCH_X": "1"}, cwd=tmp_path
    )
    assert out.split() == [str(tmp_path), "1"]
    failing = "import sys; sys.stderr.write('broken side'); sys.exit(3)"
    with pytest.raises(RuntimeError, match=r"failed \(3\): broken side"):
        measure.cold_run([sys.executable, "-c", failing])


def test_interleaved_takes_turns_and_keeps_the_highest_peak(measure: ModuleType) -> None:
    order: list[str] = []
    peaks = iter([10.0, 30.0, 20.0])

    def a() -> tuple[float, float]:
        order.append("a")
        return 1.0, next(peaks)

    def b() -> float:
        order.append("b")
        return 2.0

    figures = measure.interleaved({"a": a, "b": b}, 3)
    assert order == ["a", "b"] * 3
    assert figures["a"].times == (1.0, 1.0, 1.0)
    assert figures["a"].peak_rss_mb == 30.0
    assert math.isnan(figures["b"].peak_rss_mb)
    assert measure.Figure((3.0, 1.0, 2.0)).min_med_max() == [1.0, 2.0, 3.0]


def test_exponent_is_the_log_log_slope(measure: ModuleType) -> None:
    assert measure.exponent((10, 100), (1.0, 10.0)) == pytest.approx(1.0)
    assert measure.exponent((1, 10, 100), (1.0, 100.0, 10_000.0)) == pytest.approx(2.0)
    # two sizes: exactly log(t2 / t1) / log(n2 / n1)
    assert measure.exponent((5, 500), (2.0, 8.0)) == pytest.approx(math.log(4) / math.log(100))


def test_growth_times_each_size_as_the_median_of_its_repeats(measure: ModuleType) -> None:
    # A clock that work(n) moves by n**2 seconds, except one call of the smallest size that
    # a hiccup makes a thousand times longer: the median of three calls leaves it out.
    clock = [0.0]
    hiccups = [1000.0]

    def work(n: int) -> None:
        clock[0] += n**2 * (hiccups.pop() if n == 4 and hiccups else 1.0)

    def now() -> float:
        return clock[0]

    assert measure.growth(work, [4, 40, 400], repeats=3, clock=now) == pytest.approx(2.0)
    assert hiccups == []  # the hiccup happened, and was outvoted
    # one call per size takes it in, and the slope with it
    hiccups.append(1000.0)
    assert measure.growth(work, [4, 40, 400], repeats=1, clock=now) < 1.0


def test_emit_prints_a_json_row_or_a_human_line(
    measure: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    row = {
        "row": "B9",
        "fieldwise": 2.0,
        "alternative": 4.0,
        "unit": "s",
        "ratio": 0.5,
        "goal": "<= 1.0x",
        "met": True,
        "peak_rss_mb": math.nan,
    }
    measure.emit(row, as_json=True)
    assert json.loads(capsys.readouterr().out)["peak_rss_mb"] is None
    measure.emit(row, as_json=False)
    line = capsys.readouterr().out
    assert line.startswith("B9: fieldwise 2.0 vs 4.0 s, ratio 0.5 (goal <= 1.0x: met)")
    measure.emit(row, "custom line", as_json=False)
    assert capsys.readouterr().out == "custom line\n"
