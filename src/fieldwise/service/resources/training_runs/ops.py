"""Training runs: what a request asks for, checked and resolved (items, field specs, params),
and rows as public models."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from fieldwise.service.engines.training import TrainParams
from fieldwise.service.http.dependencies import fetch
from fieldwise.service.http.errors import ApiError
from fieldwise.service.jobs.timings import timing_fields
from fieldwise.service.resources.evaluation_sets.tables import evaluation_sets, items
from fieldwise.service.resources.processors.tables import processors, versions
from fieldwise.service.resources.training_runs.schemas import (
    TrainingModel,
    TrainingRunCreate,
    TrainingRunPublic,
)

#: Dataset field types the rule engine's config names differently.
_CONFIG_TYPES = {"text": "string"}


def _bad(param: str, message: str) -> ApiError:
    return ApiError(422, f"{param}: {message}", param=param)


def resolve_request(conn: Connection, processor_id: str, body: TrainingRunCreate) -> dict[str, Any]:
    """The training run's values: the items it learns from, the field specs, the params
    (each problem a 422 naming the parameter)."""
    processor = fetch(conn, processors, processor_id, "processor")
    eval_set = conn.execute(
        select(evaluation_sets).where(evaluation_sets.c.id == body.eval_set_id)
    ).first()
    if eval_set is None:
        raise _bad("eval_set_id", f"no evaluation set with id {body.eval_set_id!r}.")
    if (body.split is None) == (body.item_ids is None):
        raise _bad("split", "give either split or item_ids (the items to learn from).")
    try:
        TrainParams.from_mapping(body.params)
    except (ValueError, TypeError) as exc:  # a wrong key, or a value of the wrong type
        # the engine's message names the key: "params.seed: expected int, got str"
        raise ApiError(422, str(exc), param="params") from None
    rows = list(
        conn.execute(
            select(items.c.id, items.c.metadata)
            .where(items.c.eval_set_id == eval_set.id)
            .order_by(items.c.seq)
        )
    )
    item_ids = _chosen(rows, body, eval_set.id)
    base_id, fields = _fields(conn, processor, body.base_version_id, eval_set.metadata)
    return {
        "processor_id": processor.id,
        "eval_set_id": eval_set.id,
        "base_version_id": base_id,
        "split": body.split,
        "item_ids": item_ids,
        "params": dict(body.params),
        "fields": fields,
    }


def _chosen(rows: list[Any], body: TrainingRunCreate, eval_set_id: str) -> list[str]:
    if body.item_ids is not None:
        known = {r.id for r in rows}
        unknown = [i for i in body.item_ids if i not in known]
        if unknown:
            raise _bad(
                "item_ids", f"{unknown[0]!r} is not an item of evaluation set {eval_set_id!r}."
            )
        return sorted(set(body.item_ids))
    chosen = sorted(r.id for r in rows if (r.metadata or {}).get("split") == body.split)
    if chosen:
        return chosen
    sizes: dict[str, int] = {}
    for r in rows:
        split = (r.metadata or {}).get("split")
        if isinstance(split, str):
            sizes[split] = sizes.get(split, 0) + 1
    listed = ", ".join(f"{k} ({n} items)" for k, n in sorted(sizes.items())) or "none"
    raise _bad(
        "split",
        f"evaluation set {eval_set_id!r} has no items in split {body.split!r} (its splits: "
        f"{listed}; sync records them from the dataset's [splits]).",
    )


def _fields(
    conn: Connection, processor: Any, base_version_id: str | None, set_metadata: Any
) -> tuple[str | None, list[dict[str, Any]]]:
    """The base version and the field specs to train for: the base version's, else the
    published version's, else the newest version's, else the set's recorded fields."""
    where = [versions.c.processor_id == processor.id]
    if base_version_id is not None:
        base = conn.execute(
            select(versions).where(versions.c.id == base_version_id, *where)
        ).first()
        if base is None:
            raise _bad(
                "base_version_id", f"no version {base_version_id!r} of processor {processor.id!r}."
            )
    else:
        base = None
        if processor.default_version_id is not None:
            base = conn.execute(
                select(versions).where(versions.c.id == processor.default_version_id)
            ).first()
        if base is None:
            query = select(versions).where(*where).order_by(versions.c.number.desc()).limit(1)
            base = conn.execute(query).first()
    if base is not None and base.config.get("fields"):
        return base.id, list(base.config["fields"])
    recorded = ((set_metadata or {}).get("compare_spec") or {}).get("fields") or {}
    if not recorded:
        raise _bad(
            "base_version_id",
            f"processor {processor.id!r} has no version with fields to learn, and the set "
            "recorded none: create a version (or sync the set from a dataset) first.",
        )
    return (base.id if base is not None else None), [_field(n, s) for n, s in recorded.items()]


def _field(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    kind = str(spec.get("type", "string"))
    field: dict[str, Any] = {"name": name, "type": _CONFIG_TYPES.get(kind, kind)}
    if kind == "enum" and spec.get("values"):
        field["values"] = list(spec["values"])
    if kind == "array":
        columns = spec.get("columns") or {}
        field["columns"] = {c: [c.replace("_", " ")] for c in columns}
        field["column_types"] = {
            c: _CONFIG_TYPES.get(str(s.get("type", "string")), str(s.get("type", "string")))
            for c, s in columns.items()
        }
    return field


def training_public(row: Any) -> TrainingRunPublic:
    return TrainingRunPublic(
        **timing_fields(row),
        attempts=row.attempts,
        processor_id=row.processor_id,
        eval_set_id=row.eval_set_id,
        base_version_id=row.base_version_id,
        split=row.split,
        item_ids=list(row.item_ids),
        params=dict(row.params),
        stage=row.stage,
        progress={"done": row.progress_done, "total": row.progress_total},
        model=TrainingModel(sha256=row.model_sha256, size=row.model_size)
        if row.model_sha256
        else None,
        version_id=row.version_id,
    )
