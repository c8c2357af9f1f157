"""Fuzz every operation of the service's own OpenAPI document with schemathesis.

Checks: no 5xx, every status documented, every body and content type as documented, schema-
valid requests accepted and schema-invalid ones refused. Path parameters are often replaced by
ids of seeded resources so fuzzing reaches past the 404 of an unknown id.

A second pass plants values that once broke the service (#18) into every operation that takes
them: huge and non-ASCII-digit cursors and webhook URLs whose host fails IDNA (item 11), and
webhook URLs over 2,048 characters (item 10; ``/parse/file/async`` took them against its
schema and left the run stuck on PostgreSQL). A third plants lone UTF-16 surrogates into every
string and free-form object of every request body (item 3: one stored made every list that
returned it a 500), then reads every list.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.config._checks import PositiveDataAcceptanceConfig

from fieldwise.client import Client
from tests.conftest import TEST_KEY, ServiceFactory
from tests.postgres import postgres_server
from tests.reliability.conftest import seed

# Enough to meet each operation's edge cases on 2 cores within the suite's time budget.
EXAMPLES = 12
GUARD = 60.0  # seconds: only guards against a hang
# Valid by the JSON Schema yet refused on meaning: an opaque cursor that was never issued, a
# processor config the engine rejects (422), a file whose bytes are no supported format (415),
# a multipart part repeated past the parser's field limit (400).
SEMANTIC_REFUSALS = ("2xx", "3xx", "400", "401", "403", "404", "409", "415", "422", "429")


def _with_known_ids(case: Any, known: dict[str, list[str]], picks: list[int]) -> Any:
    for name in list(case.path_parameters or {}):
        choices = known.get(name)
        if choices and picks:
            pick = picks.pop()
            if pick < len(choices):
                case.path_parameters[name] = choices[pick]
    return case


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],
)


def _seeded_schema(
    start_service: ServiceFactory, **overrides: Any
) -> tuple[dict[str, list[str]], Any, Any]:
    """A seeded service's ids, its OpenAPI document, and the schemathesis schema over it."""
    service = start_service(webhook_allow_http=("127.0.0.1",), **overrides)
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        known = seed(client)
    document = service.app.openapi()  # type: ignore[attr-defined]
    schema = schemathesis.openapi.from_dict(document)
    schema.config.update(base_url=service.base_url, headers={"x-api-key": TEST_KEY})
    schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(
        expected_statuses=list(SEMANTIC_REFUSALS)
    )
    return known, document, schema


def _collect(check: Callable[[], None], label: str, failures: list[str]) -> None:
    """Run one operation's hypothesis test; a failure is noted, not raised, so all run."""
    try:
        check()
    except BaseException as exc:  # a FailureGroup is a BaseExceptionGroup
        if isinstance(exc, KeyboardInterrupt):
            raise
        failures.append(f"{label}: {str(exc)[:1500]}")


def test_every_operation_survives_fuzzing(start_service: ServiceFactory) -> None:
    known, document, schema = _seeded_schema(start_service)
    failures: list[str] = []
    operations = 0
    # Deletes last, so the seeded resources are there for every other operation.
    every = [result.ok() for result in schema.get_all_operations()]
    for operation in sorted(every, key=lambda op: op.method.upper() == "DELETE"):
        operations += 1
        # Each index picks a seeded id for one path parameter; 2 means "keep the fuzzed value".
        picks = st.lists(st.integers(0, 2), min_size=3, max_size=3)

        @given(case=operation.as_strategy(), picks=picks)
        @FUZZ
        def check(case: Any, picks: list[int]) -> None:
            _with_known_ids(case, known, picks).call_and_validate()

        _collect(check, operation.label, failures)
    assert operations == sum(len(ops) for ops in document["paths"].values())
    assert not failures, "\n\n".join(failures)


