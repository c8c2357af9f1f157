"""Crash cycle: SIGKILL the service under load, restart it, and count what was lost or doubled.

Usage: python benchmarks/crash_cycle.py [--kills 5] [--clients 24] [--per-phase 300]
       [--engine-seconds 0.02] [--no-sqlite] [--no-postgres] [--json]

Issue 41's acceptance: "five SIGKILLs of the service under load on SQLite, and two processes
with a SIGKILL on PostgreSQL: 0 runs lost, 0 doubled".

- **SQLite**: one ``fieldwise serve`` (``FIELDWISE_WORKERS=2``, a data dir of its own in a
  temp folder). ``--clients`` threads create runs of a trivial processor version without a
  pause; once ``--per-phase`` more creates were accepted and the service has executed some
  runs since it started, it is SIGKILLed and started again on the same data dir and port,
  ``--kills`` times. The creates go on through every kill; after the last start the clients
  begin one more phase of creates and stop.
- **PostgreSQL**: two ``fieldwise serve`` on one throwaway PostgreSQL server (the tests'
  ``tests/postgres.py``) and one blob folder, half the clients on each. Once a phase of creates
  was accepted and both processes have executed runs, the first is SIGKILLed; its clients go on
  with the second, which recovers the killed one's jobs once their lease ran out, and begin
  one more phase of creates.

Every create carries a token of its own in its params (``TOKEN_PARAM``), and its input is an
uploaded text whose first line is that token, so the engine's own log names the run it
executed. When a create's answer is lost (the service died under it), the client looks the
token up among the processor's runs before it asks again, as the runner does
(``fieldwise.runner._execute``: ``_ask_or_find``, ``_runs_carrying``): this script starts no
second run for a create, whatever the service does.

Once every run is terminal, what the service recorded is held against what the clients were
told. The words of the table:

- **accepted**: creates a client got a run for (its answer, or its token found after a lost
  answer); **found by token**: of them, those found after a lost answer; **asked again**:
  creates sent once more because no run carried their token after a lost answer;
- **lost**: accepted creates whose run is not on the service at the end: neither the id the
  client was given nor any run carrying its token;
- **doubled**: tokens carried by more than one run (a create that made two runs), plus runs
  whose end was recorded more than once (more than one ``processor.run.completed`` /
  ``processor.run.failed`` event, or more than one output file naming the run), plus runs the
  engine executed more often than the service started them (engine executions above the run's
  ``attempts``: two processes working on one attempt);
- **re-executed**: runs the engine executed more than once, each time under a new attempt (a
  kill cut an attempt short; execution is at least once). Expected after kills, not doubled;
- **not succeeded**: terminal runs that did not succeed (a run cut short in more than its
  allowed attempts fails with ``worker_lost``).

Prints a table, one row per backend; exits 1 if anything was lost or doubled, 2 if the cycle
could not be completed (a service that did not start, a guard that ran out).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import KEY, _serve  # a service in its own process

from fieldwise._errors import (
    RateLimitError,
    ServerError,
    TransportError,
)
from fieldwise.client import Client, ops, surely_unprocessed

_REPO = Path(__file__).resolve().parents[1]
TERMINAL = ("succeeded", "failed", "canceled")
#: The param every create carries, unique to it.
TOKEN_PARAM = "crash_cycle_token"
ENGINE = {"engine": "python", "entrypoint": "crash_cycle:echo"}
#: Where the engine appends one line per execution (set in the services' environment).
LOG_ENV = "CRASH_CYCLE_ENGINE_LOG"
#: How long the engine works on each run, in seconds (set in the services' environment).
WORK_ENV = "CRASH_CYCLE_ENGINE_SECONDS"
#: Bounds that only guard against hangs: a create (with its retries and look-ups), a
#: service's start, one phase, and the wait for every run to end.
CREATE_GUARD = 180.0
START_GUARD = 120.0
PHASE_GUARD = 600.0
SETTLE_GUARD = 600.0
_TRANSIENT = (ServerError, TransportError, RateLimitError)


def echo(doc: Any) -> dict[str, Any]:
    """The engine (``crash_cycle:echo``, run by a service in its own process or in one of its
    engine processes): logs ``token pid parent-pid`` (its input's first line) and answers the
    line."""
    first = doc.text.split("\n", 1)[0].strip()
    with open(os.environ[LOG_ENV], "a") as log:  # one short O_APPEND write per execution
        log.write(f"{first} {os.getpid()} {os.getppid()}\n")
    # Logged first, then some work: a kill finds runs mid-execution, not only queued or done.
    time.sleep(float(os.environ.get(WORK_ENV, "0")))
    return {"value": {"first": first}, "metadata": {}}


def executions(log: Path) -> list[tuple[str, int, int]]:
    """``(token, pid, parent pid)`` of each execution the engine logged."""
    if not log.exists():
        return []
    rows = (line.split() for line in log.read_text().splitlines())
    return [(row[0], int(row[1]), int(row[2])) for row in rows if len(row) == 3]


def wait_for(what: str, check: Callable[[], Any], guard: float, every: float = 0.1) -> Any:
    """Poll ``check`` until it is truthy; ``CycleError`` after ``guard`` seconds."""
    deadline = time.monotonic() + guard
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise CycleError(f"{what}: not within {guard:.0f} s")


def say(started: float, message: str) -> None:
    """A line of progress on stderr, stamped with the seconds since ``started``."""
    print(f"[{time.monotonic() - started:6.1f} s] {message}", file=sys.stderr, flush=True)


class CycleError(Exception):
    """The cycle could not be completed (exit 2): nothing was measured."""


# --- the services -----------------------------------------------------------------------------


class Service:
    """One ``fieldwise serve`` on a fixed loopback port: started, SIGKILLed, started again."""

    def __init__(self, data_dir: Path, env: dict[str, str], log: Path) -> None:
        self.data_dir, self.env, self.log = data_dir, env, log
        self.port: int | None = None
        self.proc: Any = None
        self.base_url = ""
        self.groups: list[int] = []  # every process group it led, for the final clean-up

    def start(self) -> None:
        # A port freed by a SIGKILL is bound again at once (the service sets SO_REUSEADDR).
        try:
            self.proc, self.base_url = _serve(
                self.data_dir,
                2,
                port=self.port,
                extra_env=self.env,
                log=self.log,
                timeout=START_GUARD,
            )
        except SystemExit as exc:  # load.start_server's way of saying it
            raise CycleError(f"{exc} (its log: {self.log})") from None
        self.port = int(self.base_url.rsplit(":", 1)[1])
        self.groups.append(self.proc.pid)

    def sigkill(self) -> None:
        """SIGKILL the service process alone, as a crash would; its engine processes see
        their parent gone and exit by themselves."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def finish_after(self, more: int) -> None:
        """Begin ``more`` creates from now on, then stop."""
        with self.lock:
            self.total = self.slots + more

    def stop(self) -> None:
        """Kill whatever is left of every process group this service led."""
        for group in self.groups:
            with suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()


# --- the clients ------------------------------------------------------------------------------


class Load:
    """``clients`` threads creating runs without a pause, until :meth:`finish_after` gives
    them a last number of creates to begin. Thread ``i`` asks ``urls[i % len(urls)]`` first,
    and the next address after a transient failure, so the clients of a killed process go on
    with the other."""

    def __init__(self, urls: list[str], processor_id: str, clients: int) -> None:
        self.urls, self.processor_id = urls, processor_id
        self.total: int | None = None  # creates to begin in all; None: no end yet
        self.lock = threading.Lock()
        self.slots = 0  # creates begun
        self.accepted: dict[str, str] = {}  # token -> the run id the client was given
        self.found = 0  # of them, found by token after a lost answer
        self.resent = 0  # creates asked again after a look-up found nothing
        self.errors: list[str] = []
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=self._client, args=(i,), daemon=True) for i in range(clients)
        ]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def finish_after(self, more: int) -> None:
        """Begin ``more`` creates from now on, then stop."""
        with self.lock:
            self.total = self.slots + more

    def stop(self) -> None:
        """Make every client give up at its next step (the cycle ended or failed)."""
        self.stopping.set()

    def join(self, guard: float) -> None:
        deadline = time.monotonic() + guard
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        if any(t.is_alive() for t in self.threads):
            raise CycleError(f"clients still creating after {guard:.0f} s")
        if self.errors:
            raise CycleError(f"a client failed: {self.errors[0]}")

    def told(self) -> Told:
        with self.lock:
            return Told(dict(self.accepted), self.found, self.resent)

    def count(self) -> int:
        with self.lock:
            return len(self.accepted)

    def _client(self, index: int) -> None:
        clients = [Client(url, KEY, timeout=60) for url in self.urls]
        at = [index % len(clients)]
        try:
            while True:
                with self.lock:
                    ended = self.total is not None and self.slots >= self.total
                    if ended or self.stopping.is_set():
                        return
                    self.slots += 1
                token = uuid.uuid4().hex
                run_id = self._create(clients, at, token)
                with self.lock:
                    self.accepted[token] = run_id
        except Exception as exc:  # reported by join(): the cycle fails
            with self.lock:
                self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            for client in clients:
                client.close()

    def _patiently(
        self, clients: list[Client], at: list[int], call: Callable[[Client], Any]
    ) -> Any:
        """``call`` with the current client until it does not fail transiently (each failure
        moves on to the next address, after a short pause)."""
        deadline = time.monotonic() + CREATE_GUARD
        while True:
            try:
                return call(clients[at[0]])
            except _TRANSIENT:
                if time.monotonic() > deadline or self.stopping.is_set():
                    raise
                at[0] = (at[0] + 1) % len(clients)
                time.sleep(0.25)

    def _create(self, clients: list[Client], at: list[int], token: str) -> str:
        """Upload the token's input and create its run; when the answer is lost in a way that
        may have created the run (not :func:`surely_unprocessed`), look the token up first and
        ask again only if no run carries it."""
        content = f"{token}\ncrash cycle input\n".encode()
        file_id = self._patiently(
            clients, at, lambda c: c.upload_file(content, filename=f"{token}.txt").id
        )
        create = ops.create_run(self.processor_id, file_id, **{TOKEN_PARAM: token})
        deadline = time.monotonic() + CREATE_GUARD
        while time.monotonic() < deadline and not self.stopping.is_set():
            client = clients[at[0]]
            try:
                return str(client.call(create).id)
            except _TRANSIENT as exc:
                at[0] = (at[0] + 1) % len(clients)
                time.sleep(0.25)
                if surely_unprocessed(exc):
                    continue
            found = self._patiently(clients, at, lambda c: self._carrying(c, token))
            if found is not None:
                with self.lock:
                    self.found += 1
                return found
            with self.lock:
                self.resent += 1
        raise CycleError(f"create {token}: no answer within {CREATE_GUARD:.0f} s")

    def _carrying(self, client: Client, token: str) -> str | None:
        """The id of the processor's run whose params carry ``token``, or None."""
        pages = client.paginate(lambda c: ops.list_runs(self.processor_id, 1000, c))
        return next((r.id for r in pages if r.params.get(TOKEN_PARAM) == token), None)


