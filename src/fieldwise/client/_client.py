"""``Client`` and ``AsyncClient``: httpx with auth, typed errors, retries and pagination."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, TypeVar

import httpx

from fieldwise import __version__
from fieldwise._config import ClientSettings, client_settings
from fieldwise._errors import ClientError, ConfigError
from fieldwise.client import _ops as ops
from fieldwise.client._errors import map_transport_errors, status_error
from fieldwise.client._models import Deleted, EvaluationSet, File, Item, Page, Processor, Version
from fieldwise.client._ops import Op
from fieldwise.client._retry import RetryPolicy

T = TypeVar("T")


def _resolve(
    base_url: str | None, api_key: str | None, timeout: float | None, max_retries: int | None
) -> ClientSettings:
    settings = client_settings(
        base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries
    )
    if not settings.base_url:
        raise ConfigError("no service base URL: pass base_url or set FIELDWISE_BASE_URL")
    if not settings.api_key:
        raise ConfigError("no API key: pass api_key or set FIELDWISE_API_KEY")
    return settings


def _headers(api_key: str) -> dict[str, str]:
    return {"x-api-key": api_key, "user-agent": f"fieldwise/{__version__}"}


def _request_kwargs(op: Op[Any]) -> dict[str, Any]:
    return {
        "json": op.json,
        "params": op.params,
        "files": op.files,
        "data": op.data,
        "headers": dict(op.headers),
    }


def _check(op: Op[T], response: httpx.Response) -> T:
    if response.status_code >= 400:
        raise status_error(response)
    with map_transport_errors(op.describe()):
        return op.parse(response)


class Client:
    """Synchronous client. Configuration: arguments, else ``FIELDWISE_BASE_URL`` /
    ``FIELDWISE_API_KEY``. ``transport`` lets tests inject faults."""

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        settings = _resolve(base_url, api_key, timeout, max_retries)
        self.base_url = str(settings.base_url).rstrip("/")
        self.retry = RetryPolicy(max_retries=settings.max_retries)
        self._http = httpx.Client(
            base_url=self.base_url,
            headers=_headers(str(settings.api_key)),
            timeout=settings.timeout,
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def call(self, op: Op[T]) -> T:
        """Send ``op``, retrying what is safe to retry, and parse the answer."""
        attempt = 0
        while True:
            try:
                with map_transport_errors(op.describe()):
                    response = self._http.request(op.method, op.path, **_request_kwargs(op))
                return _check(op, response)
            except ClientError as error:
                wait = self.retry.delay(op, attempt, error)
                if wait is None:
                    raise
                time.sleep(wait)
                attempt += 1

    def paginate(self, make: Callable[[str | None], Op[Page[T]]]) -> Iterator[T]:
        """Every element of a list, following ``next_cursor``."""
        cursor: str | None = None
        while True:
            page = self.call(make(cursor))
            yield from page.data
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    # Convenience methods for the common calls; every route is reachable through ``call``.

    def upload_file(
        self,
        content: bytes | IO[bytes] | Path,
        *,
        filename: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> File:
        return self.call(ops.upload_file(content, filename=filename, metadata=metadata))

    def list_files(self) -> Iterator[File]:
        return self.paginate(lambda c: ops.list_files(limit=1000, cursor=c))

    def delete_file(self, file_id: str) -> Deleted:
        return self.call(ops.delete_file(file_id))

    def create_processor(self, name: str, *, description: str = "") -> Processor:
        return self.call(ops.create_processor(name, description=description))

    def list_processors(self) -> Iterator[Processor]:
        return self.paginate(lambda c: ops.list_processors(limit=1000, cursor=c))

    def get_processor(self, processor_id: str) -> Processor:
        return self.call(ops.get_processor(processor_id))

    def create_version(
        self, processor_id: str, config: Mapping[str, Any], *, description: str = ""
    ) -> Version:
        return self.call(ops.create_version(processor_id, config, description=description))

    def list_versions(self, processor_id: str) -> Iterator[Version]:
        return self.paginate(lambda c: ops.list_versions(processor_id, limit=1000, cursor=c))

    def publish_version(self, processor_id: str, version_id: str) -> Version:
        return self.call(ops.publish_version(processor_id, version_id))

    def create_evaluation_set(self, name: str, *, description: str = "") -> EvaluationSet:
        return self.call(ops.create_evaluation_set(name, description=description))

    def list_items(self, eval_set_id: str) -> Iterator[Item]:
        return self.paginate(lambda c: ops.list_items(eval_set_id, limit=1000, cursor=c))


class AsyncClient:
    """Asynchronous client with the same configuration, errors and retries as :class:`Client`.

    Use it with ops: ``await aclient.call(ops.get_processor("invoices"))``.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float | None = None,
        max_retries: int | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        max_connections: int = 100,
    ) -> None:
        settings = _resolve(base_url, api_key, timeout, max_retries)
        self.base_url = str(settings.base_url).rstrip("/")
        self.retry = RetryPolicy(max_retries=settings.max_retries)
        limits = httpx.Limits(
            max_connections=max_connections, max_keepalive_connections=max_connections
        )
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers=_headers(str(settings.api_key)),
            timeout=settings.timeout,
            transport=transport,
            limits=limits,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def call(self, op: Op[T]) -> T:
        """Send ``op``, retrying what is safe to retry, and parse the answer."""
        attempt = 0
        while True:
            try:
                with map_transport_errors(op.describe()):
                    response = await self._http.request(op.method, op.path, **_request_kwargs(op))
                return _check(op, response)
            except ClientError as error:
                wait = self.retry.delay(op, attempt, error)
                if wait is None:
                    raise
                await asyncio.sleep(wait)
                attempt += 1

    async def paginate(self, make: Callable[[str | None], Op[Page[T]]]) -> AsyncIterator[T]:
        """Every element of a list, following ``next_cursor``."""
        cursor: str | None = None
        while True:
            page = await self.call(make(cursor))
            for element in page.data:
                yield element
            if not page.next_cursor:
                return
            cursor = page.next_cursor
