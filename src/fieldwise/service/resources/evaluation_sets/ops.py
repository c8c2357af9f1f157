"""Operations on evaluation sets that other parts of the service (the console) call."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import Connection, Engine, Text, cast, func, select, update

from fieldwise.service.http.dependencies import common_fields, fetch
from fieldwise.service.http.pagination import page
from fieldwise.service.resources.evaluation_sets.schemas import EvaluationSetPublic
from fieldwise.service.resources.evaluation_sets.tables import evaluation_sets, items
from fieldwise.service.resources.files.tables import files


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
            revision=revision_of(row),
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


def content_changed(conn: Connection, eval_set_id: str, **values: Any) -> None:
    """Record, in the transaction of a write to the set or its items, that its content
    changed: one more revision, and the kept digest dropped (``values``: other columns to set,
    such as ``updated_at``). Every such write calls this, so a digest kept for a revision
    describes exactly what the set held at that revision."""
    conn.execute(
        update(evaluation_sets)
        .where(evaluation_sets.c.id == eval_set_id)
        .values(
            content_revision=func.coalesce(evaluation_sets.c.content_revision, 0) + 1,
            content_digest=None,
            **values,
        )
    )


def revision_of(row: Any) -> int:
    """How many writes the set and its items have seen (0 for a set older than the count)."""
    return int(row.content_revision or 0)


def tagged_set(conn: Connection, eval_set_id: str) -> tuple[Any, str | None]:
    """The set's row and its strong ``ETag``, which describes that row's revision: equal tags
    mean equal content (name, description, metadata, and every item's id, file, ground truth
    and metadata), whatever the clock did, so a client that synced the set can tell "nothing
    changed" from one GET. None (no tag) only while writers keep moving the set.

    The digest is kept in the set's row once computed, so a set that did not change answers
    without reading its items: computing it takes tens of milliseconds for 10,000 items. An
    item whose file was deleted (``DELETE /files/{id}``: the set's rows unchanged) changes the
    tag too, checked on every request, since a sync must then replace the item."""
    for _ in range(_ATTEMPTS):
        row = fetch(conn, evaluation_sets, eval_set_id, "evaluation set")
        digest = row.content_digest or keep_digest(conn, row)
        if digest is not None:
            return row, _with_missing_files(conn, eval_set_id, digest)
    return row, None


#: Reads of a set whose revision moved under them before the tag is given up for this request.
_ATTEMPTS = 3


def keep_digest(conn: Connection, row: Any) -> str | None:
    """Digest the set as of ``row`` and keep it; None when a write came in between.

    The head is the row's; the items are read after it, and the digest is stored only while
    the revision is still the row's. Writers add to the revision in the transaction that
    changes the items, so a revision unchanged from the row's read to the store means no
    write committed in between: the items read are the row's, on SQLite (each statement its
    own snapshot) and PostgreSQL (read committed) alike."""
    digest = _content_digest(conn, row)
    kept = conn.execute(
        update(evaluation_sets)
        .where(
            evaluation_sets.c.id == row.id,
            func.coalesce(evaluation_sets.c.content_revision, 0) == revision_of(row),
        )
        .values(content_digest=digest)
    )
    conn.commit()
    return digest if kept.rowcount == 1 else None


def _content_digest(conn: Connection, row: Any) -> str:
    """SHA-256 of the set's head and its items in id order.

    Items are digested as stored (the JSON columns' text, cast in SQL): decoding and encoding
    them again took about 0.5 s for 10,000 items, and the same text is the same content. A
    write that stores equal content as other text changes the tag, which only sends the next
    sync down its full path."""
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
    return digest.hexdigest()


def _with_missing_files(conn: Connection, eval_set_id: str, digest: str) -> str:
    """The tag: the content digest, folded with the ids of items whose file is gone."""
    query = (
        select(items.c.id)
        .select_from(items.outerjoin(files, files.c.id == items.c.file_id))
        .where(items.c.eval_set_id == eval_set_id, files.c.id.is_(None))
        .order_by(items.c.id)
    )
    missing = [item_id for (item_id,) in conn.execute(query)]
    if missing:
        folded = "\n".join([digest, *missing]).encode()
        digest = hashlib.sha256(folded).hexdigest()
    return f'"{digest}"'