# --- the report -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """What one cycle did and what the service recorded at its end."""

    backend: str
    kills: int
    accepted: int
    found_by_token: int
    resent: int
    runs: int
    lost: int
    doubled: int
    re_executed: int
    not_succeeded: int
    wall_s: float
    evidence: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.lost == 0 and self.doubled == 0


@dataclass(frozen=True)
class Recorded:
    """The service's records at the end, by run id (and the engine's log)."""

    runs: list[Any]  # client Run models
    ended: Counter[str]  # processor.run.completed / .failed events per run
    outputs: Counter[str]  # output files per run
    executed: Counter[str]  # engine executions per token
    unfinished_jobs: int


@dataclass(frozen=True)
class Told:
    """What the clients were told: the run id each accepted token was given, how many of those
    were found by token after a lost answer, and how many creates were asked again."""

    accepted: dict[str, str]
    found: int = 0
    resent: int = 0


def judge(backend: str, kills: int, told: Told, rec: Recorded, wall: float) -> Report:
    """Hold the service's records against what the clients were told (pure)."""
    by_token: dict[str, list[Any]] = {}
    for run in rec.runs:
        by_token.setdefault(run.params.get(TOKEN_PARAM, ""), []).append(run)
    ids = {run.id for run in rec.runs}
    evidence: list[str] = []
    accepted = told.accepted
    lost = sorted(t for t, run_id in accepted.items() if run_id not in ids or t not in by_token)
    evidence += [f"lost: token {t}, answered with run {accepted[t]}" for t in lost]
    doubled: set[str] = set()
    for token, runs in sorted(by_token.items()):
        if len(runs) > 1:
            doubled.add(token)
            evidence.append(f"doubled: token {token} carried by {sorted(r.id for r in runs)}")
    for run in sorted(rec.runs, key=lambda r: r.id):
        token = run.params.get(TOKEN_PARAM, "")
        reasons = []
        if rec.ended[run.id] > 1:
            reasons.append(f"{rec.ended[run.id]} end events")
        if rec.outputs[run.id] > 1:
            reasons.append(f"{rec.outputs[run.id]} output files")
        if rec.executed[token] > run.attempts:
            reasons.append(f"executed {rec.executed[token]}x in {run.attempts} attempt(s)")
        if reasons:
            doubled.add(token)
            evidence.append(f"doubled: run {run.id} (token {token}): {', '.join(reasons)}")
    if rec.unfinished_jobs:
        evidence.append(f"note: {rec.unfinished_jobs} job(s) of ended runs not finished")
    return Report(
        backend=backend,
        kills=kills,
        accepted=len(accepted),
        found_by_token=told.found,
        resent=told.resent,
        runs=len(rec.runs),
        lost=len(lost),
        doubled=len(doubled),
        re_executed=sum(1 for r in rec.runs if rec.executed[r.params.get(TOKEN_PARAM)] > 1),
        not_succeeded=sum(1 for r in rec.runs if r.status != "succeeded"),
        wall_s=round(wall, 1),
        evidence=tuple(evidence),
    )


