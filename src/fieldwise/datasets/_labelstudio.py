"""Read ground truth from a Label Studio JSON export (the list of tasks it writes).

Per task, the document is the value of one key of ``task["data"]`` (``[ground_truth] document``;
by default the one key whose value names a document of the dataset folder). Label Studio
rewrites paths (``/data/upload/3/8f2a1b-a.pdf``, ``/data/local-files/?d=scans/a.pdf``,
``s3://bucket/a.pdf``), so a path names the document with the same file name, the longest
matching folder suffix winning, after dropping the upload prefix Label Studio adds.

The last annotation that was not cancelled is the ground truth. Each result gives a field:
``choices`` (one choice), ``textarea`` (its lines joined by line breaks), ``number``,
``datetime`` and ``rating`` are named by ``from_name``; span labels (``labels``) and a
transcription of a labelled region (the OCR template) are named by the label. Names map to
fields through ``[ground_truth.fields]`` (``from_name = "field"``); with that table, only the
names it lists are read. Regions without text (rectangles alone) carry no value and are skipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from fieldwise._nesting import TooDeep, loads_json
from fieldwise.datasets._truth import RawEntry, convert_cell, nest

__all__ = ["read_labelstudio", "resolve_document"]

_UPLOAD_PREFIX = re.compile(r"^[0-9a-f]{8}-")
_VALUE_KEYS = {"number": "number", "datetime": "datetime", "rating": "rating"}
_LABEL_TYPES = frozenset(
    {"labels", "rectanglelabels", "polygonlabels", "hypertextlabels", "paragraphlabels"}
)


def read_labelstudio(
    path: Path,
    name: str,
    documents: list[str],
    options: Mapping[str, Any],
    fields: dict[str, dict[str, Any]],
    problems: list[str],
) -> list[RawEntry]:
    """Entries of the export at ``path``; ``documents`` are the dataset's relative paths and
    ``options`` the ``[ground_truth]`` table (``document``, ``fields``)."""
    try:
        tasks = loads_json(path.read_text(encoding="utf-8-sig"))
    except TooDeep as exc:
        problems.append(f"{name}:1: invalid JSON: {exc}")
        return []
    except UnicodeDecodeError as exc:
        problems.append(f"{name}:1: not UTF-8 text ({exc.reason})")
        return []
    except json.JSONDecodeError as exc:
        problems.append(f"{name}:{exc.lineno}: invalid JSON: {exc.msg} (column {exc.colno})")
        return []
    if not isinstance(tasks, list):
        problems.append(f"{name}:1: a Label Studio export is a list of tasks")
        return []
    names: Mapping[str, str] | None = options.get("fields")
    entries: list[RawEntry] = []
    for index, task in enumerate(tasks, start=1):
        task_id = task.get("id", index) if isinstance(task, dict) else index
        where = f"{name}:task {task_id}"
        if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
            problems.append(f"{where}: a task must be an object with a 'data' object")
            continue
        file = _document(task["data"], options.get("document"), documents, where, problems)
        annotation = _annotation(task.get("annotations"))
        if file is None or annotation is None:
            continue
        try:
            truth = _truth(annotation, names, fields)
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        entries.append(RawEntry(file, truth, where))
    return entries


def resolve_document(reference: str, documents: list[str]) -> str | list[str] | None:
    """The document a Label Studio path names: one path, the tied candidates, or None."""
    split = urlsplit(reference)
    query = parse_qs(split.query).get("d")
    raw = query[0] if query else split.path
    parts = [p for p in PurePosixPath(unquote(raw).replace("\\", "/")).parts if p not in "/."]
    if not parts:
        return None
    for basename in (parts[-1], _UPLOAD_PREFIX.sub("", parts[-1])):
        candidates = [d for d in documents if PurePosixPath(d).name == basename]
        if not candidates:
            continue
        wanted = [*parts[:-1], basename]
        scores = {d: _common_suffix(PurePosixPath(d).parts, wanted) for d in candidates}
        best = max(scores.values())
        tied = sorted(d for d, score in scores.items() if score == best)
        return tied[0] if len(tied) == 1 else tied
    return None


def _common_suffix(left: tuple[str, ...], right: list[str]) -> int:
    count = 0
    while count < min(len(left), len(right)) and left[-1 - count] == right[-1 - count]:
        count += 1
    return count


def _document(
    data: dict[str, Any], key: Any, documents: list[str], where: str, problems: list[str]
) -> str | None:
    if key is not None and not isinstance(data.get(key), str):
        problems.append(f"{where}: data has no text value {key!r} naming the document")
        return None
    references = {k: v for k, v in sorted(data.items()) if isinstance(v, str) and k == (key or k)}
    hits = {
        k: found
        for k, v in references.items()
        if (found := resolve_document(v, documents)) is not None
    }
    if not hits:
        shown = ", ".join(repr(v[:80]) for v in references.values()) or "no text value"
        problems.append(f"{where}: no document of the dataset folder matches {shown}")
        return None
    if len(hits) > 1:
        keys = ", ".join(map(repr, hits))
        problems.append(f"{where}: data keys {keys} all name documents; set [ground_truth] "
                        "document to the key that holds the document")  # fmt: skip
        return None
    found = next(iter(hits.values()))
    if isinstance(found, list):
        problems.append(f"{where}: {next(iter(hits))!r} matches several documents: "
                        f"{', '.join(found)}")  # fmt: skip
        return None
    return found


def _annotation(annotations: Any) -> dict[str, Any] | None:
    """The last annotation not cancelled (Label Studio appends newer ones at the end)."""
    if not isinstance(annotations, list):
        return None
    kept = [a for a in annotations if isinstance(a, dict) and not a.get("was_cancelled")]
    return kept[-1] if kept else None


def _truth(
    annotation: dict[str, Any],
    names: Mapping[str, str] | None,
    fields: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    results = [r for r in annotation.get("result") or [] if isinstance(r, dict)]
    region_labels = {
        r.get("id"): r["value"][r["type"]][0]
        for r in results
        if r.get("type") in _LABEL_TYPES
        and isinstance(r.get("value"), dict)
        and r["value"].get(r["type"])
    }
    values: dict[str, list[str]] = {}
    typed: dict[str, Any] = {}
    for result in results:
        kind, value = result.get("type"), result.get("value")
        if not isinstance(value, dict):
            continue
        if kind == "textarea" and result.get("id") in region_labels:
            source, text = region_labels[result.get("id")], _lines(value.get("text"))
        elif kind in _LABEL_TYPES and isinstance(value.get("text"), str):
            source, text = value[kind][0], value["text"]
        elif kind == "textarea":
            source, text = result.get("from_name"), _lines(value.get("text"))
        elif kind == "choices":
            choices = value.get("choices") or []
            if len(choices) != 1:
                raise ValueError(f"{result.get('from_name')!r}: {len(choices)} choices; a field "
                                 "takes one")  # fmt: skip
            source, text = result.get("from_name"), str(choices[0])
        elif kind in _VALUE_KEYS:
            field = _field(result.get("from_name"), names)
            if field is not None:
                typed[field] = value.get(_VALUE_KEYS[kind])
            continue
        else:
            continue  # a region with no text: nothing to compare
        field = _field(source, names)
        if field is not None and text is not None:
            values.setdefault(field, []).append(text)
    truth: dict[str, Any] = {}
    for field, texts in values.items():
        try:
            text = " ".join(t.strip() for t in texts)
            nest(truth, field, convert_cell(text, fields.get(field, {}).get("type")))
        except ValueError as exc:
            raise ValueError(f"field {field!r}: {exc}") from None
    for field, value in typed.items():
        nest(truth, field, value)
    return truth


def _field(source: Any, names: Mapping[str, str] | None) -> str | None:
    if not isinstance(source, str) or not source:
        return None
    if names is None:
        return source
    return names.get(source)


def _lines(text: Any) -> str | None:
    if isinstance(text, list):
        return "\n".join(str(t) for t in text)
    return text if isinstance(text, str) else None
