"""Files: multipart upload into the blob store, listing, content, permanent delete."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse
from sqlalchemy import Row
from starlette.datastructures import UploadFile

from fieldwise.service.http.dependencies import Cursor, Limit, common_fields, fetch
from fieldwise.service.http.errors import ApiError
from fieldwise.service.http.pagination import page
from fieldwise.service.http.schemas import DeletedPublic, ListOf
from fieldwise.service.http.unicode import refuse_lone_surrogates
from fieldwise.service.resources.files.ops import (
    delete_files,
    discard,
    require_multipart,
    store_file,
    store_upload,
    unlink,
)
from fieldwise.service.resources.files.schemas import FilePublic
from fieldwise.service.resources.files.tables import files
from fieldwise.service.state import State

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
    refuse_lone_surrogates(value, "metadata")
    return value


@router.post(
    "/files/upload", status_code=201, response_model=FilePublic, openapi_extra=_UPLOAD_SCHEMA
)
async def upload_file(request: Request, state: State) -> FilePublic:
    require_multipart(request, "parts: file, metadata")
    async with request.form(max_files=2, max_fields=8) as form:
        metadata = await _metadata_part(form.get("metadata"))
        stored = await store_upload(state, form.get("file"))

    def _insert() -> Row[Any]:
        try:
            with state.engine.begin() as conn:
                return store_file(
                    state,
                    conn,
                    blob=stored.blob,
                    filename=stored.filename,
                    content_type=stored.content_type,
                    purpose="upload",
                    metadata=metadata,
                )
        except BaseException:
            discard(state, stored.blob)
            raise

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
    try:  # bytes a power loss cut short are served as missing, never as the file
        path = state.blobs.check(row.sha256)
    except FileNotFoundError:
        raise ApiError(404, f"The content of file {file_id!r} is no longer stored.") from None
    return FileResponse(path, media_type=row.content_type, filename=row.filename)


@router.delete("/files/{file_id}", response_model=DeletedPublic)
def delete_file(file_id: str, state: State) -> DeletedPublic:
    with state.engine.begin() as conn:
        fetch(conn, files, file_id, "file")
        unused = delete_files(state, conn, [file_id])
    unlink(state, unused)
    return DeletedPublic(id=file_id, object="file")
