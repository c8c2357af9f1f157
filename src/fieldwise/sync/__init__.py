"""``fieldwise sync``: make an evaluation set on the service mirror a local dataset."""

from fieldwise.sync._apply import SyncResult, sync_dataset
from fieldwise.sync._source import source_identity
from fieldwise.sync._state import SyncState
from fieldwise.sync._unchanged import LocalView, hash_cache

__all__ = [
    "LocalView",
    "SyncResult",
    "SyncState",
    "hash_cache",
    "source_identity",
    "sync_dataset",
]
