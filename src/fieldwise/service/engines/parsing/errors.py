"""Errors of the parsing library, each carrying the HTTP status the service answers with::

FieldwiseError
└── ParseError                 any document that cannot be parsed (http_status 422)
    ├── UnsupportedFormat      the bytes are no format we read (415)
    ├── CorruptDocument        truncated, damaged or encrypted (422)
    ├── PageLimitExceeded      more pages than ``max_pages`` (422)
    ├── LimitExceeded          past another bound of ``ParseLimits`` (422)
    └── TimeBudgetExceeded     not parsed within ``max_seconds`` (413)

Each pickles with its own arguments: the engine processes send them back to the service.
"""

from __future__ import annotations

from fieldwise._errors import FieldwiseError

__all__ = [
    "CorruptDocument",
    "LimitExceeded",
    "PageLimitExceeded",
    "ParseError",
    "TimeBudgetExceeded",
    "UnsupportedFormat",
]


class ParseError(FieldwiseError):
    """A document cannot be parsed; ``http_status`` and ``code`` are what the service answers."""

    http_status: int = 422
    code: str = "parse_error"


class UnsupportedFormat(ParseError):
    """The document's type (sniffed from its bytes, then its name) is not one we read."""

    http_status = 415
    code = "unsupported_media_type"


class CorruptDocument(ParseError):
    """The document is truncated, damaged or encrypted; the message says which."""

    code = "corrupt_document"


class PageLimitExceeded(ParseError):
    """The document has more pages than the limit (``max_pages``, 500 by default)."""

    code = "page_limit_exceeded"

    def __init__(self, pages: int, limit: int) -> None:
        self.pages = pages
        self.limit = limit
        super().__init__(f"document has {pages} pages; the limit is {limit}")

    def __reduce__(self) -> tuple[type[PageLimitExceeded], tuple[int, int]]:
        return (type(self), (self.pages, self.limit))


class LimitExceeded(ParseError):
    """The document is past a bound of ``ParseLimits`` other than pages; the message names
    what was counted, the limit, and the setting that raises it."""

    code = "limit_exceeded"

    def __init__(self, what: str, count: int, limit: int, setting: str) -> None:
        self.count = count
        self.limit = limit
        self.what = what
        self.setting = setting
        super().__init__(f"{what}: {count}; the limit is {limit} (setting {setting})")

    def __reduce__(self) -> tuple[type[LimitExceeded], tuple[str, int, int, str]]:
        # the default (the class called with the message alone) fails in the service's
        # process, which then took the engine process for dead and the document for a crash
        return (type(self), (self.what, self.count, self.limit, self.setting))


class TimeBudgetExceeded(ParseError):
    """Parsing took longer than its time budget (``ParseLimits.max_seconds``: the service
    gives one to synchronous parses only); the work stops at the next page or part."""

    http_status = 413
    code = "parse_time_exceeded"

    def __init__(self, seconds: float, done: str) -> None:
        self.seconds = seconds
        self.done = done
        super().__init__(f"not parsed within {seconds:g} s ({done})")

    def __reduce__(self) -> tuple[type[TimeBudgetExceeded], tuple[float, str]]:
        return (type(self), (self.seconds, self.done))
