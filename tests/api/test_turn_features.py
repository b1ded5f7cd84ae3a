"""Undo, turn clocks, absent players handed to bots, and readable log lines (API-EXTENSIONS.md)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.main import create_app
from app.verify import verify
from tests.conftest import test_games, test_settings
from tests.support.client import Player, acting, make_table, new_player
from tests.support.databases import fresh_database
from tests.support.live import LiveServer, temporary_server
from tests.support.waiting import wait_until
from tests.support.wsclient import Socket

PASS = {"type": "pass_turn"}


class Seated(list[Player]):
    """The table's players in turn order from whoever acts first, with their seats."""

    seats: list[int]


def _table(
    players: list[Player], pile: int = 30, time_control: dict[str, Any] | None = None
) -> tuple[str, Seated]:
    """Seat ``players`` in order (seat 0, 1, ...) and start; the test game draws who begins."""
    owner = players[0]
    body: dict[str, Any] = {"game": "pick", "seats": len(players), "options": {"pile": pile}}
    if time_control is not None:
        body["time_control"] = time_control
    r = owner.post("/api/v1/tables", body)
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert owner.post(f"/api/v1/tables/{tid}/start").status_code == 200
    first = owner.state(tid)["to_act"][0]
    n = len(players)
    order = Seated(players[(first + i) % n] for i in range(n))
    order.seats = [(first + i) % n for i in range(n)]
    return tid, order


def _seats(tid: str, *players: Player) -> list[int]:
    return [p.state(tid)["seat"] for p in players]


def _undo(p: Player, tid: str, version: int, **extra: Any) -> httpx.Response:
    return p.post(f"/api/v1/tables/{tid}/undo", {"version": version, **extra})


