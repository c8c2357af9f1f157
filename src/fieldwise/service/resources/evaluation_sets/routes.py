"""Evaluation sets and their items (a file paired with ground truth)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Response
from sqlalchemy import Connection, delete, insert, select, update

from fieldwise.service.http.dependencies import Cursor, Limit, common_fields, fetch
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.pagination import page
from fieldwise.service.http.schemas import DeletedPublic, ListOf
from fieldwise.service.ids import new_id
from fieldwise.service.resources.evaluation_sets.ops import content_changed, sets_public, tagged_set
from fieldwise.service.resources.evaluation_sets.schemas import (
    EvaluationSetCreate,
    EvaluationSetPublic,
    EvaluationSetUpdate,
    ItemCreate,
    ItemPublic,
    ItemUpdate,
)
from fieldwise.service.resources.evaluation_sets.tables import evaluation_sets, items
from fieldwise.service.resources.files.tables import files
from fieldwise.service.state import State, now

router = APIRouter(tags=["evaluation-sets"])


def set_public(conn: Connection, row: Any) -> EvaluationSetPublic:
    return sets_public(conn, [row])[0]


def item_public(row: Any) -> ItemPublic:
    return ItemPublic(
        **common_fields(row),
        eval_set_id=row.eval_set_id,
        file_id=row.file_id,
        ground_truth=row.ground_truth,
        metadata=row.metadata,
    )


def merge(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge ``patch`` into ``base``: objects merge key by key, anything else replaces."""
    merged = dict(base)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


@router.post("/evaluation-sets", status_code=201, response_model=EvaluationSetPublic)
def create_set(body: EvaluationSetCreate, state: State) -> EvaluationSetPublic:
    stamp = now(state)
    set_id = new_id("es")
    with state.engine.begin() as conn:
        conn.execute(
            insert(evaluation_sets).values(
                id=set_id,
                name=body.name,
                description=body.description,
                metadata=body.metadata,
                created_at=stamp,
                updated_at=stamp,
            )
        )
        return set_public(conn, fetch(conn, evaluation_sets, set_id, "evaluation set"))


@router.get("/evaluation-sets", response_model=ListOf[EvaluationSetPublic])
def list_sets(
    state: State,
    limit: Limit = 100,
    cursor: Cursor = None,
    name: str | None = Query(None, description="Only sets with this exact name."),
) -> ListOf[EvaluationSetPublic]:
    where = [evaluation_sets.c.name == name] if name is not None else []
    with state.engine.connect() as conn:
        rows, next_cursor = page(conn, evaluation_sets, where, limit=limit, cursor=cursor)
        data = sets_public(conn, list(rows))
    return ListOf[EvaluationSetPublic](data=data, next_cursor=next_cursor)


@router.get("/evaluation-sets/{eval_set_id}", response_model=EvaluationSetPublic)
def get_set(eval_set_id: str, state: State, response: Response) -> EvaluationSetPublic:
    with state.engine.connect() as conn:
        row, etag = tagged_set(conn, eval_set_id)
        if etag is not None:
            response.headers["ETag"] = etag
        return set_public(conn, row)


@router.patch("/evaluation-sets/{eval_set_id}", response_model=EvaluationSetPublic)
def update_set(eval_set_id: str, body: EvaluationSetUpdate, state: State) -> EvaluationSetPublic:
    changes = {k: v for k, v in body.model_dump(exclude_unset=True).items() if v is not None}
    with state.engine.begin() as conn:
        row = fetch(conn, evaluation_sets, eval_set_id, "evaluation set", for_update=True)
        if "metadata" in changes:
            # Top-level keys replace: a set's metadata holds whole documents (field specs).
            changes["metadata"] = {**row.metadata, **changes["metadata"]}
        if changes:
            content_changed(conn, eval_set_id, **changes, updated_at=now(state))
        return set_public(conn, fetch(conn, evaluation_sets, eval_set_id, "evaluation set"))


@router.post("/evaluation-sets/{eval_set_id}/items", status_code=201, response_model=ItemPublic)
def create_item(eval_set_id: str, body: ItemCreate, state: State) -> ItemPublic:
    stamp = now(state)
    item_id = new_id("item")
    with state.engine.begin() as conn:
        fetch(conn, evaluation_sets, eval_set_id, "evaluation set")
        if conn.execute(select(files.c.id).where(files.c.id == body.file_id)).first() is None:
            raise ApiError(422, f"file_id: no file with id {body.file_id!r}.", param="file_id")
        conn.execute(
            insert(items).values(
                id=item_id,
                eval_set_id=eval_set_id,
                file_id=body.file_id,
                ground_truth=body.ground_truth,
                metadata=body.metadata,
                created_at=stamp,
                updated_at=stamp,
            )
        )
        content_changed(conn, eval_set_id, updated_at=stamp)
        return item_public(fetch(conn, items, item_id, "item"))


@router.get("/evaluation-sets/{eval_set_id}/items", response_model=ListOf[ItemPublic])
def list_items(
    eval_set_id: str, state: State, limit: Limit = 100, cursor: Cursor = None
) -> ListOf[ItemPublic]:
    with state.engine.connect() as conn:
        fetch(conn, evaluation_sets, eval_set_id, "evaluation set")
        rows, next_cursor = page(
            conn, items, [items.c.eval_set_id == eval_set_id], limit=limit, cursor=cursor
        )
    return ListOf[ItemPublic](data=[item_public(r) for r in rows], next_cursor=next_cursor)


@router.get("/evaluation-sets/{eval_set_id}/items/{item_id}", response_model=ItemPublic)
def get_item(eval_set_id: str, item_id: str, state: State) -> ItemPublic:
    with state.engine.connect() as conn:
        return item_public(fetch(conn, items, item_id, "item", eval_set_id=eval_set_id))


@router.patch("/evaluation-sets/{eval_set_id}/items/{item_id}", response_model=ItemPublic)
def update_item(eval_set_id: str, item_id: str, body: ItemUpdate, state: State) -> ItemPublic:
    with state.engine.begin() as conn:
        # Locked: concurrent merges into the same item apply one after another, none lost.
        row = fetch(conn, items, item_id, "item", for_update=True, eval_set_id=eval_set_id)
        changes: dict[str, Any] = {}
        if body.ground_truth is not None:
            changes["ground_truth"] = merge(row.ground_truth, body.ground_truth)
        if body.metadata is not None:
            changes["metadata"] = merge(row.metadata, body.metadata)
        if changes:
            conn.execute(
                update(items).where(items.c.id == item_id).values(**changes, updated_at=now(state))
            )
            content_changed(conn, eval_set_id)
        return item_public(fetch(conn, items, item_id, "item"))


@router.delete("/evaluation-sets/{eval_set_id}/items/{item_id}", response_model=DeletedPublic)
def delete_item(eval_set_id: str, item_id: str, state: State) -> DeletedPublic:
    with state.engine.begin() as conn:
        fetch(conn, items, item_id, "item", eval_set_id=eval_set_id)
        conn.execute(delete(items).where(items.c.id == item_id))
        content_changed(conn, eval_set_id)
    return DeletedPublic(id=item_id, object="evaluation_item")
