"""Crash safety: SIGKILL the real server mid-game, restart it, lose nothing, invent nothing.

For every registered game and both databases, clients play through REST while a
timer kills the server at a seeded random moment. After the restart: every
action a client saw acknowledged is in the log at its version, every logged
action is one a client (or a bot seat) sent, the snapshot equals seed + log
replayed, bots resume, and the game is played to the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import zlib
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.games import REGISTRY
from app.games.base import Engine
from app.tables.replay import Step, final_state
from tests.support.client import Player, make_table, new_player
from tests.support.databases import BACKENDS, fresh_database
from tests.support.process import ServerProcess

# One seeded kill point per game and database in CI (eight runs over four games), five with
# HYPOTHESIS_PROFILE=long.
KILLS_PER_GAME = 5 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 1


def _stored(
    url: str, table_id: str
) -> tuple[list[tuple[int, int, dict[str, Any]]], dict[str, Any], int, int]:
    async def read() -> tuple[Any, Any]:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                rows = (
                    await conn.execute(
                        text(
                            "SELECT version, seat, action, kind FROM action_log WHERE table_id = :t ORDER BY version"
                        ),
                        {"t": table_id},
                    )
                ).all()
                table = (
                    await conn.execute(
                        text("SELECT state, seed, seat_count FROM game_tables WHERE id = :t"),
                        {"t": table_id},
                    )
                ).one()
            return rows, table
        finally:
            await engine.dispose()

    rows, table = asyncio.run(read())

    def as_json(value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    log = [(int(v), int(s), as_json(a), str(k)) for v, s, a, k in rows]
    return log, as_json(table[0]), int(table[1]), int(table[2])


def log_steps(log: list[tuple[int, int, Any, str]]) -> list[Step]:
    return [(v, s, kind, a) for v, s, a, kind in log]


def _play(
    server: ServerProcess,
    humans: list[Player],
    tid: str,
    acknowledged: dict[int, Any],
    sent: list[Any],
    stop: threading.Event,
    rng: random.Random,
) -> None:
    """Play the human seats until the game ends or the server dies."""
    with httpx.Client(base_url=server.url, timeout=10) as http:
        while not stop.is_set():
            try:
                moved = False
                for p in humans:
                    s = http.get(f"/api/v1/tables/{tid}/state", headers=p.auth).json()
                    if s["status"] == "finished":
                        return
                    if s["legal_actions"]:
                        action = rng.choice(s["legal_actions"])
                        sent.append((s["seat"], action))
                        r = http.post(
                            f"/api/v1/tables/{tid}/actions",
                            json={"version": s["version"], "action": action},
                            headers=p.auth,
                        )
                        if r.status_code == 200:
                            acknowledged[s["version"] + 1] = (s["seat"], action)
                            # Now and then, take it back (the engine may refuse: 409).
                            if rng.random() < 0.25:
                                undo = {"undoes": s["version"] + 1}
                                sent.append((s["seat"], undo))
                                r = http.post(
                                    f"/api/v1/tables/{tid}/undo",
                                    json={"version": s["version"] + 1},
                                    headers=p.auth,
                                )
                                if r.status_code == 200:
                                    acknowledged[s["version"] + 2] = (s["seat"], undo)
                        moved = True
                if not moved:
                    stop.wait(0.005)
            except (httpx.HTTPError, ValueError, KeyError):
                return


def _run(engine: Engine, backend: str, tmp_path: Path, kill_seed: int) -> None:
    rng = random.Random(kill_seed)
    n = max(engine.info.min_players, 2)
    with fresh_database(backend, tmp_path, migrate=False) as url:
        server = ServerProcess(url).start()
        try:
            with httpx.Client(base_url=server.url, timeout=10) as http:
                humans = [new_player(http, f"H{i}") for i in range(n - 1)]
                tid = make_table(humans[0], engine.info.id, n)["id"]
                for p in humans[1:]:
                    p.post(f"/api/v1/tables/{tid}/join")
                humans[0].post(f"/api/v1/tables/{tid}/bots", {"level": "random"})
                assert humans[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
            bot_seat = n - 1
            acknowledged: dict[int, Any] = {}
            sent: list[Any] = []
            for kill_round in range(KILLS_PER_GAME):
                stop = threading.Event()
                player = threading.Thread(
                    target=_play, args=(server, humans, tid, acknowledged, sent, stop, rng)
                )
                player.start()
                stop.wait(rng.uniform(0.2, 1.2))
                server.kill()
                stop.set()
                player.join(timeout=30)

                log, state, seed, seats = _stored(url, tid)
                versions = [v for v, _, _, _ in log]
                assert versions == list(range(2, 2 + len(versions))), (
                    "a version was skipped or doubled"
                )
                by_version = {v: (s, a) for v, s, a, _ in log}
                for version, (seat, action) in acknowledged.items():
                    assert by_version.get(version) == (seat, action), (
                        f"acknowledged action {version} lost"
                    )
                human_sent = [json.dumps([s, a], sort_keys=True) for s, a in sent]
                for _version, (seat, action) in by_version.items():
                    if seat != bot_seat:
                        assert json.dumps([seat, action], sort_keys=True) in human_sent, (
                            "an action nobody sent"
                        )
                options = engine.Options()
                replayed = final_state(engine, engine.setup(seats, seed, options), log_steps(log))
                assert json.dumps(replayed.model_dump(mode="json"), sort_keys=True) == json.dumps(
                    state, sort_keys=True
                ), f"snapshot differs from seed + log after kill {kill_round}"
                server = ServerProcess(url, port=server.port).start()

            # After the last restart: bots resume and the game is played to the end.
            done = threading.Event()
            _play(server, humans, tid, {}, [], done, rng)
            with httpx.Client(base_url=server.url, timeout=10) as http:
                final = http.get(f"/api/v1/tables/{tid}/state", headers=humans[0].auth).json()
            assert final["status"] == "finished" and final["result"]["ranking"]
        finally:
            server.stop()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_sigkill_loses_no_acknowledged_action_and_games_finish(
    game_id: str, backend: str, tmp_path: Path
) -> None:
    _run(
        REGISTRY[game_id], backend, tmp_path, kill_seed=zlib.crc32(f"{game_id}:{backend}".encode())
    )
