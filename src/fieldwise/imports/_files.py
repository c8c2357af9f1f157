"""Reading prediction files: JSON and JSON Lines whose errors name the file and line, and the
files a folder source holds."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from fieldwise._nesting import TooDeep, loads_json
from fieldwise.imports._model import PredictionsError

__all__ = ["folder_files", "read_json", "read_jsonl", "unwrap"]


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise PredictionsError(f"{path}:1: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise PredictionsError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _parse(text: str, path: Path, line: int) -> Any:
    try:
        return loads_json(text)
    except TooDeep as exc:
        raise PredictionsError(f"{path}:{line}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise PredictionsError(f"{path}:{line + exc.lineno - 1}: not JSON: {exc.msg}") from None


def read_json(path: Path) -> Any:
    """The JSON value of ``path``; :class:`PredictionsError` naming the line when malformed."""
    return _parse(_text(path), path, 1)


def read_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` of every non-blank line of a JSON Lines file."""
    for number, line in enumerate(_text(path).split("\n"), start=1):
        if line.strip():
            yield number, _parse(line, path, number)


def folder_files(folder: Path) -> list[Path]:
    """The ``.json`` files of a folder source (sorted; hidden files skipped), refused when
    there are none or when other files sit beside them (a wrong folder, not a source)."""
    files = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    others = [p.name for p in files if p.suffix.lower() != ".json" or not p.is_file()]
    if others:
        raise PredictionsError(
            f"{folder}: a folder source holds one .json file per document; it also holds "
            f"{', '.join(others[:5])}"
        )
    if not files:
        raise PredictionsError(f"{folder}: no .json files")
    return files


def unwrap(data: Any, wrapper: str, listed: str) -> Mapping[str, Any] | None:
    """``data[wrapper]`` when ``data`` wraps the object in it (an operation or response around
    the result), else ``data``; None unless that object has a list under ``listed``."""
    if not isinstance(data, Mapping):
        return None
    inner = data.get(wrapper)
    found = inner if isinstance(inner, Mapping) else data
    return found if isinstance(found.get(listed), list) else None
