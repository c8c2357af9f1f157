"""Operations on evaluation sets that other parts of the service (the console) call."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import Connection, Engine, Text, cast, func, select

from fieldwise.service.http.dependencies import common_fields, fetch
from fieldwise.service.http.pagination import page
from fieldwise.service.resources.evaluation_sets.schemas import EvaluationSetPublic
from fieldwise.service.resources.evaluation_sets.tables import evaluation_sets, items


def _item_counts(conn: Connection, set_ids: list[str]) -> dict[str, int]:
    """Item counts of several sets in one grouped query (a list page costs one, not N)."""
    query = (
        select(items.c.eval_set_id, func.count())
        .where(items.c.eval_set_id.in_(set_ids))
        .group_by(items.c.eval_set_id)
    )
    return {set_id: int(count) for set_id, count in conn.execute(query)}


def sets_public(conn: Connection, rows: list[Any]) -> list[EvaluationSetPublic]:
    counts = _item_counts(conn, [row.id for row in rows])
    return [
        EvaluationSetPublic(
            **common_fields(row),
            name=row.name,
            description=row.description,
            metadata=row.metadata,
            item_count=counts.get(row.id, 0),
        )
        for row in rows
    ]


def list_sets(
    engine: Engine, *, limit: int, cursor: str | None
) -> tuple[list[EvaluationSetPublic], str | None]:
    with engine.connect() as conn:
        rows, next_cursor = page(conn, evaluation_sets, [], limit=limit, cursor=cursor)
        return sets_public(conn, list(rows)), next_cursor


def get_set(engine: Engine, eval_set_id: str) -> EvaluationSetPublic:
    with engine.connect() as conn:
        return sets_public(conn, [fetch(conn, evaluation_sets, eval_set_id, "evaluation set")])[0]


def content_etag(conn: Connection, row: Any) -> str:
    """A strong ETag of what a set holds: its name, description and metadata, and every item's
    id, file, ground truth and metadata. Equal tags mean equal content, whatever the clock did
    (a client that synced the set can tell "nothing changed" from one GET).

    Items are digested as stored (the JSON columns' text, cast in SQL): decoding and encoding
    them again took about 0.5 s for 10,000 items, most of a re-sync's budget, and the same
    text is the same content. A write that stores equal content as other text changes the tag,
    which only sends the next sync down its full path."""
    digest = hashlib.sha256()
    head = [row.name, row.description, row.metadata]
    digest.update(json.dumps(head, sort_keys=True, separators=(",", ":")).encode())
    query = (
        select(
            items.c.id,
            items.c.file_id,
            cast(items.c.ground_truth, Text),
            cast(items.c.metadata, Text),
        )
        .where(items.c.eval_set_id == row.id)
        .order_by(items.c.id)
    )
    for item_id, file_id, ground_truth, metadata in conn.execute(query):
        # Neither NUL nor a newline occurs raw in an id or in JSON text (escaped there): one
        # record per line, its fields apart.
        line = "\0".join((item_id, file_id, ground_truth, metadata)) + "\n"
        digest.update(line.encode("utf-8", "surrogatepass"))
    return f'"{digest.hexdigest()}"'
