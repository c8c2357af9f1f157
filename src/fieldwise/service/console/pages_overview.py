"""Overview pages: processors and their versions (publish behind a confirmation), recent runs,
evaluation sets and their evaluation runs with scores."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from fieldwise.service.console.guard import Posted, SignedIn
from fieldwise.service.console.sessions import Session
from fieldwise.service.console.web import (
    PAGE_SIZE,
    PREFIX,
    ConsoleDep,
    redirect,
    render,
    render_list,
)
from fieldwise.service.resources.evaluation_runs.ops import list_evaluation_runs
from fieldwise.service.resources.evaluation_sets.ops import get_set, list_sets
from fieldwise.service.resources.processors import ops as processors
from fieldwise.service.resources.runs.ops import recent_runs

router = APIRouter(prefix=PREFIX, include_in_schema=False)

#: The headline figures of an evaluation run's metrics, in the order the page shows them.
SCORES = ("accuracy", "precision", "recall", "f1", "all_fields_correct_rate")


def scores(metrics: dict[str, Any] | None) -> list[tuple[str, str]]:
    """(name, formatted value) of the headline numeric metrics an evaluation run reports."""
    if not metrics:
        return []
    shown = [name for name in SCORES if isinstance(metrics.get(name), int | float)]
    return [(name.replace("_", " "), f"{float(metrics[name]):.3f}") for name in shown]


@router.get("/processors", response_class=HTMLResponse)
def processors_page(
    request: Request, console: ConsoleDep, session: SignedIn, cursor: str | None = None
) -> Response:
    rows, next_cursor = processors.list_processors(
        console.state.engine, limit=PAGE_SIZE, cursor=cursor
    )
    return render_list(
        request,
        "processors.html",
        session=session,
        processors=rows,
        cursor=cursor,
        next_cursor=next_cursor,
    )


@router.get("/processors/{processor_id}", response_class=HTMLResponse)
def processor_page(
    processor_id: str,
    request: Request,
    console: ConsoleDep,
    session: SignedIn,
    cursor: str | None = None,
) -> Response:
    engine = console.state.engine
    processor = processors.get_processor(engine, processor_id)
    versions, next_cursor = processors.list_versions(
        engine, processor_id, limit=PAGE_SIZE, cursor=cursor
    )
    return render_list(
        request,
        "processor.html",
        session=session,
        processor=processor,
        versions=versions,
        cursor=cursor,
        next_cursor=next_cursor,
    )


def _publish_page(
    request: Request,
    console: ConsoleDep,
    session: Session,
    processor_id: str,
    version_id: str,
    *,
    error: str | None = None,
) -> Response:
    engine = console.state.engine
    processor = processors.get_processor(engine, processor_id)
    version = processors.get_version(engine, processor_id, version_id)
    return render(
        request,
        "publish.html",
        status=422 if error else 200,
        session=session,
        processor=processor,
        version=version,
        failed=processors.failed_verdict(version),
        error=error,
    )


def confirmed(typed: str, number: int, version_id: str) -> bool:
    """Whether ``typed`` names the version: its number (``3`` or ``v3``) or its id."""
    typed = typed.strip()
    return typed in (str(number), f"v{number}", version_id)


def who(session: Session) -> str:
    """The record of who acted in the console: the session and the key it signed in with."""
    return f"console session {session.id} (key {session.key_id or 'operator'})"


@router.get("/processors/{processor_id}/versions/{version_id}/publish", response_class=HTMLResponse)
def confirm_publish(
    processor_id: str, version_id: str, request: Request, console: ConsoleDep, session: SignedIn
) -> Response:
    return _publish_page(request, console, session, processor_id, version_id)


@router.post("/processors/{processor_id}/versions/{version_id}/publish")
def publish(
    processor_id: str,
    version_id: str,
    request: Request,
    console: ConsoleDep,
    session: Posted,
    confirm: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """Publish; a version whose last verdict is not a pass needs its number typed, and the
    override (this session, now, that verdict) is recorded on it and in the publish event."""
    version = processors.get_version(console.state.engine, processor_id, version_id)
    if processors.failed_verdict(version) and not confirmed(confirm, version.number, version.id):
        problem = f"Type {version.number} (the version's number) to publish it despite its verdict."
        return _publish_page(request, console, session, processor_id, version_id, error=problem)
    processors.publish_version(console.state, processor_id, version_id, by=who(session))
    return redirect(f"/processors/{processor_id}?published={version_id}")


@router.get("/runs", response_class=HTMLResponse)
def runs_page(
    request: Request,
    console: ConsoleDep,
    session: SignedIn,
    before: int | None = Query(None, ge=1),
) -> Response:
    runs, next_before = recent_runs(console.state.engine, limit=PAGE_SIZE, before=before)
    return render(
        request,
        "runs.html",
        session=session,
        runs=runs,
        next_before=next_before,
        paged=before is not None,
    )


@router.get("/evaluation-sets", response_class=HTMLResponse)
def evaluation_sets_page(
    request: Request, console: ConsoleDep, session: SignedIn, cursor: str | None = None
) -> Response:
    sets, next_cursor = list_sets(console.state.engine, limit=PAGE_SIZE, cursor=cursor)
    return render_list(
        request,
        "evaluation_sets.html",
        session=session,
        sets=sets,
        cursor=cursor,
        next_cursor=next_cursor,
    )


@router.get("/evaluation-sets/{eval_set_id}", response_class=HTMLResponse)
def evaluation_set_page(
    eval_set_id: str,
    request: Request,
    console: ConsoleDep,
    session: SignedIn,
    cursor: str | None = None,
) -> Response:
    engine = console.state.engine
    evaluation_set = get_set(engine, eval_set_id)
    runs, next_cursor = list_evaluation_runs(engine, eval_set_id, limit=PAGE_SIZE, cursor=cursor)
    return render_list(
        request,
        "evaluation_set.html",
        session=session,
        evaluation_set=evaluation_set,
        runs=[(run, scores(run.metrics)) for run in runs],
        cursor=cursor,
        next_cursor=next_cursor,
    )
