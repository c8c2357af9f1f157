"""``fieldwise.webhooks.verify``: the documented algorithm, rotation, tampering, time window."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from fieldwise._errors import WebhookVerificationError
from fieldwise.webhooks import compute_signature, sign, verify

BODY = b'{"id":"evt_1","type":"processor.run.completed"}'
OLD, NEW = "whsec_old", "whsec_new"
T = 1_770_000_000


def test_signature_is_hmac_sha256_of_timestamp_dot_body_keyed_with_whole_secret() -> None:
    expected = hmac.new(OLD.encode(), f"{T}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert compute_signature(OLD, T, BODY) == expected
    assert sign(BODY, OLD, T) == f"t={T},v1={expected}"


def test_current_and_rotated_secret_both_verify_during_grace() -> None:
    header = sign(BODY, [NEW, OLD], T)
    assert header.count("v1=") == 2
    assert verify(BODY, header, OLD, now=T) == T
    assert verify(BODY, header, NEW, now=T) == T
    assert verify(BODY, header, ["whsec_other", OLD], now=T) == T


def test_after_grace_only_new_secret_verifies() -> None:
    header = sign(BODY, [NEW], T)
    assert verify(BODY, header, NEW, now=T) == T
    with pytest.raises(WebhookVerificationError, match="no v1 signature matches"):
        verify(BODY, header, OLD, now=T)


@pytest.mark.parametrize("body", [BODY + b" ", BODY.replace(b"evt_1", b"evt_2"), b"", BODY[:-1]])
def test_tampered_body_fails(body: bytes) -> None:
    with pytest.raises(WebhookVerificationError):
        verify(body, sign(BODY, NEW, T), NEW, now=T)


def test_tampered_timestamp_fails() -> None:
    header = sign(BODY, NEW, T).replace(f"t={T}", f"t={T + 1}")
    with pytest.raises(WebhookVerificationError, match="no v1 signature matches"):
        verify(BODY, header, NEW, now=T)


def test_stale_and_future_timestamps_fail_outside_tolerance() -> None:
    header = sign(BODY, NEW, T)
    assert verify(BODY, header, NEW, now=T + 300) == T
    assert verify(BODY, header, NEW, now=T - 300) == T
    with pytest.raises(WebhookVerificationError, match="stale"):
        verify(BODY, header, NEW, now=T + 301)
    with pytest.raises(WebhookVerificationError, match="future"):
        verify(BODY, header, NEW, now=T - 301)
    assert verify(BODY, header, NEW, tolerance=3600, now=T + 3000) == T


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (None, "missing"),
        ("", "missing"),
        ("v1=abc", "no t="),
        (f"t={T}", "no v1="),
        ("t=soon,v1=abc", "not an integer"),
    ],
)
def test_malformed_headers_fail_clearly(header: str | None, message: str) -> None:
    with pytest.raises(WebhookVerificationError, match=message):
        verify(BODY, header, NEW, now=T)


def test_verification_error_is_a_value_error_and_needs_a_secret() -> None:
    with pytest.raises(ValueError, match="no secret"):
        verify(BODY, sign(BODY, NEW, T), [], now=T)
