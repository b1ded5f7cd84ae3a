"""Ratings per game and the player page."""

from __future__ import annotations

import time

import httpx

from tests.support.client import Player, make_table, new_player


def _play_to_end(players: list[Player], tid: str, pick_last: bool) -> dict[str, object]:
    while True:
        states = [p.state(tid) for p in players]
        if states[0]["status"] == "finished":
            return states[0]["result"]  # type: ignore[no-any-return]
        for p, s in zip(players, states, strict=True):
            if s["legal_actions"]:
                p.act(tid, s["version"], s["legal_actions"][-1 if pick_last else 0])
                break


def _wait_rated(http: httpx.Client, player: Player, game: str, games: int) -> dict[str, object]:
    deadline = time.monotonic() + 10
    while True:
        page = http.get(f"/api/v1/players/{player.id}").json()
        rated = [r for r in page["ratings"] if r["game"] == game]
        if rated and rated[0]["games"] >= games:
            return page  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, page
        time.sleep(0.05)


def test_finished_games_update_ratings_and_the_player_page(http: httpx.Client) -> None:
    a, b = new_player(http, "Ana"), new_player(http, "Bea")
    for round_no in range(2):
        tid = make_table(a, "pick", 2)["id"]
        b.post(f"/api/v1/tables/{tid}/join")
        a.post(f"/api/v1/tables/{tid}/start")
        result = _play_to_end([a, b], tid, pick_last=bool(round_no))
    page_a = _wait_rated(http, a, "pick", 2)
    page_b = _wait_rated(http, b, "pick", 2)
    assert page_a["stats"]["played"] == 2 and page_b["stats"]["played"] == 2  # type: ignore[index]
    assert page_a["stats"]["won"] + page_b["stats"]["won"] >= 2  # type: ignore[index,operator]
    assert len(page_a["games"]) == 2 and page_a["games"][0]["game"] == "pick"  # type: ignore[index,arg-type]
    ratings = {
        p["player"]["id"]: p["rating"] for p in http.get("/api/v1/games/pick/leaderboard").json()
    }
    assert a.id in ratings and b.id in ratings
    assert result["ranking"]


def test_games_with_one_human_are_not_rated(http: httpx.Client) -> None:
    solo = new_player(http, "Solo")
    tid = make_table(solo, "pick", 2)["id"]
    solo.post(f"/api/v1/tables/{tid}/bots")
    solo.post(f"/api/v1/tables/{tid}/start")
    _play_to_end([solo], tid, pick_last=False)
    time.sleep(0.3)
    page = http.get(f"/api/v1/players/{solo.id}").json()
    assert page["ratings"] == [] and page["stats"]["played"] == 1


def test_unknown_player_and_game_are_not_found(http: httpx.Client) -> None:
    assert http.get("/api/v1/players/nobody").json()["error"]["code"] == "not_found"
    assert http.get("/api/v1/games/chess/leaderboard").json()["error"]["code"] == "not_found"
