"""Hidden information on every outbound path, for every registered game (and the test game).

Random games (hypothesis draws the player count and a seed for every choice; 2
games per engine in CI, 40 under HYPOTHESIS_PROFILE=long) are played through the real server with a socket per seat plus a
spectator. After every action, what each viewer received — the REST state, the
WebSocket state frame, its events, the log endpoint, the table listing — must be
exactly what the engine's ``view(state, seat)`` and the events' ``visible_to``
allow, computed here from the server's full state. The engines' own leak tests
prove that ``view`` hides what the rules hide; this proves the server adds
nothing to it on any path.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from app.games.base import Engine
from tests.conftest import test_games
from tests.support.client import Player, make_table, new_player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket

GAMES: dict[str, Engine] = test_games()  # type: ignore[assignment]


def _server_state(live: LiveServer, tid: str) -> tuple[int, Any]:
    async def read() -> tuple[int, Any]:
        snap = await live.service().snapshot(tid)
        return snap.version, snap.state

    return asyncio.run_coroutine_threadsafe(read(), live.app.state.loop).result(timeout=30)


def _expected_events(engine: Engine, events: list[Any], seat: int | None) -> list[dict[str, Any]]:
    out = []
    for event in events:
        if event.is_visible_to(seat):
            data = event.model_dump(mode="json")
            data.pop("visible_to", None)
            out.append(data)
    return out


LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
MAX_ACTIONS = 1000 if LONG else 60


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(
    max_examples=40 if LONG else 2,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    # The server deals each table from its own secret seed, so a run cannot be replayed:
    # no shrinking, and every choice comes from one seed drawn up front (drawing the choices
    # one by one would make hypothesis see a differently shaped game on each run).
    phases=[Phase.explicit, Phase.generate],
)
@given(choice_seed=st.integers(0, 2**32 - 1), extra_players=st.integers(0, 2))
def test_every_path_shows_each_viewer_only_its_view(
    game_id: str, http: httpx.Client, live: LiveServer, choice_seed: int, extra_players: int
) -> None:
    engine = GAMES[game_id]
    rng = random.Random(choice_seed)
    low = max(engine.info.min_players, 2) if engine.info.max_players > 1 else 1
    n = min(engine.info.max_players, low + extra_players)
    players = [new_player(http, f"S{i}") for i in range(n)]
    tid = make_table(players[0], game_id, n)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    sockets = [Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={p.token}") for p in players]
    spectator = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws")
    try:
        version, state = _server_state(live, tid)
        for _ in range(MAX_ACTIONS):
            _check_viewers(engine, tid, version, state, players, sockets, spectator, http)
            to_act = sorted(engine.to_act(state))
            if not to_act:
                break
            seat = to_act[0]
            legal = engine.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))].model_dump(mode="json")
            expected_state, events = engine.apply(state, seat, engine_action(engine, action))
            r = players[seat].act(tid, version, action)
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["view"] == engine.view(expected_state, seat).model_dump(mode="json")
            assert body["events"] == [
                {"version": version + 1, "actor": seat, **e}
                for e in _expected_events(engine, events, seat)
            ]
            for viewer, sock in [*enumerate(sockets), (None, spectator)]:
                frame = sock.state_at(version + 1)
                got = [
                    {k: v for k, v in e.items() if k not in ("version", "actor")}
                    for e in frame["events"]
                ]
                assert got == _expected_events(engine, events, viewer), f"events leaked to {viewer}"
            version, state_after = _server_state(live, tid)
            assert json.dumps(state_after.model_dump(mode="json"), sort_keys=True) == json.dumps(
                expected_state.model_dump(mode="json"), sort_keys=True
            )
            # Now and then the seat takes an undoable action back: everybody's picture returns
            # to what it was, and the undo itself tells nobody anything more.
            if engine.undoable(state, seat, engine_action(engine, action)) and rng.random() < 0.3:
                r = players[seat].post(f"/api/v1/tables/{tid}/undo", {"version": version})
                assert r.status_code == 200, r.text
                for viewer, sock in [*enumerate(sockets), (None, spectator)]:
                    frame = sock.state_at(version + 1)
                    assert frame["view"] == engine.view(state, viewer).model_dump(mode="json")
                    assert [e["type"] for e in frame["events"]] == ["action_undone"]
                version, state_after = _server_state(live, tid)
                assert json.dumps(
                    state_after.model_dump(mode="json"), sort_keys=True
                ) == json.dumps(state.model_dump(mode="json"), sort_keys=True)
            state = state_after
    finally:
        for sock in (*sockets, spectator):
            sock.close()


def engine_action(engine: Engine, data: dict[str, Any]) -> Any:
    from app.games.base import parse_action

    return parse_action(engine, data)


def _check_viewers(
    engine: Engine,
    tid: str,
    version: int,
    state: Any,
    players: list[Player],
    sockets: list[Socket],
    spectator: Socket,
    http: httpx.Client,
) -> None:
    for seat, player in enumerate(players):
        expected = engine.view(state, seat).model_dump(mode="json")
        rest = player.state(tid)
        assert rest["version"] == version and rest["view"] == expected
        frame = sockets[seat].state_at(version)
        assert frame["view"] == expected and frame["seat"] == seat
    public = engine.view(state, None).model_dump(mode="json")
    assert http.get(f"/api/v1/tables/{tid}/state").json()["view"] == public
    assert spectator.state_at(version)["view"] == public
    listing = json.dumps(http.get("/api/v1/tables", params={"status": "playing"}).json())
    assert '"view"' not in listing and '"state"' not in listing
    log = http.get(f"/api/v1/tables/{tid}/log").json()["events"]
    assert all("visible_to" not in e for e in log)
    # Readable lines describe exactly the events the viewer may see, nothing more.
    described = http.get(f"/api/v1/tables/{tid}/log", params={"lang": "es"}).json()["events"]
    assert [{k: v for k, v in e.items() if k != "text"} for e in described] == log
    assert all(e["text"] for e in described)
