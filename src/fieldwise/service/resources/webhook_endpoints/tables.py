"""The table of webhook endpoints.

It is defined with the delivery machinery in ``events/webhooks/tables.py``, which reads it to
send and which, as the service's core, imports no resource; this resource names it where
every resource keeps its tables.
"""

from __future__ import annotations

from fieldwise.service.events.webhooks.tables import endpoints

__all__ = ["endpoints"]
