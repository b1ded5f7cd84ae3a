"""`python -m app.loadtest` plays real tables over WebSockets and reports sane figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import app.loadtest as loadtest
from app.loadtest import main
from tests.support.live import LiveServer


@pytest.mark.parametrize("delta", [False, True])
def test_the_harness_plays_and_reports(live: LiveServer, tmp_path: Path, delta: bool) -> None:
    out = tmp_path / "figures.json"
    args = ["--url", live.url, "--tables", "2", "--duration", "3", "--json", str(out)]
    assert main([*args, *(["--delta"] if delta else [])]) == 0
    figures = json.loads(out.read_text())
    assert figures["tables"] == 2 and figures["sockets"] == 8
    assert figures["actions"] > 20 and figures["errors"] == 0
    assert figures["latency_ms"]["p50"] is not None
    assert figures["bytes_per_seat_per_action"] > 0
    assert figures["server_rss_mb"] > 10 and figures["server_cpu_ms_per_action"] > 0


def test_the_harness_refuses_a_remote_target() -> None:
    with pytest.raises(SystemExit):
        main(["--url", "http://192.0.2.1:8000", "--duration", "1"])


def test_a_socket_that_fails_counts_as_an_error(
    live: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def refused(*_args: object) -> None:
        raise ConnectionRefusedError("the server refused the socket")

    monkeypatch.setattr(loadtest, "_seat", refused)
    out = tmp_path / "figures.json"
    args = ["--url", live.url, "--tables", "1", "--duration", "1", "--json", str(out)]
    assert main(args) == 1
    figures = json.loads(out.read_text())
    assert figures["errors"] == 4
    assert figures["error_codes"] == {"socket:ConnectionRefusedError": 4}
