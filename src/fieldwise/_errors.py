"""The one exception tree of fieldwise.

Every error a user can meet derives from :class:`FieldwiseError`, which carries the process exit
code the CLI uses (2: "could not decide"; a failing gate is a value, not an exception)::

    FieldwiseError
    ├── ConfigError                 bad settings, policy or processor config
    ├── DatasetError                a dataset on disk is missing, malformed or inconsistent
    │   ├── DatasetNotFound         (also a FileNotFoundError)
    │   ├── DatasetValidationError  every problem found, each naming file and line
    │   └── PredictionsError        predictions to import are missing, malformed or ambiguous
    ├── CompareError                inputs the comparison cannot score
    │   └── IncomparableError       run sets scored against different ground truth or specs
    ├── ReportError                 a report cannot be rendered or written
    ├── GateError                   the gate could not decide (a failing gate is a value)
    ├── PublishRefused              a version was not published: its verdict did not pass (exit 1)
    ├── TrainingFailed              a training run failed or was canceled
    ├── RunnerError                 a run set cannot be started, resumed or loaded
    │   └── RunInterrupted          stopped by the user; what finished is saved (exit 130)
    ├── WebhookVerificationError    a webhook body or signature does not verify (also a ValueError)
    └── ClientError                 talking to the service failed
        ├── TransportError          no usable HTTP response (connection refused, reset, timeout)
        └── APIStatusError          the service answered 4xx/5xx; carries status, code, message,
            │                       request id, the request and the response
            ├── AuthenticationError   401
            ├── NotFoundError         404
            ├── ConflictError         409
            ├── UnprocessableError    400, 413, 415, 422
            ├── RateLimitError        429
            └── ServerError           5xx
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import httpx

__all__ = [
    "APIStatusError",
    "AuthenticationError",
    "ClientError",
    "CompareError",
    "ConfigError",
    "ConflictError",
    "DatasetError",
    "DatasetNotFound",
    "DatasetValidationError",
    "FieldwiseError",
    "GateError",
    "IncomparableError",
    "NotFoundError",
    "PredictionsError",
    "PublishRefused",
    "RateLimitError",
    "ReportError",
    "RunInterrupted",
    "RunnerError",
    "ServerError",
    "TrainingFailed",
    "TransportError",
    "UnprocessableError",
    "WebhookVerificationError",
]


class FieldwiseError(Exception):
    """Base of every fieldwise error; ``exit_code`` is what the CLI exits with."""

    exit_code: int = 2


class ConfigError(FieldwiseError):
    """Settings, a policy file or a processor config is invalid."""


class DatasetError(FieldwiseError):
    """A local dataset cannot be used."""


class DatasetNotFound(FileNotFoundError, DatasetError):
    """The dataset folder or one of its required files does not exist."""


class DatasetValidationError(DatasetError):
    """A dataset has one or more problems; all of them are listed in ``problems``."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in dataset:"
        super().__init__("\n".join([head, *(f"  {p}" for p in self.problems)]))


class PredictionsError(DatasetError):
    """Predictions to import are missing, malformed or ambiguous (names file and line)."""


class CompareError(FieldwiseError):
    """The comparison cannot be computed from the given inputs."""


class IncomparableError(CompareError):
    """Results were scored against different ground truth or specs (``--force`` overrides)."""


class ReportError(FieldwiseError):
    """A report cannot be rendered or written."""


class GateError(FieldwiseError):
    """The gate could not decide (no data, no candidate, a policy naming unknown fields).

    A *failing* gate is not an error: it is a ``Verdict`` with ``status="fail"``.
    """


class PublishRefused(FieldwiseError):
    """The version was not published: its verdict failed or belongs to another version."""

    exit_code = 1


class TrainingFailed(FieldwiseError):
    """The training run failed or was canceled (exit 2)."""


class RunnerError(FieldwiseError):
    """A run set cannot be started, resumed or loaded."""


class InterruptedRunSet(Protocol):
    """What :class:`RunInterrupted` says about the run set (a ``fieldwise.runner.RunSet``;
    structural, so this module imports nothing of the runner)."""

    @property
    def runset_id(self) -> str: ...

    @property
    def done(self) -> int: ...

    @property
    def total(self) -> int: ...

    @property
    def directory(self) -> Path: ...


class RunInterrupted(RunnerError):
    """The run set was interrupted; everything finished so far is saved and can be resumed."""

    exit_code = 130

    def __init__(self, runset: InterruptedRunSet, *, command: str | None = None) -> None:
        """``command``: how to resume, as the caller knows it (the CLI adds the options the
        run was given); by default ``fieldwise run --resume RUNSET_ID``."""
        self.runset = runset
        command = command or f"fieldwise run --resume {runset.runset_id}"
        super().__init__(
            f"interrupted: {runset.done} of {runset.total} pairs saved in {runset.directory}; "
            f"resume with: {command}"
        )


class WebhookVerificationError(ValueError, FieldwiseError):
    """A webhook delivery failed verification (bad signature, stale or future timestamp)."""


class ClientError(FieldwiseError):
    """Talking to the service failed."""


class TransportError(ClientError):
    """The request got no usable HTTP response (refused, reset, timed out)."""


class APIStatusError(ClientError):
    """The service answered with an error status; the error body is parsed into fields."""

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        code: str,
        request_id: str | None,
        param: Any = None,
        retryable: bool = False,
        request: httpx.Request | None = None,
        response: httpx.Response | None = None,
    ) -> None:
        self.message = message
        self.status_code = status_code
        self.code = code
        self.request_id = request_id
        self.param = param
        self.retryable = retryable
        self.request = request
        self.response = response
        where = f" (request {request_id})" if request_id else ""
        super().__init__(f"{status_code} {code}: {message}{where}")


class AuthenticationError(APIStatusError):
    """401: the API key is missing or wrong."""


class NotFoundError(APIStatusError):
    """404: the resource does not exist."""


class ConflictError(APIStatusError):
    """409: the resource is in the wrong state for the request."""


class UnprocessableError(APIStatusError):
    """400/413/415/422: the request is malformed, too large, of the wrong type or invalid."""


class RateLimitError(APIStatusError):
    """429: too many requests; ``retry_after`` seconds is what the service asked for."""

    @property
    def retry_after(self) -> float | None:
        if self.response is None:
            return None
        value = self.response.headers.get("retry-after")
        try:
            return float(value) if value is not None else None
        except ValueError:
            return None


class ServerError(APIStatusError):
    """5xx: the service failed."""