COLUMNS = (
    ("backend", "backend"),
    ("kills", "kills"),
    ("accepted", "creates accepted"),
    ("found_by_token", "found by token"),
    ("resent", "asked again"),
    ("runs", "runs on service"),
    ("lost", "lost"),
    ("doubled", "doubled"),
    ("re_executed", "re-executed"),
    ("not_succeeded", "not succeeded"),
    ("wall_s", "wall s"),
)


def table(reports: list[Report]) -> str:
    """The reports as a small fixed-width table (and their evidence under it)."""
    rows = [[title for _, title in COLUMNS]]
    rows += [[str(getattr(r, name)) for name, _ in COLUMNS] for r in reports]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    for report in reports:
        lines += [f"  {report.backend}: {line}" for line in report.evidence[:20]]
        if len(report.evidence) > 20:
            lines.append(f"  {report.backend}: ... {len(report.evidence) - 20} more")
    return "\n".join(lines)


# --- what the service recorded ----------------------------------------------------------------


def recorded(client: Client, processor_id: str, database_url: str, engine_log: Path) -> Recorded:
    """Runs and output files through the API, end events and jobs from the database."""
    from sqlalchemy import create_engine, select

    from fieldwise.service.events.outbox import events
    from fieldwise.service.jobs import jobs

    runs = list(client.paginate(lambda c: ops.list_runs(processor_id, 1000, c)))
    outputs = Counter(
        str(f.metadata.get("run_id")) for f in client.list_files() if f.purpose == "output"
    )
    ids = {run.id for run in runs}
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            ended = Counter(
                str(row.run_id)
                for row in conn.execute(
                    select(events.c.data["run_id"].as_string().label("run_id")).where(
                        events.c.type.in_(("processor.run.completed", "processor.run.failed"))
                    )
                )
            )
            unfinished = sum(
                1
                for row in conn.execute(select(jobs.c.target_id).where(jobs.c.status != "finished"))
                if row.target_id in ids
            )
    finally:
        engine.dispose()
    executed = Counter(token for token, _pid, _parent in executions(engine_log))
    return Recorded(runs, ended, outputs, executed, unfinished)


