"""PARTIDA_WORKERS: several server processes behind one port (app.serving), the broker
between them. The kernel spreads the sockets over the workers; every socket of every table
sees every version, whichever worker holds it or took the action."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
import redis

from tests.support.client import Player, make_table, new_player
from tests.support.databases import BACKENDS, fresh_database
from tests.support.process import ROOT, ServerProcess
from tests.support.wsclient import Socket

REDIS_URL = "redis://127.0.0.1:6379/0"


def _established(pid: int, port: int) -> int:
    """How many TCP connections of the server's ``port`` the process ``pid`` holds open."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01" and fields[9] in inodes:
                count += 1
    return count


def _workers_of(server: ServerProcess) -> list[int]:
    assert server.proc is not None
    children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read_text()
    return [int(pid) for pid in children.split()]


def _table(http: httpx.Client, n: int) -> tuple[list[Player], str]:
    players = [new_player(http, f"P{i}") for i in range(n)]
    tid = make_table(players[0], "luz", n)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    return players, tid


def test_several_workers_need_the_broker(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PARTIDA_WORKERS": "2",
        "PARTIDA_DATABASE_URL": f"sqlite:///{tmp_path / 'p.db'}",
    }
    env.pop("PARTIDA_REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "app", "--port", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "PARTIDA_WORKERS above 1 needs PARTIDA_REDIS_URL" in done.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_games_played_through_two_workers_reach_every_socket(backend: str, tmp_path: Path) -> None:
    redis.Redis.from_url(REDIS_URL).ping()
    with fresh_database(backend, tmp_path, migrate=False) as url:
        server = ServerProcess(
            url,
            PARTIDA_WORKERS=2,
            PARTIDA_REDIS_URL=REDIS_URL,
            PARTIDA_REDIS_CHANNEL=f"partida-test-{uuid.uuid4().hex[:8]}",
        ).start()
        sockets: list[Socket] = []
        try:
            with httpx.Client(base_url=server.url, timeout=30) as http:
                tables = [_table(http, 4) for _ in range(3)]
            seats = {
                tid: [Socket(f"{server.ws_url}/api/v1/tables/{tid}/ws?token={p.token}")
                      for p in players]
                for players, tid in tables
            }  # fmt: skip
            watchers = {tid: Socket(f"{server.ws_url}/api/v1/tables/{tid}/ws") for _, tid in tables}
            sockets = [*(s for ss in seats.values() for s in ss), *watchers.values()]
            workers = _workers_of(server)
            assert len(workers) == 2
            assert all(_established(pid, server.port) > 0 for pid in workers)
            rng = random.Random(3)
            versions = {tid: 1 for _, tid in tables}
            finished: set[str] = set()
            while len(finished) < len(tables):
                for tid, socks in seats.items():
                    if tid in finished:
                        continue
                    current = [s.state_at(versions[tid], timeout=15) for s in socks]
                    seen = watchers[tid].state_at(versions[tid], timeout=15)
                    assert {st["version"] for st in [*current, seen]} == {versions[tid]}
                    if current[0]["status"] == "finished":
                        finished.add(tid)
                        continue
                    mover = next(i for i, st in enumerate(current) if st["legal_actions"])
                    action = rng.choice(current[mover]["legal_actions"])
                    socks[mover].send(
                        {"type": "action", "version": versions[tid], "action": action}
                    )
                    versions[tid] += 1
            assert all(v > 100 for v in versions.values())
        finally:
            for s in sockets:
                s.close()
            server.stop()
