"""`--capture` never fails a request: a full disk, the caps, the files' mode."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import httpx2
import pytest

from sse_rewrite.serve import capture
from sse_rewrite.serve.limits import Limits
from tests.serve.servers import Servers, captured, eventually

CHAT = {"model": "moonshotai/kimi-k2.5", "messages": [{"role": "user", "content": "$ echo captured"}]}


def test_a_full_disk_pauses_capture_once_and_every_request_goes_on(
        servers: Servers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    create = capture.create_file

    def onto_a_full_disk(path: Path) -> int:  # the capture itself lands on /dev/full: ENOSPC on write
        return create(path) if path.suffix == ".args" else os.open("/dev/full", os.O_WRONLY)

    monkeypatch.setattr(capture, "create_file", onto_a_full_disk)
    base_url, log = servers.serve(capture_dir=tmp_path)
    for stream in (True, False, True):
        response = httpx2.post(f"{base_url}/chat/completions", json={**CHAT, "stream": stream}, timeout=10)
        assert response.status_code == 200 and "tool_calls" in response.text
        if stream:
            assert response.text.endswith("data: [DONE]\n\n")
    assert eventually(lambda: any("--capture paused" in line and "No space left" in line for line in log))
    assert sum("--capture paused" in line for line in log) == 1


def test_captures_are_readable_by_their_owner_only(servers: Servers, tmp_path: Path) -> None:
    base_url, _ = servers.serve(capture_dir=tmp_path)
    httpx2.post(f"{base_url}/chat/completions", json={**CHAT, "stream": True}, timeout=10)
    path = captured(tmp_path, ".sse")
    for file in (path, path.with_name(path.name + ".args")):
        assert stat.S_IMODE(file.stat().st_mode) == 0o600


def test_a_capture_stops_at_the_file_cap_and_capture_pauses_at_the_total(servers: Servers,
                                                                         tmp_path: Path) -> None:
    limits = Limits(capture_file_bytes=200, capture_total_bytes=300)
    base_url, log = servers.serve(capture_dir=tmp_path, limits=limits)
    for _ in range(3):
        response = httpx2.post(f"{base_url}/chat/completions", json={**CHAT, "stream": True}, timeout=10)
        assert response.status_code == 200 and response.text.endswith("data: [DONE]\n\n")
    assert eventually(lambda: any("--capture paused" in line and "total cap" in line for line in log))
    assert any("stops at 200 bytes" in line for line in log)
    sizes = [path.stat().st_size for path in tmp_path.glob("*.sse")]
    assert sizes and all(size <= 200 for size in sizes) and sum(sizes) <= 400
