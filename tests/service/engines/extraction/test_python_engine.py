"""The python engine calls a user function and checks what it returns."""

from __future__ import annotations

import pytest

from fieldwise.service.engines.extraction import ExtractionError, extract, validate_config
from fieldwise.service.engines.parsing import ParsedDocument
from tests.service.engines.extraction.conftest import Invoice

#: The package of the test engines (entrypoints are module paths).
HERE = "tests.service.engines.extraction"


def _config(name: str) -> object:
    return validate_config(
        {"engine": "python", "entrypoint": f"{HERE}.custom_engine:{name}"},
        allow_python=True,
    )


def test_user_function_output_is_completed(invoices: list[tuple[Invoice, ParsedDocument]]) -> None:
    config = validate_config(
        {"engine": "python", "entrypoint": f"{HERE}.custom_engine:first_line"},
        allow_python=True,
    )
    out = extract(invoices[0][1], config, confidence_threshold=0.5)
    assert out["value"] == {"first_line": "Invoice No: INV-1001", "pages": 1}
    assert out["metadata"]["first_line"] == {
        "confidence": 0.4,
        "page": 1,
        "text": "Invoice No: INV-1001",
        "needs_review": True,
    }


@pytest.mark.parametrize(
    ("entrypoint", "message"),
    [
        (f"{HERE}.custom_engine:wrong_shape", "must return"),
        (f"{HERE}.custom_engine:bad_confidence", "confidence must be within 0..1"),
        (f"{HERE}.custom_engine:boom", "raised RuntimeError: model not loaded"),
        (f"{HERE}.custom_engine:missing", "is not a callable"),
        (f"{HERE}.no_such_module:f", "cannot import"),
    ],
)
def test_failures_are_extraction_errors(
    invoices: list[tuple[Invoice, ParsedDocument]], entrypoint: str, message: str
) -> None:
    config = validate_config({"engine": "python", "entrypoint": entrypoint}, allow_python=True)
    with pytest.raises(ExtractionError, match=message):
        extract(invoices[0][1], config)
