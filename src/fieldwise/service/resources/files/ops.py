"""Operations on files other resources use: store a blob's row, take an upload, delete with
everything derived, unlink unused blobs after commit.

Two locks keep derived content and shared blobs right under concurrency. A file derived from
another is only inserted while its parent's row is locked and still there (a delete locks the
rows it removes first), so nothing derived outlives a delete that raced with its producer.
Adding a reference to a blob (and renaming its bytes into place) and unlinking a blob nobody
refers to any more both hold the blob's lock, so a delete never unlinks the bytes of a
concurrent upload of the same content."""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import Connection, Row, bindparam, delete, func, insert, select
from starlette.datastructures import UploadFile

from fieldwise.service.http.errors import ApiError
from fieldwise.service.ids import new_id
from fieldwise.service.resources.files.tables import files
from fieldwise.service.state import ServiceState, now
from fieldwise.service.store.blobs import BlobTooLarge, StagedBlob
from fieldwise.service.store.locks import lock_blob, lock_row, lock_rows
from fieldwise.service.store.prepared import prepared


class ParentGone(Exception):
    """The file a new file would derive from was deleted meanwhile: store nothing."""


def safe_filename(name: str | None) -> str:
    """The last path component only, so a name can never point outside anything."""
    if not name:
        return "upload"
    base = PurePosixPath(PureWindowsPath(name).name).name.strip().replace("\x00", "")
    return base[:255] if base not in ("", ".", "..") else "upload"


def store_file(
    state: ServiceState,
    conn: Connection,
    *,
    blob: StagedBlob,
    filename: str,
    content_type: str,
    purpose: str,
    metadata: dict[str, Any],
    derived_from: str | None = None,
) -> Row[Any]:
    """Insert a file row for staged bytes and put them in place (in the caller's transaction).

    Raises ParentGone when ``derived_from`` no longer exists. When the transaction does not
    commit, the caller hands ``blob`` to :func:`discard`."""
    if derived_from is not None and lock_row(conn, files, files.c.id == derived_from) is None:
        raise ParentGone(derived_from)
    lock_blob(conn, blob.sha256)
    stamp = now(state)
    file_id = new_id("file")
    # The new row from the INSERT itself (RETURNING: SQLite >= 3.35 and PostgreSQL, the two
    # databases the service runs on), not a second statement.
    params = {
        "id": file_id,
        "filename": filename,
        "content_type": content_type,
        "size": blob.size,
        "sha256": blob.sha256,
        "purpose": purpose,
        "derived_from": derived_from,
        "metadata": metadata,
        "created_at": stamp,
        "updated_at": stamp,
    }
    insert_file = prepared(
        conn,
        "files.insert",
        lambda: (
            insert(files)
            .values(**{name: bindparam(f"p_{name}") for name in params})
            .returning(*files.c)
        ),
    )
    stored = conn.execute(insert_file, {f"p_{name}": v for name, v in params.items()}).one()
    state.blobs.place(blob)
    return stored


@dataclass(frozen=True)
class StoredUpload:
    """An uploaded part staged in the blob store (placed by :func:`store_file`)."""

    blob: StagedBlob
    filename: str
    content_type: str


def require_multipart(request: Request, hint: str) -> None:
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise ApiError(415, f"Send multipart/form-data ({hint}).")


async def store_upload(state: ServiceState, part: object) -> StoredUpload:
    """Stream the ``file`` part into the blob store (413 past the upload limit)."""
    return await run_in_threadpool(stage_upload, state, part)


def stage_upload(state: ServiceState, part: object) -> StoredUpload:
    """:func:`store_upload` for a caller already on a worker thread."""
    if not isinstance(part, UploadFile):
        raise ApiError(422, "file: a multipart part named 'file' is required.", param="file")
    try:
        blob = state.blobs.stage_stream(part.file, state.settings.max_upload_bytes)
    except BlobTooLarge:
        raise ApiError(
            413,
            f"file: larger than the upload limit ({state.settings.max_upload_mb:g} MB).",
            param="file",
        ) from None
    filename = safe_filename(part.filename)
    mime = part.content_type or ""
    if not mime or mime == "application/octet-stream":
        mime = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    return StoredUpload(blob, filename, mime)


def delete_files(state: ServiceState, conn: Connection, file_ids: list[str]) -> list[str]:
    """Delete file rows, everything derived from them, and blobs no other file uses.

    Returns the sha256 of blobs to unlink once the transaction has committed.
    """
    doomed: set[str] = set()
    # Locked before the derived ones are looked up: a producer about to add a file derived from
    # one of these either committed it already (found below) or finds its parent gone.
    frontier = [r.id for r in lock_rows(conn, files, files.c.id.in_(file_ids))]
    while frontier:
        doomed.update(frontier)
        derived = lock_rows(conn, files, files.c.derived_from.in_(frontier))
        frontier = [r.id for r in derived if r.id not in doomed]
    shas = {r.sha256 for r in conn.execute(select(files.c.sha256).where(files.c.id.in_(doomed)))}
    conn.execute(delete(files).where(files.c.id.in_(doomed)))
    still_used = {
        r.sha256
        for r in conn.execute(
            select(files.c.sha256, func.count())
            .where(files.c.sha256.in_(shas))
            .group_by(files.c.sha256)
        )
    }
    return sorted(shas - still_used)


def unlink(state: ServiceState, shas: list[str]) -> None:
    """Remove blobs :func:`delete_files` reported unused (after its transaction committed),
    each under its lock and only if still unreferenced: an upload of the same content may have
    added a reference since."""
    if not shas:
        return
    with state.engine.begin() as conn:
        for sha in sorted(set(shas)):  # one order, so two unlinkers never deadlock
            lock_blob(conn, sha)
            used = conn.execute(select(files.c.id).where(files.c.sha256 == sha).limit(1)).first()
            if used is None:
                state.blobs.delete(sha)


def discard(state: ServiceState, blob: StagedBlob) -> None:
    """Drop ``blob`` after the transaction that was to store it did not commit: the staged
    bytes, and the placed blob too unless some file refers to it."""
    state.blobs.discard(blob)
    unlink(state, [blob.sha256])
