"""The run output shape: nested ``value`` and per-path ``metadata``."""

from __future__ import annotations

from typing import Any

__all__ = ["Output", "metadata_entry"]


def metadata_entry(
    confidence: float, page: int, text: str, threshold: float | None
) -> dict[str, Any]:
    """One metadata record; ``needs_review`` only when a threshold is set and not reached."""
    confidence = max(0.0, min(1.0, confidence))
    return {
        "confidence": round(confidence, 4),
        "page": page,
        "text": text,
        "needs_review": threshold is not None and confidence < threshold,
    }


class Output:
    """Collects values under dotted paths and their metadata, then emits the output dict."""

    def __init__(self, threshold: float | None) -> None:
        self.threshold = threshold
        self.value: dict[str, Any] = {}
        self.metadata: dict[str, dict[str, Any]] = {}

    def put(
        self,
        path: str,
        value: Any,
        confidence: float,
        page: int,
        text: str,
        provenance: dict[str, Any] | None = None,
    ) -> None:
        """Set ``value`` at ``path``; ``provenance`` (where it was read, e.g. an embedded XML's
        element path; a calibrated ``p_right`` and its evidence) joins its metadata when given."""
        node = self.value
        *parents, leaf = path.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
        self.metadata[path] = metadata_entry(confidence, page, text, self.threshold)
        if provenance:
            self.metadata[path].update(provenance)

    def meta(self, path: str, confidence: float, page: int, text: str) -> None:
        self.metadata[path] = metadata_entry(confidence, page, text, self.threshold)

    def result(self) -> dict[str, Any]:
        return {"value": self.value, "metadata": dict(sorted(self.metadata.items()))}