# --- the cycles -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """How hard a cycle pushes: SIGKILLs (SQLite), client threads, creates accepted between
    two kills, and the engine's time per run."""

    kills: int = 5
    clients: int = 24
    per_phase: int = 300
    engine_seconds: float = 0.02


def _env(plan: Plan, engine_log: Path, database_url: str = "") -> dict[str, str]:
    return {
        LOG_ENV: str(engine_log),
        WORK_ENV: str(plan.engine_seconds),
        "FIELDWISE_DATABASE_URL": database_url,
        # Short leases, so that a killed process's jobs are taken over quickly (PostgreSQL; on
        # SQLite a restarted process takes every other owner's jobs at once).
        "FIELDWISE_LEASE_SECONDS": "3",
        "FIELDWISE_HEARTBEAT_SECONDS": "0.5",
    }


def _processor(base_url: str) -> str:
    with Client(base_url, KEY, timeout=60) as client:
        processor = client.create_processor("crash-cycle")
        version = client.create_version(processor.id, ENGINE)
        client.publish_version(processor.id, version.id)
        return processor.id


def _settle(base_url: str, processor_id: str, accepted: int) -> None:
    """Wait until the service holds every accepted run, all terminal."""
    with Client(base_url, KEY, timeout=60) as client:

        def settled() -> bool:
            runs = list(client.paginate(lambda c: ops.list_runs(processor_id, 1000, c)))
            return len(runs) >= accepted and all(r.status in TERMINAL for r in runs)

        wait_for("every run terminal", settled, SETTLE_GUARD, every=1.0)


