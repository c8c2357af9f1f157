"""The receiving side of webhooks: verify signed deliveries, or run a small receiver.

``verify(body, header, secrets)`` checks the ``X-Service-Signature`` header of one delivery;
:class:`Receiver` is the server behind ``fieldwise webhooks listen``.
"""

from fieldwise._signature import (
    DEFAULT_TOLERANCE,
    SIGNATURE_HEADER,
    compute_signature,
    sign,
    verify,
)
from fieldwise.webhooks._receiver import Receiver

__all__ = [
    "DEFAULT_TOLERANCE",
    "SIGNATURE_HEADER",
    "Receiver",
    "compute_signature",
    "sign",
    "verify",
]
