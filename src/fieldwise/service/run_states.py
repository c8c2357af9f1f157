"""The states of every durable run, words shared by what moves runs (``jobs/``) and what waits
for them to end (``http/waiting.py``), so neither imports the other for them.

``queued`` → ``in_progress`` → ``succeeded`` | ``failed`` | ``canceled`` (and ``queued`` →
``canceled``); :class:`~fieldwise.service.jobs.durable.DurableRuns` makes the moves.
"""

from __future__ import annotations

#: The states a run ends in; none is ever left.
TERMINAL = ("succeeded", "failed", "canceled")
#: The states a run is still going in (a user may cancel it, recovery may requeue it).
ACTIVE = ("queued", "in_progress")