# Hosts under .invalid never resolve (RFC 2606), so no planted URL can reach a real machine.
_LABEL = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)
_IDNA_INVALID_HOSTS = st.one_of(
    st.text("abcdefghijklmnopqrstuvwxyz", min_size=64, max_size=100),  # a label over 63
    st.tuples(_LABEL, _LABEL).map(lambda t: f"{t[0]}..{t[1]}"),  # an empty label
    _LABEL.map(lambda label: f"xn--{label}-"),  # a malformed A-label
    st.text(st.characters(categories=["So"]), min_size=1, max_size=3),  # disallowed symbols
    st.just("\u00fc" * 70),  # over 63 once encoded
).map(lambda host: f"{host}.invalid")
_LONG_URLS = st.one_of(
    st.integers(2049, 4096).map(lambda n: "https://long.invalid/" + "a" * (n - 21)),
    st.integers(2049, 4096).map(lambda n: "http://127.0.0.1:9/" + "a" * (n - 19)),
)
HOSTILE_URLS = st.one_of(_IDNA_INVALID_HOSTS.map(lambda host: f"https://{host}/hook"), _LONG_URLS)
HOSTILE_CURSORS = st.one_of(
    st.integers(2**63 - 2, 10**40).map(lambda n: f"c_{n}"),  # past a 64-bit integer
    st.integers(4_000, 6_000).map(lambda n: "c_" + "9" * n),  # past int()'s digit limit
    st.text(st.characters(categories=["Nd"], max_codepoint=0xFFFF), min_size=1, max_size=20)
    .filter(lambda digits: not digits.isascii())
    .map(lambda digits: f"c_{digits}"),  # Unicode digits
)
HOSTILE = {"cursor": HOSTILE_CURSORS, "url": HOSTILE_URLS, "webhook_url": HOSTILE_URLS}


def _takes(document: dict[str, Any], path: str, method: str) -> dict[str, str]:
    """The names in HOSTILE an operation takes, each with where: "query" or "body"."""
    operation = document["paths"][path][method.lower()]
    found = {p["name"]: "query" for p in operation.get("parameters", []) if p["in"] == "query"}
    for content in operation.get("requestBody", {}).get("content", {}).values():
        schema = content.get("schema", {})
        if "$ref" in schema:
            schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
        found.update(dict.fromkeys(schema.get("properties", {}), "body"))
    return {name: where for name, where in found.items() if name in HOSTILE}


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """The planted pass runs on both: a long webhook_url broke only PostgreSQL (item 10)."""
    if request.param == "sqlite":
        yield None
        return
    with postgres_server() as url:
        yield url


def _settles(base_url: str, parse_run_id: str) -> None:
    """An accepted parse run must end (it stayed in_progress for ever on item 10)."""
    deadline = time.monotonic() + GUARD
    with httpx.Client(base_url=base_url, headers={"x-api-key": TEST_KEY}, timeout=GUARD) as http:
        while time.monotonic() < deadline:
            status = http.get(f"/parse/runs/{parse_run_id}").json()["status"]
            if status in ("succeeded", "failed", "canceled"):
                return
            time.sleep(0.05)
    raise AssertionError(f"parse run {parse_run_id} still {status} after {GUARD:g} s")


def test_values_that_once_broke_the_service_are_refused_everywhere(
    start_service: ServiceFactory, database: str | None
) -> None:
    known, document, schema = _seeded_schema(start_service, database_url=database)
    failures: list[str] = []
    planted = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        takes = _takes(document, operation.path, operation.method)
        if not takes or operation.method.upper() == "DELETE":
            continue
        planted += 1
        values = st.fixed_dictionaries({name: HOSTILE[name] for name in takes})

        @given(case=operation.as_strategy(), values=values)
        @FUZZ
        def check(case: Any, values: dict[str, str]) -> None:
            for name, value in values.items():
                if takes[name] == "query":  # noqa: B023 - called below, within this iteration
                    case.query = {**(case.query or {}), name: value}
                elif isinstance(case.body, dict):
                    case.body = {**case.body, name: value}
            response = _with_known_ids(case, known, [0, 0, 0]).call_and_validate()
            if response.status_code == 202 and case.path == "/parse/file/async":
                _settles(schema.config.base_url, response.json()["id"])

        _collect(check, operation.label, failures)
    assert planted >= 15  # every list (cursor) and every webhook URL field
    assert not failures, "\n\n".join(failures)


