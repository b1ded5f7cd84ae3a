"""Restart safety: a new server process resumes every table from the database; bots go on."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.main import create_app
from tests.conftest import test_games, test_settings
from tests.support.client import Player, make_table, new_player
from tests.support.live import LiveServer

ROOT = Path(__file__).resolve().parents[2]


def _server(url: str, bot_delay: float) -> LiveServer:
    settings = test_settings(url, bot_delay=bot_delay)
    return LiveServer(create_app(settings, games=test_games())).start()  # type: ignore[arg-type]


def test_bots_resume_after_a_restart(database_url: str) -> None:
    first = _server(database_url, bot_delay=60)  # bots wait: the restart comes first
    with httpx.Client(base_url=first.url, timeout=30) as http:
        human = new_player(http, "H")
        tid = make_table(human, "pick", 2, {"pile": 20})["id"]
        human.post(f"/api/v1/tables/{tid}/bots")
        human.post(f"/api/v1/tables/{tid}/start")
        s = human.state(tid)
        if s["legal_actions"]:
            s = human.act(tid, s["version"], s["legal_actions"][0]).json()
        waiting_version = s["version"]
        assert s["legal_actions"] == []  # the bot is to act, but waits
    first.stop()

    second = _server(database_url, bot_delay=0)
    try:
        with httpx.Client(base_url=second.url, timeout=30) as http:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                s = Player(human.id, human.name, human.token, http).state(tid)
                if s["version"] > waiting_version:
                    break
                time.sleep(0.05)
            assert s["version"] == waiting_version + 1
            assert s["legal_actions"]  # the human's turn again, after the bot's move
    finally:
        second.stop()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_python_m_app_migrates_a_fresh_database_and_serves(tmp_path: Path) -> None:
    port = _free_port()
    env = {
        **os.environ,
        "PARTIDA_DATABASE_URL": f"sqlite:///{tmp_path}/fresh/partida.sqlite3",
        "PARTIDA_LOG_LEVEL": "WARNING",
    }
    proc = subprocess.Popen([sys.executable, "-m", "app", "--port", str(port)], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2)
                if ready.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not become ready"
            assert proc.poll() is None, "the server exited"
            time.sleep(0.2)
        created = httpx.post(f"http://127.0.0.1:{port}/api/v1/players", json={"name": "Ana"})
        assert created.status_code == 201
        assert (tmp_path / "fresh" / "partida.sqlite3").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
