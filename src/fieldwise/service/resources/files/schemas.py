"""Wire models of files."""

from __future__ import annotations

from typing import Any, Literal

from fieldwise.service.http.schemas import Resource


class FilePublic(Resource):
    object: Literal["file"] = "file"
    filename: str
    content_type: str
    size: int
    sha256: str
    purpose: str
    derived_from: str | None
    metadata: dict[str, Any]
