"""The factory ``create_app`` starts: the job worker pool and the retention sweeper."""

from __future__ import annotations

from fieldwise.service.jobs import WorkerPool
from fieldwise.service.resources.parse import lifecycle as parse_runs
from fieldwise.service.resources.parse.cache import ParseCache
from fieldwise.service.resources.parse.lifecycle import ParseRunHandler
from fieldwise.service.resources.runs import lifecycle
from fieldwise.service.resources.runs.execute import ProcessorRunHandler
from fieldwise.service.resources.runs.retention import Sweeper
from fieldwise.service.state import ServiceState


class RunServices:
    """Worker pool (recovers interrupted jobs first) and sweeper, started and stopped together."""

    def __init__(self, state: ServiceState) -> None:
        cache = ParseCache(state)
        self.pool = WorkerPool(
            state,
            {
                lifecycle.JOB_KIND: ProcessorRunHandler(cache),
                parse_runs.JOB_KIND: ParseRunHandler(cache),
            },
        )
        self.sweeper = Sweeper(state)

    def start(self) -> None:
        self.pool.start()
        self.sweeper.start()

    def stop(self) -> None:
        self.sweeper.stop()
        self.pool.stop()


def run_services(state: ServiceState) -> RunServices:
    return RunServices(state)
