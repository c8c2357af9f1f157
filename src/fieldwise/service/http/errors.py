"""The service's error body and the handlers that produce it for every failure path.

Every 4xx/5xx answers ``{"error": {"code", "message", "param", "retryable", "request_id"}}``.
"""

from __future__ import annotations

import errno
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("fieldwise.service")

_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
    500: "internal_error",
    503: "unavailable",
    507: "insufficient_storage",
}


class ErrorDetail(BaseModel):
    code: str
    message: str
    param: str | None
    retryable: bool
    request_id: str | None


class ErrorBody(BaseModel):
    """The body of every 4xx/5xx answer, documented on every operation of the OpenAPI schema."""

    error: ErrorDetail


# Every operation may answer these (auth, unknown ids, state, size, type, validation, rate limit,
# storage trouble); documenting them all keeps the schema true for any route added later.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": _CODES[status].replace("_", " ")}
    for status in (400, 401, 403, 404, 405, 408, 409, 413, 415, 422, 429, 503, 507)
}


class ApiError(Exception):
    """Raised by routes to answer with the error body."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        code: str | None = None,
        param: str | None = None,
        retryable: bool | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code or _CODES.get(status, "error")
        self.param = param
        self.retryable = retryable if retryable is not None else status in (429, 503)
        self.headers = headers or {}


def not_found(kind: str, ident: str, param: str | None = None) -> ApiError:
    return ApiError(404, f"No {kind} with id {ident!r}.", param=param)


def error_body(
    status: int,
    message: str,
    request_id: str | None,
    *,
    code: str | None = None,
    param: str | None = None,
    retryable: bool = False,
) -> dict[str, Any]:
    return {
        "error": {
            "code": code or _CODES.get(status, "error"),
            "message": message,
            "param": param,
            "retryable": retryable,
            "request_id": request_id,
        }
    }


def request_id_of(request: Request) -> str | None:
    return getattr(request.state, "request_id", None)


def _loc_to_param(loc: tuple[Any, ...]) -> str | None:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or None


# Storage that is full or read-only: the request changed nothing (its transaction rolled back,
# blobs are written to a temporary file first), so the caller may retry once there is room.
_STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG})
_STORAGE_MARKERS = ("disk is full", "readonly database", "read-only file system")


def _storage_full(request: Request, detail: str) -> JSONResponse:
    log.error("storage unavailable on %s %s: %s", request.method, request.url.path, detail)
    message = f"The service cannot store data right now ({detail}); nothing was changed."
    body = error_body(507, message, request_id_of(request), retryable=True)
    return JSONResponse(body, status_code=507)


def install_error_handlers(app: FastAPI) -> None:
    """Route every exception path through the one error body."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        body = error_body(
            exc.status,
            exc.message,
            request_id_of(request),
            code=exc.code,
            param=exc.param,
            retryable=exc.retryable,
        )
        return JSONResponse(body, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "invalid request", "type": ""}
        if first.get("type") == "json_invalid":
            body = error_body(400, "Malformed JSON body.", request_id_of(request))
            return JSONResponse(body, status_code=400)
        param = _loc_to_param(tuple(first.get("loc", ())))
        message = f"{param}: {first.get('msg')}" if param else str(first.get("msg"))
        if len(errors) > 1:
            message += f" (and {len(errors) - 1} more)"
        body = error_body(422, message, request_id_of(request), param=param)
        return JSONResponse(body, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "Request failed."
        if exc.status_code == 404 and message == "Not Found":
            message = f"No route for {request.method} {request.url.path}."
        body = error_body(exc.status_code, message, request_id_of(request))
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(OSError)
    async def _os_error(request: Request, exc: OSError) -> JSONResponse:
        if exc.errno not in _STORAGE_ERRNOS:
            return await _unexpected(request, exc)
        return _storage_full(request, exc.strerror or str(exc))

    @app.exception_handler(OperationalError)
    async def _db_error(request: Request, exc: OperationalError) -> JSONResponse:
        text = str(exc.orig).lower()
        if not any(marker in text for marker in _STORAGE_MARKERS):
            return await _unexpected(request, exc)
        return _storage_full(request, str(exc.orig))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        body = error_body(500, "Internal error.", request_id_of(request), retryable=True)
        return JSONResponse(body, status_code=500)
