"""Bot levels at the table: listed per game, chosen per bot seat, chosen per table for the
seats handed to bots, and a bot's seat runs on the table's clock like a player's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.support.client import new_player
from tests.support.live import temporary_server
from tests.support.waiting import wait_until

#: The games whose strong bot the ladder shows beating normal at every player count.
OFFER_STRONG = {"luz", "gluckauf", "mine", "ginkgopolis"}


def _pick_table(owner: Any, seats: int = 2, **time_control: Any) -> httpx.Response:
    body: dict[str, Any] = {"game": "pick", "seats": seats, "options": {"pile": 30}}
    if time_control:
        body["time_control"] = time_control
    return owner.post("/api/v1/tables", body)  # type: ignore[no-any-return]


def test_every_game_lists_its_levels_weakest_first_and_the_default(http: httpx.Client) -> None:
    games = {g["id"]: g for g in http.get("/api/v1/games").json()}
    for game in games.values():
        levels = game["bot_levels"]
        assert game["default_bot_level"] in levels
        assert levels[-1] == "random"
        if game["id"] != "pick":  # the test game has one bot
            # Strong where its search beats the normal bot at every player count on the
            # ladder (docs/BOTS.md).
            strong = ["strong"] if game["id"] in OFFER_STRONG else []
            assert levels == ["easy", "normal", *strong, "random"], game["id"]
            assert game["default_bot_level"] == "normal"


def test_a_bot_added_without_a_level_plays_at_the_default_and_a_named_one_at_its_own(
    http: httpx.Client,
) -> None:
    ana = new_player(http, "Ana")
    r = ana.post("/api/v1/tables", {"game": "luz", "seats": 4})  # Luz offers every level
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for level in (None, "easy", "strong"):
        r = ana.post(f"/api/v1/tables/{tid}/bots", {} if level is None else {"level": level})
        assert r.status_code == 200, r.text
    seats = http.get(f"/api/v1/tables/{tid}").json()["seats"]
    assert [s["bot_level"] for s in seats[1:]] == ["normal", "easy", "strong"]
    r = ana.post(f"/api/v1/tables/{tid}/bots", {"level": "grandmaster"})
    assert r.status_code == 422
    assert r.json()["error"]["reason"] == "not_a_choice"


def test_the_takeover_level_is_one_of_the_games_levels(http: httpx.Client) -> None:
    ana = new_player(http, "Ana")
    r = _pick_table(ana, takeover_level="strong")  # the test game does not search
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["reason"] == "not_a_choice" and error["field"] == "time_control.takeover_level"
    assert "normal, random" in error["message"]
    r = _pick_table(ana, takeover_level="random")
    assert r.status_code == 201, r.text
    assert r.json()["time_control"]["takeover_level"] == "random"
    r = _pick_table(ana)
    assert r.json()["time_control"]["takeover_level"] is None


def _started(http: httpx.Client, **time_control: Any) -> tuple[str, Any, Any]:
    ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
    r = _pick_table(ana, **time_control)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert ben.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert ana.post(f"/api/v1/tables/{tid}/start").status_code == 200
    return tid, ana, ben


def test_a_resigned_seat_is_played_at_the_tables_takeover_level(http: httpx.Client) -> None:
    for chosen, expected in (("random", "random"), (None, "normal")):
        tc = {} if chosen is None else {"takeover_level": chosen}
        tid, _ana, ben = _started(http, **tc)
        seat = ben.state(tid)["seat"]
        assert ben.post(f"/api/v1/tables/{tid}/resign").status_code == 200
        assert http.get(f"/api/v1/tables/{tid}").json()["seats"][seat]["bot_level"] == expected


def test_a_seat_taken_over_on_time_out_is_played_at_the_tables_level(
    tmp_path: Path, backend: str
) -> None:
    with (
        temporary_server(tmp_path, backend=backend, clock_tick_seconds=0.1) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        tid, ana, _ben = _started(
            http,
            clock="realtime",
            bank_seconds=1,
            on_timeout="bot_takeover",
            takeover_level="random",
        )
        first = ana.state(tid)["to_act"][0]

        def taken() -> dict[str, Any] | None:
            seat: dict[str, Any] = http.get(f"/api/v1/tables/{tid}").json()["seats"][first]
            return seat if seat["taken_over"] else None

        seat = wait_until(taken, 15, every=0.1)
        assert seat["bot_level"] == "random" and seat["player"] is not None


def test_a_bots_seat_runs_on_the_clock(tmp_path: Path, backend: str) -> None:
    """A bot that takes longer than its bank (here its pace, 1.5 s, against a 1 s bank) is
    timed out like a player: the clock's move is made for it."""
    with (
        temporary_server(tmp_path, backend=backend, clock_tick_seconds=0.1) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        ana = new_player(http, "Ana")
        r = _pick_table(ana, clock="realtime", bank_seconds=1, bot_pace="slow")
        tid = r.json()["id"]
        assert ana.post(f"/api/v1/tables/{tid}/bots", {}).status_code == 200
        assert ana.post(f"/api/v1/tables/{tid}/start").status_code == 200
        mine = ana.state(tid)["seat"]
        bot = 1 - mine

        def bot_timed_out() -> bool:
            state = ana.state(tid)
            if state["to_act"] == [mine]:
                ana.act(tid, state["version"], {"type": "take", "count": 1})
            events = http.get(f"/api/v1/tables/{tid}/log").json()["events"]
            return any(e["type"] == "clock_timeout" and e["seat"] == bot for e in events)

        assert wait_until(bot_timed_out, 20, every=0.2)
