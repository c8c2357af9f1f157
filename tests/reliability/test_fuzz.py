"""Fuzz every operation of the service's own OpenAPI document with schemathesis.

Checks: no 5xx, every status documented, every body and content type as documented, schema-
valid requests accepted and schema-invalid ones refused. Path parameters are often replaced by
ids of seeded resources so fuzzing reaches past the 404 of an unknown id.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.config._checks import PositiveDataAcceptanceConfig

from fieldwise.client import Client
from tests.conftest import TEST_KEY, ServiceFactory
from tests.reliability.conftest import seed

# Enough to meet each operation's edge cases on 2 cores within the suite's time budget.
EXAMPLES = 12
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


def test_every_operation_survives_fuzzing(start_service: ServiceFactory) -> None:
    service = start_service(webhook_allow_http=("127.0.0.1",))
    with Client(service.base_url, service.api_key, max_retries=0) as client:
        known = seed(client)
    document = service.app.openapi()  # type: ignore[attr-defined]
    schema = schemathesis.openapi.from_dict(document)
    schema.config.update(base_url=service.base_url, headers={"x-api-key": TEST_KEY})
    schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(
        expected_statuses=list(SEMANTIC_REFUSALS)
    )
    failures: list[str] = []
    operations = 0
    # Deletes last, so the seeded resources are there for every other operation.
    every = [result.ok() for result in schema.get_all_operations()]
    for operation in sorted(every, key=lambda op: op.method.upper() == "DELETE"):
        operations += 1
        # Each index picks a seeded id for one path parameter; 2 means "keep the fuzzed value".
        picks = st.lists(st.integers(0, 2), min_size=3, max_size=3)

        @given(case=operation.as_strategy(), picks=picks)
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.explicit, Phase.generate],
        )
        def check(case: Any, picks: list[int]) -> None:
            _with_known_ids(case, known, picks).call_and_validate()

        try:
            check()
        except BaseException as exc:  # a FailureGroup is a BaseExceptionGroup
            if isinstance(exc, KeyboardInterrupt):
                raise
            failures.append(f"{operation.label}: {str(exc)[:1500]}")
    assert operations == sum(len(ops) for ops in document["paths"].values())
    assert not failures, "\n\n".join(failures)
