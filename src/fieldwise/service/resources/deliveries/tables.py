"""The tables of deliveries, their attempts and dead-letter notifications.

They are defined with the delivery machinery in ``events/webhooks/tables.py``, which sends
from them and which, as the service's core, imports no resource; this resource names them
where every resource keeps its tables.
"""

from __future__ import annotations

from fieldwise.service.events.webhooks.tables import attempts, deliveries, notifications

__all__ = ["attempts", "deliveries", "notifications"]
