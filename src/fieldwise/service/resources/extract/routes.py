"""``POST /extract/path`` (spec endpoint 12): an extraction answered in the same request.

The run is an ordinary queued processor run (with ``processor_id`` and optional ``version_id``,
or a generic key/value extraction without a processor); the request waits for it up to
``wait_seconds`` (default and maximum 30). Finished in time: 200 with the run; otherwise 202
with the run to poll at ``GET /extract/runs/{run_id}``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from fieldwise.service.http.errors import ApiError, not_found
from fieldwise.service.resources.runs.lifecycle import RUNS
from fieldwise.service.resources.runs.ops_submit import submit_and_hold
from fieldwise.service.resources.runs.schemas import ExtractPathCreate, ProcessorRunPublic
from fieldwise.service.resources.runs.views import run_public
from fieldwise.service.run_states import TERMINAL
from fieldwise.service.state import ServiceState, State

router = APIRouter(tags=["extract"])

MAX_WAIT_SECONDS = 30.0


def _load(state: ServiceState, run_id: str) -> Any:
    with state.engine.connect() as conn:
        return RUNS.get(conn, run_id)


@router.post(
    "/extract/path",
    response_model=ProcessorRunPublic,
    responses={202: {"model": ProcessorRunPublic, "description": "Still running: poll it."}},
)
async def extract_path(
    body: ExtractPathCreate,
    request: Request,
    state: State,
    wait_seconds: Annotated[
        float, Query(ge=0, le=MAX_WAIT_SECONDS, description="How long to wait (0-30 s).")
    ] = MAX_WAIT_SECONDS,
) -> Any:
    """Extract from ``input_path`` with a processor (its published version, or ``version_id``)
    or, without ``processor_id``, generic "Label: value" pairs. 200 with the finished run;
    202 with the run if it takes longer than ``wait_seconds``."""
    if body.version_id is not None and body.processor_id is None:
        raise ApiError(422, "version_id: needs a processor_id.", param="version_id")
    base_url = state.base_url(request)

    created, row = await submit_and_hold(
        state,
        wait_seconds,
        processor_id=body.processor_id,
        version_id=body.version_id,
        input_path=body.input_path,
        params={"version_id": body.version_id} if body.version_id else {},
        base_url=base_url,
    )
    if row is None:
        raise not_found("run", created.id)
    public = run_public(row)
    if row.status in TERMINAL:
        return public
    return JSONResponse(public.model_dump(mode="json"), status_code=202)


@router.get("/extract/runs/{run_id}", response_model=ProcessorRunPublic)
def get_extract_run(run_id: str, state: State) -> ProcessorRunPublic:
    """Any processor run by id, such as one ``/extract/path`` answered with 202."""
    row = _load(state, run_id)
    if row is None:
        raise not_found("run", run_id)
    return run_public(row)
