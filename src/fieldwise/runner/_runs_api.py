"""The processor-run calls the runner makes, in one place.

TEMPORARY: private ops for ``/processors/{id}/runs`` until the runs ops land in
``fieldwise.client.ops``; then this module delegates to them and shrinks to the view below.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from fieldwise.client import AsyncClient, ops
from fieldwise.client.ops import Op

TERMINAL = frozenset({"succeeded", "failed", "canceled"})


@dataclass(frozen=True)
class RunView:
    """The fields of a processor run the runner reads."""

    id: str
    status: str
    output: dict[str, Any] | None
    output_uri: str | None
    failure_reason: str | None
    failure_message: str | None

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunView:
        output = data.get("output")
        return cls(
            id=str(data["id"]),
            status=str(data["status"]),
            output=output if isinstance(output, dict) else None,
            output_uri=data.get("output_uri"),
            failure_reason=data.get("failure_reason"),
            failure_message=data.get("failure_message"),
        )


def _seg(value: str) -> str:
    return quote(value, safe="")


def _run(response: httpx.Response) -> RunView:
    return RunView.from_json(response.json())


async def create_run(
    aclient: AsyncClient, processor_id: str, input_path: str, version_id: str
) -> RunView:
    op = Op(
        "POST",
        f"/processors/{_seg(processor_id)}/runs",
        _run,
        json={"input_path": input_path, "params": {"version_id": version_id}},
    )
    return await aclient.call(op)


async def get_run(aclient: AsyncClient, processor_id: str, run_id: str) -> RunView:
    return await aclient.call(
        Op("GET", f"/processors/{_seg(processor_id)}/runs/{_seg(run_id)}", _run)
    )


async def cancel_run(aclient: AsyncClient, processor_id: str, run_id: str) -> RunView:
    return await aclient.call(
        Op("POST", f"/processors/{_seg(processor_id)}/runs/{_seg(run_id)}/cancel", _run)
    )


def output_file_id(output_uri: str) -> str:
    """The file id at the end of ``{base_url}/files/{file_id}``."""
    return urlsplit(output_uri).path.rstrip("/").rsplit("/", 1)[-1]


async def fetch_output(aclient: AsyncClient, output_uri: str) -> Any:
    """A run's output stored as a file, fetched through the API (not the URI's host: a
    service behind a proxy may report a base URL the client does not use)."""
    content = await aclient.call(ops.get_file_content(output_file_id(output_uri)))
    return json.loads(content)
