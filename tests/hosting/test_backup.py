"""`python -m app backup` / `restore` round-trip a database with games in progress."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.main import create_app
from tests.conftest import test_games, test_settings
from tests.support.client import Player, acting, make_table, new_player
from tests.support.databases import BACKENDS, fresh_database
from tests.support.live import LiveServer

ROOT = Path(__file__).resolve().parents[2]


def _cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PARTIDA_DATABASE_URL": url, "PARTIDA_LOG_LEVEL": "WARNING"}
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _move(players: list[Player], tid: str) -> dict[str, Any]:
    p, s = acting(players, tid)
    r = p.act(tid, s["version"], s["legal_actions"][0])
    assert r.status_code == 200
    return r.json()  # type: ignore[no-any-return]


@pytest.mark.parametrize("backend", BACKENDS)
def test_backup_and_restore_round_trip_games_in_progress(backend: str, tmp_path: Path) -> None:
    with fresh_database(backend, tmp_path) as url:
        live = LiveServer(create_app(test_settings(url), games=test_games())).start()  # type: ignore[arg-type]
        try:
            with httpx.Client(base_url=live.url, timeout=30) as http:
                players = [new_player(http, "A"), new_player(http, "B")]
                tid = make_table(players[0], "pick", 2, {"pile": 30})["id"]
                players[1].post(f"/api/v1/tables/{tid}/join")
                players[0].post(f"/api/v1/tables/{tid}/start")
                for _ in range(3):
                    _move(players, tid)
                saved = players[0].state(tid)
                # The backup runs while the server is up (SQLite's online backup API; pg_dump).
                out = tmp_path / "backups" / "partida.bak"
                made = _cli(url, "backup", "--output", str(out))
                assert made.returncode == 0, made.stderr
                assert out.exists() and out.stat().st_size > 0
                for _ in range(2):
                    _move(players, tid)
                assert players[0].state(tid)["version"] == saved["version"] + 2
        finally:
            live.stop()

        restored = _cli(url, "restore", str(out), "--yes")
        assert restored.returncode == 0, restored.stderr

        live = LiveServer(create_app(test_settings(url), games=test_games())).start()  # type: ignore[arg-type]
        try:
            with httpx.Client(base_url=live.url, timeout=30) as http:
                players = [Player(p.id, p.name, p.token, http) for p in players]
                assert players[0].state(tid) == saved
                while _move(players, tid)["status"] != "finished":
                    pass
                assert players[0].state(tid)["result"]["ranking"]
        finally:
            live.stop()


def test_backup_of_a_missing_database_is_a_clear_error(tmp_path: Path) -> None:
    done = _cli(f"sqlite:///{tmp_path}/nothing.sqlite3", "backup", "--output", str(tmp_path / "x"))
    assert done.returncode == 2 and "no SQLite database" in done.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_backups_are_readable_by_their_owner_only(backend: str, tmp_path: Path) -> None:
    """A backup holds the secrets of running games: it is written 0600 whatever the umask,
    in a new folder made 0700, and a file it replaces loses its wider mode."""
    with fresh_database(backend, tmp_path) as url:
        fresh = tmp_path / "new-folder" / "partida.bak"
        replaced = tmp_path / "old.bak"
        replaced.write_bytes(b"an older backup")
        replaced.chmod(0o644)
        old_umask = os.umask(0o022)  # the usual umask: files 0644 unless the writer says so
        try:
            for out in (fresh, replaced):
                made = _cli(url, "backup", "--output", str(out))
                assert made.returncode == 0, made.stderr
                assert out.stat().st_size > len(b"an older backup")
                assert out.stat().st_mode & 0o777 == 0o600, oct(out.stat().st_mode)
        finally:
            os.umask(old_umask)
        assert fresh.parent.stat().st_mode & 0o777 == 0o700
