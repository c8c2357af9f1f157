"""The runner's values: versions, item snapshots, records, the manifest and the run set."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Terminal statuses a record can carry; "failed" covers runs that ended failed or canceled
#: and pairs the service refused.
RECORD_STATUSES = ("succeeded", "failed")

ALIASES = ("published", "latest-draft", "trained:latest")


@dataclass(frozen=True)
class VersionRef:
    """A version as the user asked for it (``requested``), the id it resolved to, the
    SHA-256 of its config when the run set started (``""`` in run sets made before), its
    number on the processor (``name`` reads ``v3``; ``None`` in older run sets) and every
    alias that named it when the run set started (so ``compare``/``gate``/``publish`` read
    ``latest-draft`` as the run set's ``run`` did)."""

    requested: str
    version_id: str
    config_hash: str = ""
    number: int | None = None
    aliases: tuple[str, ...] = ()

    @property
    def alias(self) -> str | None:
        return self.requested if self.requested in ALIASES else None

    @property
    def name(self) -> str:
        """``v3``: the version's name on its processor (the id when the number is unknown)."""
        return f"v{self.number}" if self.number is not None else self.version_id

    @property
    def label(self) -> str:
        """What outputs call it: the alias or name the user typed, its ``vN`` when the user
        typed a raw id."""
        return self.name if self.requested == self.version_id else self.requested

    @property
    def described(self) -> str:
        """For console lines: ``latest-draft = v3 (ver_…)``, ``v3 (ver_…)`` for an id or ``vN``."""
        if self.number is None:
            shown = self.label
            return shown if shown == self.version_id else f"{shown} ({self.version_id})"
        head = self.name if self.label == self.name else f"{self.label} = {self.name}"
        return f"{head} ({self.version_id})"

    def answers_to(self, wanted: str) -> bool:
        """Whether ``wanted`` (an id, ``vN``, the name it was asked for or an alias that named
        it at the run set's start) means this version."""
        return wanted in (self.version_id, self.requested, self.name) or wanted in self.aliases

    def to_json(self) -> dict[str, Any]:
        return {
            "requested": self.requested,
            "version_id": self.version_id,
            "alias": self.alias,
            "config_hash": self.config_hash,
            "number": self.number,
            "name": self.name,
            "aliases": list(self.aliases),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> VersionRef:
        number = data.get("number")
        return cls(
            requested=str(data["requested"]),
            version_id=str(data["version_id"]),
            config_hash=str(data.get("config_hash") or ""),
            number=int(number) if number is not None else None,
            aliases=tuple(str(a) for a in data.get("aliases") or ()),
        )


@dataclass(frozen=True)
class ItemSnapshot:
    """What comparison needs of one evaluation-set item, so it never asks the service again."""

    item_id: str
    file: str
    file_sha256: str
    file_id: str
    ground_truth: dict[str, Any]
    split: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "item_id": self.item_id,
            "file": self.file,
            "file_sha256": self.file_sha256,
            "file_id": self.file_id,
            "ground_truth": self.ground_truth,
            # only when set: run sets of datasets without splits read as before
            **({"split": self.split} if self.split is not None else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ItemSnapshot:
        return cls(
            item_id=str(data["item_id"]),
            file=str(data["file"]),
            file_sha256=str(data["file_sha256"]),
            file_id=str(data["file_id"]),
            ground_truth=dict(data["ground_truth"]),
            split=data.get("split"),
        )


@dataclass(frozen=True)
class RunRecord:
    """One finished (item, version) pair, as recorded in the run set (one line of its records)."""

    item_id: str
    file: str
    file_sha256: str
    version_id: str
    version_alias: str | None
    run_id: str | None
    status: str
    output: dict[str, Any] | None
    latency_ms: int | None
    attempts: int
    cached: bool
    error: dict[str, Any] | None
    finished_at: str

    @property
    def pair(self) -> tuple[str, str]:
        return (self.item_id, self.version_id)

    def to_json(self) -> dict[str, Any]:
        return {
            "item_id": self.item_id,
            "file": self.file,
            "file_sha256": self.file_sha256,
            "version_id": self.version_id,
            "version_alias": self.version_alias,
            "run_id": self.run_id,
            "status": self.status,
            "output": self.output,
            "latency_ms": self.latency_ms,
            "attempts": self.attempts,
            "cached": self.cached,
            "error": self.error,
            "finished_at": self.finished_at,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunRecord:
        return cls(
            item_id=str(data["item_id"]),
            file=str(data["file"]),
            file_sha256=str(data["file_sha256"]),
            version_id=str(data["version_id"]),
            version_alias=data.get("version_alias"),
            run_id=data.get("run_id"),
            status=str(data["status"]),
            output=data.get("output"),
            latency_ms=data.get("latency_ms"),
            attempts=int(data.get("attempts", 0)),
            cached=bool(data.get("cached", False)),
            error=data.get("error"),
            finished_at=str(data.get("finished_at", "")),
        )


@dataclass(frozen=True)
class Manifest:
    """The run set's manifest: what was run, against which service, set and ground truth."""

    runset_id: str
    service_identity: str
    base_url: str
    processor_id: str
    eval_set_id: str
    eval_set_name: str
    dataset: str | None
    ground_truth_hash: str | None
    versions: tuple[VersionRef, ...]
    item_count: int
    created_at: str
    arguments: dict[str, Any] = field(default_factory=dict)
    #: The comparability contract (ground-truth snapshot, spec and gate hashes, fieldwise
    #: version); see :func:`fieldwise.runner._plan.provenance`. Empty in older run sets.
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def pair_count(self) -> int:
        return self.item_count * len(self.versions)

    def to_json(self) -> dict[str, Any]:
        return {
            "runset_id": self.runset_id,
            "service_identity": self.service_identity,
            "base_url": self.base_url,
            "processor_id": self.processor_id,
            "eval_set_id": self.eval_set_id,
            "eval_set_name": self.eval_set_name,
            "dataset": self.dataset,
            "ground_truth_hash": self.ground_truth_hash,
            "versions": [v.to_json() for v in self.versions],
            "item_count": self.item_count,
            "created_at": self.created_at,
            "arguments": self.arguments,
            "provenance": self.provenance,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        return cls(
            runset_id=str(data["runset_id"]),
            service_identity=str(data["service_identity"]),
            base_url=str(data["base_url"]),
            processor_id=str(data["processor_id"]),
            eval_set_id=str(data["eval_set_id"]),
            eval_set_name=str(data.get("eval_set_name", "")),
            dataset=data.get("dataset"),
            ground_truth_hash=data.get("ground_truth_hash"),
            versions=tuple(VersionRef.from_json(v) for v in data["versions"]),
            item_count=int(data["item_count"]),
            created_at=str(data["created_at"]),
            arguments=dict(data.get("arguments", {})),
            provenance=dict(data.get("provenance") or {}),
        )


@dataclass(frozen=True)
class LoadedRunSet:
    """A run set read back from disk: manifest, item snapshot and its records (last per pair)."""

    directory: Path
    manifest: Manifest
    items: tuple[ItemSnapshot, ...]
    records: tuple[RunRecord, ...]

    @property
    def complete(self) -> bool:
        return len({r.pair for r in self.records}) >= self.manifest.pair_count


@dataclass(frozen=True)
class Progress:
    """Counts reported after every finished pair (and once at the start)."""

    total: int
    done: int
    succeeded: int
    failed: int
    cached: int


@dataclass(frozen=True)
class RunSet:
    """The outcome of :func:`~fieldwise.runner.run_versions`: where the results are and counts.

    ``done`` counts every recorded pair (including those recorded before a resume);
    ``new_runs`` the processor runs this invocation started (retries included).
    """

    runset_id: str
    directory: Path
    manifest: Manifest
    total: int
    done: int
    succeeded: int
    failed: int
    cached: int
    resumed: int
    new_runs: int
    elapsed_s: float
    #: The run set as :func:`~fieldwise.runner.load_runset` would read it back (manifest,
    #: items, the last record per pair), kept in memory so callers need not re-read the disk.
    loaded: LoadedRunSet | None = field(default=None, repr=False, compare=False)

    @property
    def complete(self) -> bool:
        return self.done >= self.total

    def summary(self) -> dict[str, Any]:
        """Plain JSON-ready summary (what ``fieldwise run --json`` prints)."""
        return {
            "runset_id": self.runset_id,
            "directory": str(self.directory),
            "processor_id": self.manifest.processor_id,
            "eval_set_id": self.manifest.eval_set_id,
            "eval_set_name": self.manifest.eval_set_name,
            "ground_truth_hash": self.manifest.ground_truth_hash,
            "versions": [v.to_json() for v in self.manifest.versions],
            "items": self.manifest.item_count,
            "total": self.total,
            "done": self.done,
            "succeeded": self.succeeded,
            "failed": self.failed,
            "cached": self.cached,
            "resumed": self.resumed,
            "new_runs": self.new_runs,
            "complete": self.complete,
            "elapsed_s": round(self.elapsed_s, 3),
        }
