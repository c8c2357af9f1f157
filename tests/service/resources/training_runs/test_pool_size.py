"""Training jobs run on at most one thread per core, however many run threads are configured.

``FIELDWISE_WORKERS`` sizes the processor-run pools, whose threads mostly wait on the engine
processes; a training is minutes of CPU in its thread, so more of them at once than cores would
only take turns (and hold their memory) while processor runs queue behind them.
"""

from __future__ import annotations

import os
from pathlib import Path

from fieldwise._config import ServiceSettings
from fieldwise.service.app import build_state, run_workers
from fieldwise.service.resources.training_runs.job import training_services


def test_training_threads_are_capped_at_the_cores(tmp_path: Path) -> None:
    cores = os.cpu_count() or 1
    workers = cores + 3
    state = build_state(ServiceSettings(data_dir=tmp_path / "svc", workers=workers))
    try:
        assert training_services(state).pool.threads == cores
        assert run_workers(state).threads == workers
    finally:
        state.engine.dispose()
