"""The names people use for versions ("published", "latest-draft", "v2"), never bare ids.

The run set records how each version was asked for (an alias, a label or a config file's path);
the report shows that, and the id only in a tooltip and the provenance block.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from fieldwise.report._model import ReportData

__all__ = ["display_name", "version_names"]


def display_name(label: str, version_id: str) -> str:
    """The name shown for a version: its label, a config path reduced to the file's name
    ("processor/v2.json" -> "v2.json"), or the id when nothing else was recorded."""
    text = " ".join(label.split())
    if not text:
        return version_id
    if "/" in text or "\\" in text:
        name = PurePosixPath(text.replace("\\", "/")).name
        return name or text
    return text


def version_names(data: ReportData) -> dict[str, str]:
    """version id -> the name shown, for every version of the report (names made unique by
    appending the id's tail when two versions would read the same)."""
    labels: dict[str, str] = {}
    for ver in data.versions:
        labels[ver.version] = ver.label
    labels.setdefault(data.baseline, data.baseline_label)
    if data.candidate is not None:
        labels.setdefault(data.candidate, data.candidate_label)
    if data.baseline_label:
        labels[data.baseline] = labels[data.baseline] or data.baseline_label
    if data.candidate is not None and data.candidate_label:
        labels[data.candidate] = labels[data.candidate] or data.candidate_label
    names = {v: display_name(label, v) for v, label in labels.items()}
    seen: dict[str, int] = {}
    for name in names.values():
        seen[name] = seen.get(name, 0) + 1
    return {v: (n if seen[n] == 1 or n == v else f"{n} ({v[-6:]})") for v, n in names.items()}
