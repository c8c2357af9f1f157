"""``input_path`` of a run: a file id, ``{base_url}/files/{file_id}``, or ``file://`` under a
root the operator allowed (``--allow-file-root``). Anything else is a 422."""

from __future__ import annotations

import mimetypes
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from sqlalchemy import Connection, Row, select

from fieldwise.service.http.errors import ApiError
from fieldwise.service.resources.files.ops import store_file
from fieldwise.service.resources.files.tables import files
from fieldwise.service.state import ServiceState
from fieldwise.service.store.blobs import BlobTooLarge

_FILE_ID = re.compile(r"file_[0-9a-z]{1,60}")
_FILE_URL = re.compile(r"/files/(file_[0-9a-z]{1,60})/?(?:content)?$")


def _bad(message: str) -> ApiError:
    return ApiError(422, f"input_path: {message}", param="input_path")


def _file_row(conn: Connection, file_id: str) -> Row[Any]:
    row = conn.execute(select(files).where(files.c.id == file_id)).first()
    if row is None:
        raise _bad(f"no file with id {file_id!r}")
    return row


def _allowed_path(state: ServiceState, url: str) -> Path:
    parts = urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        raise _bad("file:// paths must be local (file:///path)")
    raw = unquote(parts.path)
    if not raw.startswith("/") or "\x00" in raw:
        raise _bad("file:// paths must be absolute")
    if ".." in Path(raw).parts:
        raise _bad("'..' is not allowed in file:// paths")
    target = Path(raw).resolve()
    for root in state.settings.allowed_file_roots:
        if target.is_relative_to(root.resolve()):
            if not target.is_file():
                raise _bad(f"{raw} is not a file")
            return target
    raise _bad(f"{raw} is not under a folder the operator allowed (--allow-file-root)")


def resolve_input(
    state: ServiceState, conn: Connection, input_path: str, base_url: str
) -> Row[Any]:
    """The files row a run reads; ``file://`` documents are copied into the blob store."""
    value = input_path.strip()
    if _FILE_ID.fullmatch(value):
        return _file_row(conn, value)
    if value.startswith(("http://", "https://")):
        match = _FILE_URL.search(urlsplit(value).path)
        if value.startswith(base_url + "/") and match:
            return _file_row(conn, match.group(1))
        raise _bad(f"URLs must be files of this service ({base_url}/files/<file_id>)")
    if value.startswith("file://"):
        if not state.settings.allowed_file_roots:
            raise _bad("file:// paths are disabled (the operator allowed no file roots)")
        path = _allowed_path(state, value)
        try:
            with path.open("rb") as stream:
                blob = state.blobs.stage_stream(stream, state.settings.max_upload_bytes)
        except BlobTooLarge:
            raise ApiError(413, "input_path: the file is larger than the upload limit.") from None
        except OSError as exc:
            raise _bad(f"cannot read {path}: {exc.strerror}") from None
        try:
            return store_file(
                state,
                conn,
                blob=blob,
                filename=path.name,
                content_type=mimetypes.guess_type(path.name)[0] or "application/octet-stream",
                purpose="input",
                metadata={"source": value},
            )
        finally:
            state.blobs.discard(blob)  # the staged copy, if store_file did not place it
    raise _bad("expected a file id, {base_url}/files/<file_id>, or a file:// path")