# Lone surrogates: halves of a pair, alone, in values and in keys, at any depth.
_LONE_TEXTS = st.sampled_from(["\ud800", "x\udfffy", "\udbff", "ok \udc00"])
_LONE_OBJECTS = st.one_of(
    _LONE_TEXTS.map(lambda text: {"note": text}),
    _LONE_TEXTS.map(lambda text: {text: 1}),
    _LONE_TEXTS.map(lambda text: {"nested": {"list": ["fine", text]}}),
)
SURROGATES_EXAMPLES = 4


def _types(schema: dict[str, Any], document: dict[str, Any]) -> set[str]:
    """The JSON types a property schema allows (through $ref and anyOf)."""
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    found = {schema["type"]} if isinstance(schema.get("type"), str) else set()
    for member in schema.get("anyOf", []) + schema.get("oneOf", []):
        found |= _types(member, document)
    return found


def _lone_strategies(
    document: dict[str, Any], path: str, method: str
) -> tuple[str, dict[str, st.SearchStrategy[Any]]]:
    """The body's media type and, per property, a strategy of values with a lone surrogate."""
    operation = document["paths"][path][method.lower()]
    for media, content in operation.get("requestBody", {}).get("content", {}).items():
        schema = content.get("schema", {})
        if "$ref" in schema:
            schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
        planted: dict[str, st.SearchStrategy[Any]] = {}
        for name, prop in schema.get("properties", {}).items():
            types = _types(prop, document)
            if "const" in prop or "enum" in prop:
                continue  # a closed set, not text (and schemathesis cannot validate one then)
            if media.startswith("multipart/"):
                if "string" in types and prop.get("format") != "binary":
                    # JSON text in a form field (file metadata); a form part itself is UTF-8
                    # bytes, which cannot carry a lone surrogate at all
                    planted[name] = _LONE_OBJECTS.map(json.dumps)
            elif "object" in types:
                planted[name] = _LONE_OBJECTS
            elif "string" in types:
                planted[name] = _LONE_TEXTS
            elif "array" in types:
                planted[name] = st.one_of(
                    _LONE_TEXTS.map(lambda t: [t]), _LONE_OBJECTS.map(lambda o: [o])
                )
        return media, planted
    return "", {}


def test_lone_surrogates_in_any_body_break_no_request_and_no_list(
    start_service: ServiceFactory,
) -> None:
    known, document, schema = _seeded_schema(start_service)
    failures: list[str] = []
    planted = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() == "DELETE":
            continue
        _media, strategies = _lone_strategies(document, operation.path, operation.method)
        if not strategies:
            continue
        planted += 1

        @given(case=operation.as_strategy(), name=st.sampled_from(sorted(strategies)),
               data=st.data())  # fmt: skip
        @settings(FUZZ, max_examples=SURROGATES_EXAMPLES)
        def check(case: Any, name: str, data: st.DataObject) -> None:
            if isinstance(case.body, dict):
                value = data.draw(strategies[name])  # noqa: B023 - called within this iteration
                case.body = {**case.body, name: value}
            _with_known_ids(case, known, [0, 0, 0]).call_and_validate()

        _collect(check, operation.label, failures)
    assert planted >= 20  # every operation with a body
    headers = {"x-api-key": TEST_KEY}
    with httpx.Client(base_url=schema.config.base_url, headers=headers, timeout=GUARD) as http:
        for path, methods in document["paths"].items():
            filled = _fill(path, known)
            if "get" not in methods or filled is None:
                continue
            answer = http.get(filled)
            if answer.status_code >= 500:
                failures.append(f"GET {path} after the planting: {answer.status_code}")
    assert not failures, "\n\n".join(failures)


def _fill(path: str, known: dict[str, list[str]]) -> str | None:
    """``path`` with every parameter a seeded id, or None when one has none."""
    for name, ids in known.items():
        path = path.replace("{" + name + "}", ids[0])
    return None if "{" in path else path
