"""The player page and the leaderboard count the same rated games, and say why a game was
not rated; a solo game against an automatic opponent is ranked against it (issue 18.7).
Runs on SQLite and PostgreSQL (the session's ``live`` server per backend)."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.support.client import Player, make_table, new_player


def _play_alone(player: Player, tid: str) -> dict[str, Any]:
    """Answer every decision of ``player`` (the first legal action) until the game ends."""
    state = player.state(tid)
    for _ in range(2000):
        if state["status"] == "finished":
            return state
        if not state["legal_actions"]:
            time.sleep(0.02)  # a bot's move is on its way
            state = player.state(tid)
            continue
        answer = player.act(tid, state["version"], state["legal_actions"][0])
        state = answer.json() if answer.status_code == 200 else player.state(tid)
    raise AssertionError("the game did not end")


def _play_pick(players: list[Player], tid: str) -> None:
    while True:
        states = [p.state(tid) for p in players]
        if states[0]["status"] == "finished":
            return
        acting = next(
            ((p, s) for p, s in zip(players, states, strict=True) if s["legal_actions"]), None
        )
        if acting is None:
            time.sleep(0.02)
            continue
        p, s = acting
        p.act(tid, s["version"], s["legal_actions"][0])


def _page_once_rated(http: httpx.Client, player: Player, game: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while True:
        page: dict[str, Any] = http.get(f"/api/v1/players/{player.id}").json()
        if any(r["game"] == game and r["games"] >= 1 for r in page["ratings"]):
            return page
        assert time.monotonic() < deadline, page
        time.sleep(0.05)


def test_the_ratings_table_and_the_leaderboard_count_the_same_games(http: httpx.Client) -> None:
    ana, bea = new_player(http, "Rita"), new_player(http, "Rui")
    together = make_table(ana, "pick", 2)["id"]
    bea.post(f"/api/v1/tables/{together}/join").raise_for_status()
    ana.post(f"/api/v1/tables/{together}/start").raise_for_status()
    _play_pick([ana, bea], together)
    alone = make_table(ana, "pick", 2)["id"]
    ana.post(f"/api/v1/tables/{alone}/bots").raise_for_status()
    ana.post(f"/api/v1/tables/{alone}/start").raise_for_status()
    _play_alone(ana, alone)

    page = _page_once_rated(http, ana, "pick")
    (rating,) = [r for r in page["ratings"] if r["game"] == "pick"]
    board = {
        row["player"]["id"]: row["games"]
        for row in http.get("/api/v1/games/pick/leaderboard").json()
    }
    by_game = page["stats"]["by_game"]["pick"]
    assert by_game["played"] == 2
    assert by_game["rated"] == rating["games"] == board[ana.id] == 1
    assert page["stats"]["rated"] == 1
    games = {g["table_id"]: g for g in page["games"]}
    assert (games[together]["rated"], games[together]["unrated_reason"]) == (True, None)
    assert (games[alone]["rated"], games[alone]["unrated_reason"]) == (
        False,
        "fewer_than_two_people",
    )


def test_a_solo_ginkgopolis_game_is_ranked_against_hal(http: httpx.Client) -> None:
    solo = new_player(http, "Sol")
    tid = make_table(solo, "ginkgopolis", 1)["id"]
    solo.post(f"/api/v1/tables/{tid}/start").raise_for_status()
    result = _play_alone(solo, tid)["result"]

    (hal,) = result["others"]
    assert (hal["id"], hal["name"], hal["score"]) == ("hal", "Hal", result["details"]["hal"])
    assert {result["places"]["0"], hal["place"]} == {1, 2}
    page = http.get(f"/api/v1/players/{solo.id}").json()
    (game,) = page["games"]
    # Never "place 2 of 1": Hal is one of the two ranked.
    assert (game["place"], game["players"]) == (result["places"]["0"], 2)
    assert (game["rated"], game["unrated_reason"]) == (False, "fewer_than_two_people")
    assert page["stats"]["by_game"]["ginkgopolis"] == {
        "played": 1,
        "won": int(game["place"] == 1),
        "rated": 0,
    }
    assert page["ratings"] == []