def _progress(
    load: Load, engine_log: Path, accepted: int, pids: list[int], least: int
) -> Callable[[], bool]:
    """A check for the moment of a kill: ``accepted`` creates accepted in all, and each
    service process of ``pids`` has executed ``least`` runs (or a client failed)."""

    def check() -> bool:
        if load.errors:
            return True
        if load.count() < accepted:
            return False
        done = executions(engine_log)
        return all(sum(1 for _t, *who in done if pid in who) >= least for pid in pids)

    return check


def sqlite_cycle(plan: Plan, work: Path) -> Report:
    """``plan.kills`` SIGKILLs of one ``fieldwise serve`` on SQLite under load."""
    engine_log = work / "engine.log"
    data_dir = work / "svc"
    service = Service(data_dir, _env(plan, engine_log), work / "service.log")
    load: Load | None = None
    started = time.monotonic()
    try:
        service.start()
        processor_id = _processor(service.base_url)
        load = Load([service.base_url], processor_id, plan.clients)
        load.start()
        least = max(5, plan.per_phase // 10)  # executed by this start of the service
        for kill in range(1, plan.kills + 1):
            since = len(executions(engine_log))
            pid = service.proc.pid
            # Spread over the load: a phase of creates accepted, and the service executing.
            progressed = _progress(load, engine_log, kill * plan.per_phase, [pid], least)
            wait_for(f"phase {kill}", progressed, PHASE_GUARD, every=0.05)
            if load.errors:
                break
            service.sigkill()
            say(
                started,
                f"sqlite: kill {kill}: {load.count()} accepted, "
                f"{len(executions(engine_log)) - since} executed since the last start",
            )
            service.start()
            say(started, f"sqlite: started again ({load.count()} accepted)")
        load.finish_after(plan.per_phase)
        load.join(PHASE_GUARD)
        say(started, f"sqlite: clients done, {load.count()} accepted; waiting for the runs")
        _settle(service.base_url, processor_id, load.count())
        wall = time.monotonic() - started
        with Client(service.base_url, KEY, timeout=60) as client:
            url = f"sqlite:///{data_dir / 'fieldwise.db'}"
            rec = recorded(client, processor_id, url, engine_log)
    finally:
        if load is not None:
            load.stop()
        service.stop()
    return judge("sqlite", plan.kills, load.told(), rec, wall)


def postgres_cycle(plan: Plan, work: Path, database_url: str) -> Report:
    """Two ``fieldwise serve`` on one PostgreSQL database; the first SIGKILLed mid-way."""
    engine_log = work / "engine.log"
    data_dir = work / "svc"  # the shared blob folder
    env = _env(plan, engine_log, database_url)
    first = Service(data_dir, env, work / "first.log")
    second = Service(data_dir, env, work / "second.log")
    load: Load | None = None
    started = time.monotonic()
    try:
        first.start()
        second.start()
        processor_id = _processor(first.base_url)
        load = Load([first.base_url, second.base_url], processor_id, plan.clients)
        load.start()
        least = max(5, plan.per_phase // 10)
        pids = [first.proc.pid, second.proc.pid]
        progressed = _progress(load, engine_log, plan.per_phase, pids, least)
        wait_for("both processes executing", progressed, PHASE_GUARD, every=0.05)
        if not load.errors:
            first.sigkill()
            say(started, f"postgresql: kill 1 (the first process): {load.count()} accepted")
        load.finish_after(plan.per_phase)
        load.join(PHASE_GUARD)
        say(started, f"postgresql: clients done, {load.count()} accepted; waiting for the runs")
        _settle(second.base_url, processor_id, load.count())
        wall = time.monotonic() - started
        with Client(second.base_url, KEY, timeout=60) as client:
            rec = recorded(client, processor_id, database_url, engine_log)
    finally:
        if load is not None:
            load.stop()
        first.stop()
        second.stop()
    return judge("postgresql", 1, load.told(), rec, wall)


@contextmanager
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server on loopback: the tests' own (``tests/postgres.py``)."""
    if str(_REPO) not in sys.path:
        sys.path.insert(0, str(_REPO))
    from tests.postgres import postgres_server

    with postgres_server() as url:
        yield url


def run(
    plan: Plan, *, sqlite: bool = True, postgresql: bool = True, keep: bool = False
) -> list[Report]:
    """The cycles asked for, in a temp folder removed afterwards (unless ``keep``: then its
    data dirs, service logs and engine log stay, for the evidence)."""
    reports = []
    with ExitStack() as stack:
        work = Path(tempfile.mkdtemp(prefix="crash-cycle-"))
        if keep:
            print(f"kept: {work}", file=sys.stderr)
        else:
            stack.callback(shutil.rmtree, work, ignore_errors=True)
        if sqlite:
            (work / "sqlite").mkdir()
            reports.append(sqlite_cycle(plan, work / "sqlite"))
        if postgresql:
            (work / "pg").mkdir()
            url = stack.enter_context(postgres())
            reports.append(postgres_cycle(plan, work / "pg", url))
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=5, help="SIGKILLs on SQLite")
    parser.add_argument("--clients", type=int, default=24, help="client threads")
    parser.add_argument("--per-phase", type=int, default=300, help="creates between kills")
    parser.add_argument(
        "--engine-seconds", type=float, default=0.02, help="the engine's work per run"
    )
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--keep", action="store_true", help="keep the data dirs and logs")
    args = parser.parse_args(argv)
    plan = Plan(args.kills, args.clients, args.per_phase, args.engine_seconds)
    try:
        reports = run(
            plan, sqlite=not args.no_sqlite, postgresql=not args.no_postgres, keep=args.keep
        )
    except CycleError as exc:
        print(f"crash cycle not completed: {exc}", file=sys.stderr)
        return 2
    if args.json:
        for report in reports:
            print(json.dumps(dataclasses.asdict(report), sort_keys=True))
    else:
        print(table(reports))
    return 0 if all(r.ok for r in reports) else 1


if __name__ == "__main__":
    # Stopped from outside (a timeout, CI): unwind, so every service is killed and the temp
    # folder removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(main())
