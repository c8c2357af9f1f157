"""Poisson-bootstrap weights that depend only on (document id, seed, replicate).

The document bootstrap resamples whole documents. Drawing one Poisson(1) weight per
(document, replicate) instead of a multinomial over all documents makes the resample a sum
over documents, so it can be computed per partition and merged; and drawing each weight from a
counter-based generator keyed by the document id and the seed (not from a stream shared by
every document) makes it the same weight whichever partition, worker or order the document is
scored in. Every step is integer arithmetic: a 64-bit key per document (BLAKE2b of the id and
the seed), the SplitMix64 finalizer of ``key + replicate * golden``, and the Poisson(1)
inverse CDF as integer thresholds on the top 53 bits. Replicate sums of integer counts are then
exact (see :func:`replicate_sums`), so any partitioning gives identical replicates.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from fieldwise.compare.score._threads import cores, thread_map

__all__ = ["document_keys", "draws", "poisson_weights", "replicate_sums"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
#: Cells of the (documents x replicates) weight block generated at once: bounds memory, and
#: small enough (512 KiB of uint64) that the dozen passes over it stay in the CPU cache, which
#: makes the weights about four times faster than blocks of millions of cells.
_BLOCK = 1 << 16


def _thresholds() -> npt.NDArray[np.uint64]:
    """floor(CDF_k * 2**53) of Poisson(1) for k = 0, 1, ...: a 53-bit uniform ``u`` draws
    ``k`` = the number of thresholds <= ``u``. Computed once in IEEE-754 double arithmetic,
    which gives the same integers on every platform."""
    out: list[int] = []
    cdf = 0.0
    term = math.exp(-1.0)
    for k in range(1, 20):
        cdf += term
        value = math.floor(cdf * 2.0**53)
        if value >= 2**53:
            break
        out.append(value)
        term /= k
    return np.array(out, dtype=np.uint64)


_THRESHOLDS = _thresholds()


def _bucket_weights() -> npt.NDArray[np.uint8]:
    """The draw of every value whose top 16 bits are the index, where those bits decide it
    (all but a handful of the 65,536 buckets: a threshold falls inside those), else 255."""
    low = np.arange(1 << 16, dtype=np.uint64) << np.uint64(48)
    high = low | np.uint64((1 << 48) - 1)
    first = np.searchsorted(_THRESHOLDS, low >> np.uint64(11), side="right")
    last = np.searchsorted(_THRESHOLDS, high >> np.uint64(11), side="right")
    return np.where(first == last, first, 255).astype(np.uint8)


_BUCKETS = _bucket_weights()


def document_keys(items: Iterable[str], seed: int) -> npt.NDArray[np.uint64]:
    """A 64-bit key per document id, keyed by ``seed`` (BLAKE2b: the same on every machine)."""
    # BLAKE2b of salt + id: the salted state is hashed once and copied per id, and the
    # little-endian 8-byte digests are read as one array (no Python int per document)
    salted = hashlib.blake2b(f"{int(seed)}\x00".encode(), digest_size=8)
    digests = []
    for i in items.tolist() if isinstance(items, np.ndarray) else items:
        h = salted.copy()
        h.update(str(i).encode())
        digests.append(h.digest())
    return np.frombuffer(b"".join(digests), dtype="<u8").astype(np.uint64)


def poisson_weights(keys: npt.NDArray[np.uint64], start: int, stop: int) -> npt.NDArray[np.uint8]:
    """Poisson(1) weights of replicates ``start..stop-1`` for each key: (documents, replicates)."""
    replicate = np.arange(start, stop, dtype=np.uint64) * _GOLDEN
    with np.errstate(over="ignore"):
        x = np.add(keys[:, None], replicate[None, :])
        # in place with one scratch buffer: no temporary array per step
        scratch = np.empty_like(x)
        for shift, factor in ((30, _M1), (27, _M2)):
            np.right_shift(x, np.uint64(shift), out=scratch)
            x ^= scratch
            x *= factor
    return draws(x, scratch, last_step=True)


def draws(
    x: npt.NDArray[np.uint64],
    scratch: npt.NDArray[np.uint64] | None = None,
    *,
    last_step: bool = False,
) -> npt.NDArray[np.uint8]:
    """The Poisson(1) draw of each hashed value: how many thresholds its top 53 bits reach.
    One lookup by the top 16 bits (a 16-bit index: a cheaper gather than a 64-bit one); the
    rare value near a threshold is counted exactly.

    ``last_step``: ``x`` is the hash before the finalizer's last step, ``x ^ (x >> 31)``.
    ``x >> 31`` has no bit above bit 32, so the top 16 bits, which decide all but the values
    near a threshold, are those of ``x``: only those few take the step."""
    top = np.right_shift(x, np.uint64(48), out=scratch).astype(np.uint16)
    # ``take``, not ``_BUCKETS[top]``: the same gather without fancy indexing's overhead
    # (about 40% less time on a block, the costliest step of the weights)
    weights: npt.NDArray[np.uint8] = np.take(_BUCKETS, top)
    near = weights == 255
    if near.any():
        v = x[near]
        if last_step:
            v ^= v >> np.uint64(31)
        weights[near] = np.searchsorted(_THRESHOLDS, v >> np.uint64(11), side="right").astype(
            np.uint8
        )
    return weights


def replicate_sums(
    keys: npt.NDArray[np.uint64], values: npt.NDArray[np.int64], n_resamples: int
) -> npt.NDArray[np.int64]:
    """(replicates x columns) sums of integer ``values`` (documents x columns: counts)
    weighted by each document's Poisson weights, exact: weights and counts are integers and
    every partial sum stays far below 2**53, so the float64 product (BLAS) has no rounding,
    and the documents may be summed in parts on every core (numpy releases the GIL) with the
    same result to the last bit."""
    n_docs, n_cols = values.shape
    if n_docs == 0 or n_resamples == 0:
        return np.zeros((n_resamples, n_cols), dtype=np.int64)
    dense = values.astype(np.float64)
    step = max(1, _BLOCK // n_resamples)
    starts = list(range(0, n_docs, step))
    workers = min(cores(), len(starts) // _MIN_BLOCKS_PER_WORKER)
    if workers < 2:
        return _block_sums(keys, dense, starts, step, n_resamples)
    parts = [starts[k::workers] for k in range(workers)]
    sums = thread_map(
        lambda mine: _block_sums(keys, dense, mine, step, n_resamples), parts, parallel=True
    )
    total: npt.NDArray[np.int64] = np.sum(sums, axis=0)
    return total


#: Blocks of documents each worker thread takes at least (below that one thread does all).
_MIN_BLOCKS_PER_WORKER = 64


def _block_sums(
    keys: npt.NDArray[np.uint64],
    dense: npt.NDArray[np.float64],
    starts: list[int],
    step: int,
    n_resamples: int,
) -> npt.NDArray[np.int64]:
    """:func:`replicate_sums` of the documents of the blocks starting at ``starts``."""
    total = np.zeros((n_resamples, dense.shape[1]), dtype=np.int64)
    for lo in starts:
        hi = min(len(keys), lo + step)
        block = poisson_weights(keys[lo:hi], 0, n_resamples).astype(np.float64).T @ dense[lo:hi]
        total = total + np.rint(block).astype(np.int64)
    return total
