"""``fieldwise sync``: make an evaluation set on the service mirror a local dataset."""

from fieldwise.sync._apply import SyncResult, sync_dataset
from fieldwise.sync._state import SyncState

__all__ = ["SyncResult", "SyncState", "sync_dataset"]
