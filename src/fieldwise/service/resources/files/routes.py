"""Files: multipart upload into the blob store, listing, content, permanent delete."""

from __future__ import annotations

import json
import mimetypes
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse
from sqlalchemy import Connection, Row, delete, func, insert, select
from starlette.datastructures import UploadFile

from fieldwise.service.http.dependencies import Cursor, Limit, State, common_fields, fetch, now
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.pagination import page
from fieldwise.service.http.schemas import DeletedPublic, FilePublic, ListOf
from fieldwise.service.ids import new_id
from fieldwise.service.state import ServiceState
from fieldwise.service.store.blobs import BlobTooLarge
from fieldwise.service.store.columns import files

router = APIRouter(tags=["files"])

_UPLOAD_SCHEMA = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    # The file and at most 8 text parts (request.form max_fields), else 400.
                    "maxProperties": 9,
                    "properties": {
                        "file": {"type": "string", "format": "binary"},
                        "metadata": {
                            "type": "string",
                            "description": "A JSON object, as a text part or a part typed "
                            "application/json.",
                        },
                    },
                }
            }
        },
    }
}


def file_public(row: Row[Any]) -> FilePublic:
    return FilePublic(
        **common_fields(row),
        filename=row.filename,
        content_type=row.content_type,
        size=row.size,
        sha256=row.sha256,
        purpose=row.purpose,
        derived_from=row.derived_from,
        metadata=row.metadata,
    )


def safe_filename(name: str | None) -> str:
    """The last path component only, so a name can never point outside anything."""
    if not name:
        return "upload"
    base = PurePosixPath(PureWindowsPath(name).name).name.strip().replace("\x00", "")
    return base[:255] if base not in ("", ".", "..") else "upload"


async def _metadata_part(part: UploadFile | str | None) -> dict[str, Any]:
    if part is None:
        return {}
    raw: str | bytes = await part.read() if isinstance(part, UploadFile) else part
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(422, "metadata: must be a JSON object.", param="metadata") from None
    if not isinstance(value, dict):
        raise ApiError(422, "metadata: must be a JSON object.", param="metadata")
    return value


def store_file(
    state: ServiceState,
    conn: Connection,
    *,
    sha256: str,
    size: int,
    filename: str,
    content_type: str,
    purpose: str,
    metadata: dict[str, Any],
    derived_from: str | None = None,
) -> Row[Any]:
    """Insert a file row for a blob already in the store."""
    stamp = now(state)
    file_id = new_id("file")
    conn.execute(
        insert(files).values(
            id=file_id,
            filename=filename,
            content_type=content_type,
            size=size,
            sha256=sha256,
            purpose=purpose,
            derived_from=derived_from,
            metadata=metadata,
            created_at=stamp,
            updated_at=stamp,
        )
    )
    return fetch(conn, files, file_id, "file")


@dataclass(frozen=True)
class StoredUpload:
    """An uploaded part already written to the blob store."""

    sha256: str
    size: int
    filename: str
    content_type: str


def require_multipart(request: Request, hint: str) -> None:
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise ApiError(415, f"Send multipart/form-data ({hint}).")


async def store_upload(state: ServiceState, part: object) -> StoredUpload:
    """Stream the ``file`` part into the blob store (413 past the upload limit)."""
    if not isinstance(part, UploadFile):
        raise ApiError(422, "file: a multipart part named 'file' is required.", param="file")
    try:
        sha, size = await run_in_threadpool(
            state.blobs.put_stream, part.file, state.settings.max_upload_bytes
        )
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
    return StoredUpload(sha, size, filename, mime)


@router.post(
    "/files/upload", status_code=201, response_model=FilePublic, openapi_extra=_UPLOAD_SCHEMA
)
async def upload_file(request: Request, state: State) -> FilePublic:
    require_multipart(request, "parts: file, metadata")
    async with request.form(max_files=2, max_fields=8) as form:
        metadata = await _metadata_part(form.get("metadata"))
        stored = await store_upload(state, form.get("file"))

    def _insert() -> Row[Any]:
        with state.engine.begin() as conn:
            return store_file(
                state,
                conn,
                sha256=stored.sha256,
                size=stored.size,
                filename=stored.filename,
                content_type=stored.content_type,
                purpose="upload",
                metadata=metadata,
            )

    return file_public(await run_in_threadpool(_insert))


@router.get("/files", response_model=ListOf[FilePublic])
def list_files(state: State, limit: Limit = 100, cursor: Cursor = None) -> ListOf[FilePublic]:
    with state.engine.connect() as conn:
        rows, next_cursor = page(conn, files, [], limit=limit, cursor=cursor)
    return ListOf[FilePublic](data=[file_public(r) for r in rows], next_cursor=next_cursor)


@router.get("/files/{file_id}", response_model=FilePublic)
def get_file(file_id: str, state: State) -> FilePublic:
    with state.engine.connect() as conn:
        return file_public(fetch(conn, files, file_id, "file"))


@router.get(
    "/files/{file_id}/content",
    response_class=FileResponse,
    responses={
        200: {
            "description": "The stored bytes, served with the content type they were stored with.",
            "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}},
        }
    },
)
def get_file_content(file_id: str, state: State) -> FileResponse:
    with state.engine.connect() as conn:
        row = fetch(conn, files, file_id, "file")
    path = state.blobs.path(row.sha256)
    if not path.is_file():
        raise ApiError(404, f"The content of file {file_id!r} is no longer stored.")
    return FileResponse(path, media_type=row.content_type, filename=row.filename)


def delete_files(state: ServiceState, conn: Connection, file_ids: list[str]) -> list[str]:
    """Delete file rows, everything derived from them, and blobs no other file uses.

    Returns the sha256 of blobs to unlink once the transaction has committed.
    """
    doomed: set[str] = set()
    frontier = list(file_ids)
    while frontier:
        doomed.update(frontier)
        derived = conn.execute(select(files.c.id).where(files.c.derived_from.in_(frontier)))
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


@router.delete("/files/{file_id}", response_model=DeletedPublic)
def delete_file(file_id: str, state: State) -> DeletedPublic:
    with state.engine.begin() as conn:
        fetch(conn, files, file_id, "file")
        unused = delete_files(state, conn, [file_id])
    for sha in unused:
        state.blobs.delete(sha)
    return DeletedPublic(id=file_id, object="file")