def _wait(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    return wait_until(check, timeout, every=0.1)


# --------------------------------------------------------------------------- undo


def test_a_player_takes_back_an_undoable_action_and_everybody_sees_it(http: httpx.Client) -> None:
    tid, (a, b) = _table([new_player(http, "Ana"), new_player(http, "Ben")])
    sa, sb = _seats(tid, a, b)
    before = a.state(tid)
    r = a.act(tid, before["version"], PASS)
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["to_act"] == [sb]
    r = _undo(a, tid, after["version"])
    assert r.status_code == 200, r.text
    undone = r.json()
    assert undone["version"] == after["version"] + 1
    assert undone["view"] == before["view"] and undone["to_act"] == [sa]
    assert undone["events"] == [
        {"version": undone["version"], "actor": sa, "type": "action_undone", "seat": sa,
         "undoes": after["version"]}
    ]  # fmt: skip
    # The opponent's log shows it, readable in both languages.
    for lang, words in (("en", "took back"), ("es", "deshizo")):
        log = b.get(f"/api/v1/tables/{tid}/log", params={"lang": lang}).json()["events"]
        assert words in log[-1]["text"] and log[-1]["type"] == "action_undone"
    # The taken-back action can be taken again, and the game goes on normally.
    assert a.act(tid, undone["version"], PASS).status_code == 200


def test_undo_is_refused_when_it_would_reveal_or_someone_acted_since(http: httpx.Client) -> None:
    tid, (a, b) = _table([new_player(http, "Ana"), new_player(http, "Ben")])
    v = a.state(tid)["version"]
    # A take draws a secret bonus card: the engine says it cannot be taken back.
    assert a.act(tid, v, {"type": "take", "count": 1}).status_code == 200
    r = _undo(a, tid, v + 1)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_undoable"
    assert "revealed" in r.json()["error"]["message"]
    assert a.state(tid)["version"] == v + 1  # nothing changed
    # Only your own last action.
    r = _undo(b, tid, v + 1)
    assert r.status_code == 409 and "your own" in r.json()["error"]["message"]
    # Ben passes, Ana takes: Ben's pass is no longer the last action.
    assert b.act(tid, v + 1, PASS).status_code == 200
    assert a.act(tid, v + 2, {"type": "take", "count": 1}).status_code == 200
    r = _undo(b, tid, v + 3)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_undoable"
    # An undo cannot itself be undone; a stale version is a stale version.
    assert b.act(tid, v + 3, {"type": "take", "count": 1}).status_code == 200
    assert a.act(tid, v + 4, PASS).status_code == 200
    assert _undo(a, tid, v + 5).status_code == 200
    r = _undo(a, tid, v + 6)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_undoable"
    r = _undo(a, tid, v)
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    # Spectators and strangers cannot undo.
    assert http.post(f"/api/v1/tables/{tid}/undo", json={"version": v + 6}).status_code == 401
    stranger = new_player(http, "Cid")
    r = _undo(stranger, tid, v + 6)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    r = a.post(f"/api/v1/tables/{tid}/undo", {"version": "x"})
    assert r.status_code == 422


def test_undo_over_the_websocket_and_an_idempotent_retry(
    live: LiveServer, http: httpx.Client
) -> None:
    tid, (a, b) = _table([new_player(http, "Ana"), new_player(http, "Ben")])
    (sa,) = _seats(tid, a)
    ws_a = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={a.token}&lang=es")
    ws_b = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={b.token}&lang=en")
    try:
        v = ws_a.state_at(1)["version"]
        ws_a.send({"type": "action", "version": v, "action": PASS, "id": "p1"})
        ws_a.until(lambda f: f.get("ref") == "p1")
        ws_a.send({"type": "undo", "version": v + 1, "id": "u1"})
        answer = ws_a.until(lambda f: f.get("ref") == "u1")
        assert answer["type"] == "state" and answer["version"] == v + 2
        assert answer["events"][0]["text"] == f"El asiento {sa + 1} deshizo su última jugada."
        seen = ws_b.state_at(v + 2)
        assert seen["to_act"] == [sa]
        if seen["events"]:
            assert seen["events"][-1]["text"] == f"Seat {sa + 1} took back their last move."
        # The same undo id again answers the same result, once.
        ws_a.send({"type": "undo", "version": v + 2, "id": "u1"})
        again = ws_a.until(lambda f: f.get("ref") == "u1")
        assert again["version"] == v + 2 and again.get("replayed") is True
        ws_a.send({"type": "undo", "version": v + 2, "id": "u2"})
        refused = ws_a.until(lambda f: f.get("ref") == "u2")
        assert refused["type"] == "error" and refused["error"]["code"] == "not_undoable"
    finally:
        ws_a.close()
        ws_b.close()


def test_a_finished_game_with_undos_replays_and_verifies(http: httpx.Client) -> None:
    a, b = new_player(http, "Ana"), new_player(http, "Ben")
    tid, _ = _table([a, b], pile=4)
    players = [a, b]
    undos = 0
    for _ in range(40):
        state = a.state(tid)
        if state["status"] == "finished":
            break
        seat = state["to_act"][0]
        p = players[seat]
        legal = p.state(tid)["legal_actions"]
        if PASS in legal and undos < 3:
            assert p.act(tid, state["version"], PASS).status_code == 200
            assert _undo(p, tid, state["version"] + 1).status_code == 200
            undos += 1
            continue
        assert p.act(tid, state["version"], legal[0]).status_code == 200
    assert undos == 3 and a.state(tid)["status"] == "finished"
    replay = http.get(f"/api/v1/tables/{tid}/replay").json()
    kinds = [step["kind"] for step in replay["actions"]]
    assert kinds.count("undo") == 3
    from tests.support.pickgame import PICK

    passed = verify(replay, games={"pick": PICK})
    assert any("reaches the recorded final state" in line for line in passed)
    steps = http.get(
        f"/api/v1/tables/{tid}/replay/steps", params={"perspective": "spectator"}
    ).json()["steps"]
    undo_steps = [s for s in steps if s["kind"] == "undo"]
    assert len(undo_steps) == 3
    for step in undo_steps:
        undone = next(s for s in steps if s["version"] == step["action"]["undoes"])
        before = next(s for s in steps if s["version"] == undone["version"] - 1)
        assert step["view"] == before["view"]


# --------------------------------------------------------------------------- clocks


def test_time_control_is_validated_and_shown(http: httpx.Client) -> None:
    a = new_player(http, "Ana")
    r = a.post(
        "/api/v1/tables",
        {"game": "pick", "seats": 2, "time_control": {"clock": "sundial"}},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
    r = a.post(
        "/api/v1/tables",
        {"game": "pick", "seats": 2, "time_control": {"clock": "async", "move_seconds": 3600}},
    )
    assert r.status_code == 201
    tc = r.json()["time_control"]
    assert tc["clock"] == "async" and tc["move_seconds"] == 3600 and tc["abandon"] == "vote"


def test_a_real_time_clock_runs_out_and_a_bot_makes_the_move(tmp_path: Path) -> None:
    with (
        temporary_server(tmp_path, clock_tick_seconds=0.1) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        tid, (a, b) = _table(
            [new_player(http, "Ana"), new_player(http, "Ben")],
            time_control={"clock": "realtime", "bank_seconds": 1, "increment_seconds": 5},
        )
        sa, sb = _seats(tid, a, b)
        start = a.state(tid)
        clock = start["clock"]
        assert clock["mode"] == "realtime"
        assert clock["seats"][sa]["running"] and not clock["seats"][sb]["running"]
        assert 0 < clock["seats"][sa]["seconds_left"] <= 1
        # Ana does not move: after a second a bot moves for her, and the log says so.
        moved = _wait(lambda: (s := b.state(tid))["version"] > start["version"] and s)
        assert moved["to_act"] == [sb]
        events = http.get(f"/api/v1/tables/{tid}/log", params={"lang": "en"}).json()["events"]
        assert any(e["type"] == "clock_timeout" and e["seat"] == sa for e in events)
        assert any("ran out of time" in e["text"] for e in events)
        seats = moved["clock"]["seats"]
        # Her bank restarts at 15 s at least; Ben's clock now runs.
        assert seats[sa]["running"] is False and seats[sa]["seconds_left"] >= 15
        assert seats[sb]["running"] is True
        # Ben moves in time: the increment is added to his bank.
        r = b.act(tid, moved["version"], PASS)
        assert r.status_code == 200
        assert r.json()["clock"]["seats"][sb]["seconds_left"] > 1


def test_clocks_survive_a_restart_and_time_outs_fall_due_while_down(
    tmp_path: Path, backend: str
) -> None:
    with fresh_database(backend, tmp_path) as url:
        settings = test_settings(url, clock_tick_seconds=0.1)
        first = LiveServer(create_app(settings, games=test_games())).start()  # type: ignore[arg-type]
        try:
            with httpx.Client(base_url=first.url, timeout=30) as http:
                tid, (a, b) = _table(
                    [new_player(http, "Ana"), new_player(http, "Ben")],
                    time_control={"clock": "async", "move_seconds": 2, "on_timeout": "bot_move"},
                )
                version = a.state(tid)["version"]
                sb = b.state(tid)["seat"]
        finally:
            first.stop()
        time.sleep(2.5)  # Ana's move falls due while no server runs
        second = LiveServer(create_app(settings, games=test_games())).start()  # type: ignore[arg-type]
        try:
            with httpx.Client(base_url=second.url, timeout=30) as http:
                b.http = http
                moved = _wait(lambda: (s := b.state(tid))["version"] > version and s)
                assert moved["to_act"] == [sb] and moved["clock"]["mode"] == "async"
                assert moved["clock"]["seats"][sb]["running"] is True
        finally:
            second.stop()


# --------------------------------------------------------------------------- takeover


def test_a_timed_out_seat_goes_to_a_bot_and_its_player_takes_it_back(tmp_path: Path) -> None:
    with (
        temporary_server(tmp_path, clock_tick_seconds=0.1) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        tid, (a, b) = _table(
            [new_player(http, "Ana"), new_player(http, "Ben")],
            pile=40,
            time_control={"clock": "realtime", "bank_seconds": 1, "on_timeout": "bot_takeover"},
        )
        sa, sb = _seats(tid, a, b)

        def seat_a() -> dict[str, Any]:
            return http.get(f"/api/v1/tables/{tid}").json()["seats"][sa]  # type: ignore[no-any-return]

        seat = _wait(lambda: (s := seat_a())["taken_over"] and s)
        assert seat["bot"] is True and seat["player"]["name"] == a.name
        # The bot plays Ana's turns; Ana herself is told to take her seat back first.
        state = _wait(lambda: (s := b.state(tid))["to_act"] == [sb] and s)
        assert b.act(tid, state["version"], PASS).status_code == 200
        state = _wait(lambda: (s := b.state(tid))["to_act"] == [sb] and s)
        r = a.act(tid, state["version"], PASS)
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken_over"
        r = a.post(f"/api/v1/tables/{tid}/take-back")
        assert r.status_code == 200, r.text
        assert (
            r.json()["seats"][sa]["taken_over"] is False and r.json()["seats"][sa]["bot"] is False
        )
        r = a.post(f"/api/v1/tables/{tid}/take-back")
        assert r.status_code == 409 and r.json()["error"]["code"] == "takeover_refused"
        # Ben moves; now Ana plays her own turn again, with a fresh bank.
        state = b.state(tid)
        assert b.act(tid, state["version"], {"type": "take", "count": 1}).status_code == 200
        state = a.state(tid)
        assert state["to_act"] == [sa] and state["clock"]["seats"][sa]["seconds_left"] >= 14
        assert a.act(tid, state["version"], {"type": "take", "count": 1}).status_code == 200


def test_the_other_players_vote_an_absent_player_out_and_a_bot_plays(tmp_path: Path) -> None:
    with (
        temporary_server(tmp_path, clock_tick_seconds=0.1) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        tid, (c, a, b) = _table(
            [new_player(http, n) for n in ("Cid", "Ana", "Ben")],
            time_control={"abandon": "vote", "grace_seconds": 1},
        )
        (sc,) = _seats(tid, c)
        takeover = f"/api/v1/tables/{tid}/seats/{sc}/takeover"
        # Cid (due to act) has just been seen: too early.
        r = a.post(takeover)
        assert r.status_code == 409 and r.json()["error"]["code"] == "takeover_refused"
        assert r.json()["error"]["grace_seconds"] == 1
        time.sleep(1.3)
        r = c.post(takeover)
        assert r.status_code == 409  # not on your own seat
        r = http.post(takeover)
        assert r.status_code == 401
        r = a.post(takeover)
        assert r.status_code == 200 and r.json()["seats"][sc]["takeover_votes"] == 1
        assert r.json()["seats"][sc]["taken_over"] is False  # 1 of 2 is no majority
        r = a.post(takeover)
        assert r.json()["seats"][sc]["takeover_votes"] == 1  # a vote counts once
        r = b.post(takeover)
        assert r.status_code == 200 and r.json()["seats"][sc]["taken_over"] is True
        # The bot plays Cid's turn.
        _wait(lambda: b.state(tid)["to_act"] == [(sc + 1) % 3])
        r = a.post(takeover)
        assert r.status_code == 409 and "already" in r.json()["error"]["message"]
        assert c.post(f"/api/v1/tables/{tid}/take-back").status_code == 200


def test_an_away_player_is_replaced_automatically_and_not_a_connected_one(tmp_path: Path) -> None:
    with (
        temporary_server(tmp_path, clock_tick_seconds=0.1, presence_touch_seconds=0.2) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        tid, (a, b) = _table(
            [new_player(http, "Ana"), new_player(http, "Ben")],
            time_control={"abandon": "auto", "grace_seconds": 1},
        )
        sa, sb = _seats(tid, a, b)
        ws_a = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={a.token}")
        try:
            time.sleep(1.5)  # Ana is due and connected: she keeps her seat
            table = http.get(f"/api/v1/tables/{tid}").json()
            assert table["seats"][sa]["taken_over"] is False
            v = a.state(tid)["version"]
            assert a.act(tid, v, PASS).status_code == 200
            # Ben never connected: once due and away past the grace, a bot takes his seat.
            seat_b = _wait(
                lambda: (
                    (t := http.get(f"/api/v1/tables/{tid}").json()["seats"][sb])["taken_over"] and t
                )
            )
            assert seat_b["player"]["name"] == b.name
            _wait(lambda: a.state(tid)["to_act"] == [sa])
        finally:
            ws_a.close()


def test_off_means_no_takeover(http: httpx.Client) -> None:
    tid, (a, b) = _table(
        [new_player(http, "Ana"), new_player(http, "Ben")],
        time_control={"abandon": "off", "grace_seconds": 1},
    )
    (sa,) = _seats(tid, a)
    r = b.post(f"/api/v1/tables/{tid}/seats/{sa}/takeover")
    assert r.status_code == 409 and "does not hand seats" in r.json()["error"]["message"]
    r = b.post(f"/api/v1/tables/{tid}/seats/7/takeover")
    assert r.status_code == 422


# --------------------------------------------------------------------------- readable log


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_log_carries_the_engines_lines(http: httpx.Client, lang: str) -> None:
    tid, (a, b) = _table([new_player(http, "Ana"), new_player(http, "Ben")])
    (sa,) = _seats(tid, a)
    v = a.state(tid)["version"]
    assert a.act(tid, v, {"type": "take", "count": 2}).status_code == 200
    plain = b.get(f"/api/v1/tables/{tid}/log").json()["events"]
    assert all("text" not in e for e in plain)
    log = b.get(f"/api/v1/tables/{tid}/log", params={"lang": lang}).json()["events"]
    took = next(e for e in log if e["type"] == "took")
    n = sa + 1  # readable lines count seats from 1
    expected = {"es": f"El asiento {n} coge 2; quedan 28.", "en": f"Seat {n} takes 2; 28 left."}
    assert took["text"] == expected[lang]
    # Ben may not see Ana's bonus card, in the events or their text.
    assert all(e["type"] != "bonus_drawn" for e in log)
    r = b.get(f"/api/v1/tables/{tid}/log", params={"lang": "fr"})
    assert r.status_code == 422


def test_moves_the_server_made_cannot_be_taken_back_and_their_ids_are_reserved(
    http: httpx.Client,
) -> None:
    a = new_player(http, "Ana")
    tid = make_table(a, "pick", 2, {"pile": 30})["id"]
    assert a.post(f"/api/v1/tables/{tid}/bots", {"level": "random"}).status_code == 200
    assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
    state = _wait(lambda: (s := a.state(tid))["legal_actions"] and s)
    r = a.act(tid, state["version"], PASS, id="bot:99:0")
    assert r.status_code == 422 and r.json()["error"]["field"] == "id"
    assert a.act(tid, state["version"], PASS).status_code == 200
    # The bot answers at once; Ana cannot take back the bot's move nor, now, her own.
    _wait(lambda: a.state(tid)["legal_actions"])
    r = _undo(a, tid, a.state(tid)["version"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_undoable"


def _bet(state: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in state["legal_actions"] if a["type"] == "place_bet")


def test_what_the_rules_make_final_is_never_offered_nor_taken_back(http: httpx.Client) -> None:
    """Issue 16: a Luz bet is final (luz.md §5.5, §9); a MINE! pass is final (§5.2) and a
    placement after which the dummy director shows its move cannot be taken back."""
    # Luz: every seat bets in turn; each answer says "not undoable" and an undo is refused.
    players = [new_player(http, f"B{i}") for i in range(3)]
    tid = make_table(players[0], "luz", 3)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    for _ in range(3):
        p, state = acting(players, tid)
        r = p.act(tid, state["version"], _bet(state))
        assert r.status_code == 200 and r.json()["undoable"] is False, r.text
        refused = _undo(p, tid, r.json()["version"])
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_undoable"
        assert p.state(tid)["version"] == r.json()["version"]
    # MINE! with the dummy after seat 1: seat 1's placement brings the dummy's move.
    a, b = new_player(http, "M0"), new_player(http, "M1")
    tid = make_table(a, "mine", 2, {"dummy": True, "first_player": 1})["id"]
    assert b.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
    state = b.state(tid)
    place = next(x for x in state["legal_actions"] if x["type"] != "pass")
    r = b.act(tid, state["version"], place)
    assert r.status_code == 200 and r.json()["undoable"] is False, r.text
    assert any(e.get("director") == 2 for e in r.json()["events"]), "the dummy moved"
    refused = _undo(b, tid, r.json()["version"])
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_undoable"
    p, state = acting([a, b], tid)
    passing = next(x for x in state["legal_actions"] if x["type"] == "pass")
    r = p.act(tid, state["version"], passing)
    assert r.status_code == 200 and r.json()["undoable"] is False, r.text
    assert _undo(p, tid, r.json()["version"]).status_code == 409
