"""Without FIELDWISE_API_KEYS the service makes one key on first start, shows it once and
stores only its hash."""

from __future__ import annotations

from pathlib import Path

import httpx

from fieldwise._config import ServiceSettings
from fieldwise.service import create_app, start_in_thread


def test_generated_key_is_announced_once_and_stored_hashed(tmp_path: Path) -> None:
    settings = ServiceSettings(data_dir=tmp_path / "svc")
    said: list[str] = []
    create_app(settings, announce=said.append)
    assert len(said) == 1
    key = next(line.strip() for line in said[0].splitlines() if line.strip().startswith("fw_"))
    assert key.encode() not in (tmp_path / "svc" / "fieldwise.db").read_bytes()

    again: list[str] = []
    app = create_app(settings, announce=again.append)
    assert again == []
    with start_in_thread(
        ServiceSettings(data_dir=tmp_path / "svc", api_keys=("other",)), app=app
    ) as running:
        ok = httpx.get(running.base_url + "/processors", headers={"x-api-key": key}, timeout=60)
        assert ok.status_code == 200
        bad = httpx.get(
            running.base_url + "/processors", headers={"x-api-key": "other"}, timeout=60
        )
        assert bad.status_code == 401
