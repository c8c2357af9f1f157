"""Content-addressed blob storage under the data dir: ``blobs/ab/cd/<sha256>``.

Writes go to a temporary file in the same folder tree (*staged*) and are renamed into place
later, so a blob that exists is always complete. The rename is left to the caller because two
files can share one blob: the new reference and the rename must happen under the same lock as
"the last reference is gone, unlink" (``fieldwise.service.store.locks.lock_blob``), or a delete
could unlink the bytes an upload of the same content is about to refer to.

No fsync per blob (it was 3 ms of every request, three times per parse). The order is what
keeps a crash harmless: every byte is written and the file renamed into place before the
database row that refers to it commits, so a process that dies at any point leaves either no
row (an orphan file at most) or a row whose bytes are all there — the kernel keeps what was
written whether or not the process lives. Only a power loss or a kernel crash can lose written
pages, and then the database (WAL, ``synchronous=NORMAL``) may lose its latest commits too;
what it must never do is hand out bytes that are not the ones a row names. So :meth:`read`
checks the content against its sha256 (1.7 GB/s) and raises :class:`BlobCorrupt`, a
:class:`FileNotFoundError`, for bytes cut short: they read as missing, never as data.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

_CHUNK = 1024 * 1024


class BlobTooLarge(Exception):
    """The stream passed the size limit; nothing was stored."""


class BlobCorrupt(FileNotFoundError):
    """The bytes stored under a sha256 are not the bytes it names (a power loss cut them
    short before they reached the disk): as good as missing."""


@dataclass(frozen=True)
class StagedBlob:
    """Bytes written to a temporary file, not yet in place under their sha256."""

    sha256: str
    size: int
    tmp: Path


class BlobStore:
    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "tmp").mkdir(parents=True, exist_ok=True)
        self._folders: set[Path] = set()  # made already: no mkdir per placed blob

    def path(self, sha256: str) -> Path:
        return self.root / sha256[:2] / sha256[2:4] / sha256

    def exists(self, sha256: str) -> bool:
        return self.path(sha256).is_file()

    def stage_stream(self, stream: BinaryIO, max_bytes: int | None = None) -> StagedBlob:
        """Stage a stream's bytes (see :meth:`place`). Raises BlobTooLarge past max_bytes."""
        return self._stage(iter(lambda: stream.read(_CHUNK), b""), max_bytes)

    def stage_bytes(self, data: bytes) -> StagedBlob:
        return self._stage([data], None)

    def _stage(self, chunks: Iterable[bytes], max_bytes: int | None) -> StagedBlob:
        digest = hashlib.sha256()
        size = 0
        fd, tmp_name = tempfile.mkstemp(dir=self.root / "tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                for chunk in chunks:
                    size += len(chunk)
                    if max_bytes is not None and size > max_bytes:
                        raise BlobTooLarge(f"more than {max_bytes} bytes")
                    digest.update(chunk)
                    out.write(chunk)
            return StagedBlob(digest.hexdigest(), size, Path(tmp_name))
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise

    def place(self, staged: StagedBlob) -> None:
        """Rename staged bytes into place (replacing an identical blob is harmless). Placing
        the same staged blob again is a no-op while the blob is there."""
        target = self.path(staged.sha256)
        if target.parent not in self._folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._folders.add(target.parent)
        try:
            os.replace(staged.tmp, target)
        except FileNotFoundError:
            if not target.is_file():
                raise

    def discard(self, staged: StagedBlob) -> None:
        """Drop staged bytes that were not placed (nothing happens once they were)."""
        staged.tmp.unlink(missing_ok=True)

    def read(self, sha256: str) -> bytes:
        """The blob's bytes; raises FileNotFoundError when they are not stored, and its
        subclass :class:`BlobCorrupt` when the stored bytes are not the ones ``sha256`` names."""
        data = self.path(sha256).read_bytes()
        _verify(sha256, hashlib.sha256(data))
        return data

    def check(self, sha256: str) -> Path:
        """The blob's path once its content is verified in chunks (for bytes served from disk,
        not read into memory); raises like :meth:`read`."""
        path = self.path(sha256)
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
        _verify(sha256, digest)
        return path

    def delete(self, sha256: str) -> bool:
        path = self.path(sha256)
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        return True

    def count(self) -> int:
        return sum(1 for p in self.root.glob("??/??/*") if p.is_file())


def _verify(sha256: str, digest: hashlib._Hash) -> None:
    if digest.hexdigest() != sha256:
        raise BlobCorrupt(f"blob {sha256} does not hold its content (cut short by a crash)")
