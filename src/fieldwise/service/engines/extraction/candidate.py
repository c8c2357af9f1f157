"""A candidate value for a field: the typed value, its confidence, and where it came from."""

from __future__ import annotations

from dataclasses import dataclass

from fieldwise.service.engines.extraction.normalize import Parsed

__all__ = ["Candidate"]


@dataclass(frozen=True)
class Candidate:
    """A typed value for a field, where it came from (0-based page), and its confidence."""

    parsed: Parsed
    confidence: float
    page: int
    text: str
    # the engine's own candidates disagreed (another value scored nearly as well, or the
    # config's choice overruled a stronger one): ``"abstain": "doubted"`` leaves it out
    doubted: bool = False
