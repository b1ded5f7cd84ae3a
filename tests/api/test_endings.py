"""Resign, cancel by agreement, delete an open table, play again, and the per-player cap
that counts only tables that can still move (issue 18.3; API-EXTENSIONS.md, "Ending a
table"). Every test runs on SQLite and on PostgreSQL (the ``http`` server is per backend).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.tables.outcomes import early_result
from app.verify import VerificationFailed, verify
from tests.conftest import test_games
from tests.support.client import Player, new_player
from tests.support.databases import BACKENDS
from tests.support.live import LiveServer, temporary_server
from tests.support.waiting import wait_until
from tests.support.wsclient import Socket

API = "/api/v1"


def _table(
    players: list[Player],
    *,
    bots: tuple[str, ...] = (),
    start: bool = True,
    pile: int = 30,
    **extra: Any,
) -> str:
    """Seat ``players`` (seat 0, 1, ...), then bots at these levels; start unless told not."""
    owner = players[0]
    body = {"game": "pick", "seats": len(players) + len(bots), "options": {"pile": pile}, **extra}
    r = owner.post(f"{API}/tables", body)
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    invite = r.json().get("invite_code")
    for p in players[1:]:
        assert p.post(f"{API}/tables/{tid}/join", {"invite": invite} if invite else None).is_success
    for level in bots:
        assert owner.post(f"{API}/tables/{tid}/bots", {"level": level}).is_success
    if start:
        assert owner.post(f"{API}/tables/{tid}/start").status_code == 200
    return tid


def _table_of(p: Player, tid: str) -> dict[str, Any]:
    r = p.get(f"{API}/tables/{tid}")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _seat(p: Player, tid: str) -> int:
    return next(
        s["seat"] for s in _table_of(p, tid)["seats"] if (s["player"] or {}).get("id") == p.id
    )


def _error(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


def _wait(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    return wait_until(check, timeout, every=0.05)


def _play_out(players: list[Player], tid: str) -> dict[str, Any]:
    """The people still playing take one token whenever it is their turn (bots play theirs)."""

    def step() -> dict[str, Any] | None:
        for p in players:
            s = p.state(tid)
            if s["status"] == "finished":
                return s
            if s["legal_actions"]:
                take = next(a for a in s["legal_actions"] if a["type"] == "take")
                r = p.act(tid, s["version"], take)
                assert r.status_code in (200, 409), r.text
        return None

    return _wait(step, timeout=60)  # type: ignore[no-any-return]


def _alone(live: LiveServer, p: Player, path: str) -> httpx.Response:
    with httpx.Client(base_url=live.url, timeout=30) as http:
        return http.post(path, headers=p.auth)


def _verified(p: Player, tid: str) -> list[str]:
    r = p.get(f"{API}/tables/{tid}/replay")
    assert r.status_code == 200, r.text
    return verify(r.json(), games=test_games())  # type: ignore[arg-type]


def _rating(p: Player, viewer: Player) -> int | None:
    page = viewer.get(f"{API}/players/{p.id}").json()
    return next((r["rating"] for r in page["ratings"] if r["game"] == "pick"), None)


# --------------------------------------------------------------------------- resign


def test_a_two_player_resign_ends_the_game_with_the_other_the_winner(http: httpx.Client) -> None:
    ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
    tid = _table([ana, ben])
    assert _table_of(ana, tid)["on_resign"] == "last"  # the default
    r = ana.post(f"{API}/tables/{tid}/resign")
    assert r.status_code == 200, r.text
    table = r.json()
    assert table["status"] == "finished"
    assert [s["resigned"] for s in table["seats"]] == [True, False]
    result = ben.state(tid)["result"]
    assert result["ended_early"] is True and result["resigned"] == [0]
    assert result["ranking"] == [1, 0] and result["places"] == {"1": 1, "0": 2}
    assert result["scores"] == {}
    # The readable line says why (the engine explains only its own results).
    assert (
        "resigned" in ben.get(f"{API}/tables/{tid}/state?lang=en").json()["result"]["tiebreak_text"]
    )
    # It is over for both: nothing more to send, to resign or to vote on.
    _error(ben.act(tid, table["version"], {"type": "pass_turn"}), 409, "not_playing")
    _error(ana.post(f"{API}/tables/{tid}/resign"), 409, "not_playing")
    # Rated as the result says: the one who stayed won.
    _wait(lambda: _rating(ana, ben) is not None and _rating(ben, ana) is not None)
    assert _rating(ben, ana) > _rating(ana, ben)  # type: ignore[operator]
    games = ben.get(f"{API}/players/{ana.id}").json()["games"]
    mine = next(g for g in games if g["table_id"] == tid)
    assert mine["place"] == 2 and mine["resigned"] is True and mine["cancelled"] is False
    # The log replays as it is; the result follows from the resignations.
    assert any("ended early" in line for line in _verified(ben, tid))


def test_with_three_the_game_goes_on_and_the_resigned_seat_ranks_last(
    http: httpx.Client, live: LiveServer
) -> None:
    ana, ben, cai = (new_player(http, n) for n in ("Ana", "Ben", "Cai"))
    tid = _table([ana, ben, cai], pile=12)
    ws = Socket(f"{live.ws_url}{API}/tables/{tid}/ws?token={cai.token}")
    try:
        ws.until(lambda f: f["type"] == "state")
        r = ben.post(f"{API}/tables/{tid}/resign")
        assert r.status_code == 200, r.text
        table = r.json()
        assert table["status"] == "playing"
        ben_seat = table["seats"][1]
        assert ben_seat["resigned"] is True and ben_seat["bot"] is True
        assert ben_seat["taken_over"] is False  # no way back
        # Every socket hears of it.
        ws.until(lambda f: f["type"] == "table" and f["table"]["seats"][1]["resigned"])
    finally:
        ws.close()
    # Ben has left the game: nothing to send, no seat to take back, no second resignation.
    assert ben.state(tid)["legal_actions"] == []
    state = ben.state(tid)
    _error(ben.act(tid, state["version"], {"type": "pass_turn"}), 409, "resigned")
    _error(ben.post(f"{API}/tables/{tid}/take-back"), 409, "resigned")
    _error(ben.post(f"{API}/tables/{tid}/resign"), 409, "resigned")
    _error(ben.post(f"{API}/tables/{tid}/seats/0/takeover"), 409, "resigned")
    final = _play_out([ana, cai], tid)
    result = final["result"]
    assert result["resigned"] == [1]
    assert result["ranking"][-1] == 1 and result["places"]["1"] == 3
    assert sorted(result["places"][str(s)] for s in (0, 2)) in ([1, 2], [1, 1])
    assert "ended_early" not in result and result["on_resign"] == "last"
    text = ana.get(f"{API}/tables/{tid}?lang=en").json()["result"]["tiebreak_text"]
    assert text.splitlines()[-1] == "Seat 2 resigned and is ranked last."
    assert any("resigned (last)" in line for line in _verified(ana, tid))


def test_on_resign_bot_lets_the_bot_finish_the_seat_at_its_own_place(http: httpx.Client) -> None:
    ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
    tid = _table([ana, ben], pile=10, on_resign="bot")
    assert _table_of(ana, tid)["on_resign"] == "bot"
    r = ana.post(f"{API}/tables/{tid}/resign")
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    result = _play_out([ben], tid)["result"]
    assert result["resigned"] == [0]
    # The engine's own ranking: whoever took the last token lost, bot or not.
    engine_view = ana.state(tid)["view"]
    loser = engine_view["loser"]
    assert result["places"][str(loser)] == 2 and result["places"][str(1 - loser)] == 1
    text = ben.get(f"{API}/tables/{tid}/state?lang=es").json()["result"]["tiebreak_text"]
    assert text.splitlines()[-1] == "El asiento 1 abandonó; un bot terminó su partida."
    assert any("resigned (bot)" in line for line in _verified(ana, tid))


def test_resign_refusals(http: httpx.Client) -> None:
    ana, ben, eve = (new_player(http, n) for n in ("Ana", "Ben", "Eve"))
    tid = _table([ana, ben], start=False)
    _error(ana.post(f"{API}/tables/{tid}/resign"), 409, "not_playing")
    assert ana.post(f"{API}/tables/{tid}/start").status_code == 200
    _error(eve.post(f"{API}/tables/{tid}/resign"), 403, "not_seated")
    _error(http.post(f"{API}/tables/{tid}/resign"), 401, "unauthorized")
    _error(ana.post(f"{API}/tables/nosuchtable/resign"), 404, "not_found")
    secret = _table([ana, ben], private=True)
    _error(eve.post(f"{API}/tables/{secret}/resign"), 404, "not_found")
    r = ana.post(f"{API}/tables", {"game": "pick", "on_resign": "never"})
    _error(r, 422, "validation_error")


# --------------------------------------------------------------------------- cancel


def test_the_owner_proposes_and_everybody_agrees_to_cancel(http: httpx.Client) -> None:
    ana, ben, cai, eve = (new_player(http, n) for n in ("Ana", "Ben", "Cai", "Eve"))
    tid = _table([ana, ben, cai], bots=("normal",))
    vote = f"{API}/tables/{tid}/cancel/vote"
    # Nobody but the owner proposes; nobody votes on what was not proposed.
    _error(ben.post(f"{API}/tables/{tid}/cancel"), 403, "forbidden")
    _error(ben.post(vote, {"agree": True}), 409, "cancel_not_proposed")
    _error(ben.post(vote, {}), 422, "validation_error")
    r = ana.post(f"{API}/tables/{tid}/cancel")
    assert r.status_code == 200, r.text
    proposal = r.json()["cancel_vote"]
    assert proposal == {
        "proposed_by": {"id": ana.id, "name": "Ana"},
        "agreed": [0],
        "waiting": [1, 2],
    }
    # Proposing again changes nothing; one refusal turns it down.
    assert ana.post(f"{API}/tables/{tid}/cancel").json()["cancel_vote"] == proposal
    r = ben.post(vote, {"agree": False})
    assert (
        r.status_code == 200 and r.json()["cancel_vote"] is None and r.json()["status"] == "playing"
    )
    _error(cai.post(vote, {"agree": True}), 409, "cancel_not_proposed")
    # Again: Ben agrees, an outsider cannot vote, Cai's yes decides.
    assert ana.post(f"{API}/tables/{tid}/cancel").is_success
    assert ben.post(vote, {"agree": True}).json()["cancel_vote"]["waiting"] == [2]
    _error(eve.post(vote, {"agree": True}), 403, "not_seated")
    r = cai.post(vote, {"agree": True})
    assert r.status_code == 200, r.text
    table = r.json()
    assert table["status"] == "finished" and table["cancel_vote"] is None
    result = ana.state(tid)["result"]
    assert result["cancelled"] is True and result["ranking"] == [] and result["places"] == {}
    es = ana.get(f"{API}/tables/{tid}?lang=es").json()["result"]["tiebreak_text"]
    assert "cancelar" in es
    # It stays over: no action, proposal or vote; shown as cancelled in the lobby and on
    # the players' pages, unrated, and the replay and its check still work.
    _error(ana.act(tid, table["version"], {"type": "pass_turn"}), 409, "not_playing")
    _error(ana.post(f"{API}/tables/{tid}/cancel"), 409, "not_playing")
    _error(ben.post(vote, {"agree": True}), 409, "not_playing")
    listed = http.get(f"{API}/tables?status=finished").json()
    assert next(t for t in listed if t["id"] == tid)["result"]["cancelled"] is True
    page = http.get(f"{API}/players/{ben.id}").json()
    game = next(g for g in page["games"] if g["table_id"] == tid)
    assert game["cancelled"] is True and game["place"] is None
    assert page["stats"]["played"] == 0 and page["ratings"] == []
    assert any("cancelled" in line for line in _verified(ana, tid))


def test_who_votes_on_a_cancel(http: httpx.Client) -> None:
    """A player who resigned no longer votes (their resignation can complete the vote);
    one whose seat a bot plays votes after taking it back."""
    ana, ben, cai = (new_player(http, n) for n in ("Ana", "Ben", "Cai"))
    tid = _table([ana, ben, cai], pile=40)
    assert ana.post(f"{API}/tables/{tid}/cancel").json()["cancel_vote"]["waiting"] == [1, 2]
    assert ben.post(f"{API}/tables/{tid}/cancel/vote", {"agree": True}).is_success
    # Cai resigns instead of answering: everybody left has agreed, the game is cancelled.
    r = cai.post(f"{API}/tables/{tid}/resign")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "finished"
    assert ana.state(tid)["result"]["cancelled"] is True
    # A resigned player's vote is refused.
    tid = _table([ana, ben, cai], pile=40)
    assert cai.post(f"{API}/tables/{tid}/resign").json()["status"] == "playing"
    assert ana.post(f"{API}/tables/{tid}/cancel").json()["cancel_vote"]["waiting"] == [1]
    _error(cai.post(f"{API}/tables/{tid}/cancel/vote", {"agree": True}), 409, "resigned")


# --------------------------------------------------------------------------- by the rules


def _cancel(p: Player, tid: str) -> httpx.Response:
    return p.post(f"{API}/tables/{tid}/cancel")


def _agree(p: Player, tid: str, agree: bool = True) -> httpx.Response:
    return p.post(f"{API}/tables/{tid}/cancel/vote", {"agree": agree})


def test_a_resigned_owner_has_no_say_in_a_cancel(http: httpx.Client) -> None:
    """A resigned owner cannot propose, and a proposal made before resigning lapses: a
    cancel would erase the last place their resignation earned."""
    ana, ben, cai = (new_player(http, n) for n in ("Ana", "Ben", "Cai"))
    tid = _table([ana, ben, cai], pile=40)
    assert ana.post(f"{API}/tables/{tid}/resign").json()["status"] == "playing"
    _error(_cancel(ana, tid), 409, "resigned")
    table = _table_of(ben, tid)
    assert table["status"] == "playing" and table["cancel_vote"] is None
    # Proposed first, then resigned: the proposal goes with the owner's say.
    tid = _table([ana, ben, cai], pile=40)
    assert _agree(ben, tid).status_code == 409  # nothing proposed yet
    assert _cancel(ana, tid).json()["cancel_vote"]["waiting"] == [1, 2]
    assert _agree(ben, tid).json()["cancel_vote"]["waiting"] == [2]
    r = ana.post(f"{API}/tables/{tid}/resign")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "playing" and r.json()["cancel_vote"] is None
    _error(_agree(cai, tid), 409, "cancel_not_proposed")
    assert _table_of(cai, tid)["status"] == "playing"


def test_nobody_cancels_alone(http: httpx.Client) -> None:
    """Every other seat a bot's, or left by a resignation mid-vote: no other person can
    agree, so the proposal is refused at once and a vote under way lapses."""
    ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
    tid = _table([ana], bots=("normal", "random"), pile=40)
    _error(_cancel(ana, tid), 409, "cancel_needs_another_player")
    table = _table_of(ana, tid)
    assert table["status"] == "playing" and table["cancel_vote"] is None
    tid = _table([ana, ben], bots=("normal",), pile=40)
    assert _cancel(ana, tid).json()["cancel_vote"]["waiting"] == [1]
    r = ben.post(f"{API}/tables/{tid}/resign")  # Ana and the bot play on
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "playing" and r.json()["cancel_vote"] is None
    _error(_cancel(ana, tid), 409, "cancel_needs_another_player")
    assert _table_of(ana, tid)["status"] == "playing"


def test_a_seat_handed_to_a_bot_mid_vote_is_counted_by_the_same_rule(http: httpx.Client) -> None:
    """A voter's seat handed to a bot: the others' yes completes the vote, or, with nobody
    else left to agree, the proposal lapses; taken back, the player has a say again."""
    ana, ben, cai = (new_player(http, n) for n in ("Ana", "Ben", "Cai"))
    away = {"time_control": {"abandon": "vote", "grace_seconds": 1}}
    three = _table([ana, ben, cai], pile=40, **away)
    two = _table([ana, ben], pile=40, **away)
    assert _cancel(ana, three).is_success and _agree(ben, three).is_success
    assert _cancel(ana, two).json()["cancel_vote"]["waiting"] == [1]
    time.sleep(1.5)  # past the grace: Cai and Ben have not been seen since they joined
    assert ana.post(f"{API}/tables/{three}/seats/2/takeover").is_success
    r = ben.post(f"{API}/tables/{three}/seats/2/takeover")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "finished"
    assert ana.state(three)["result"]["cancelled"] is True
    r = ana.post(f"{API}/tables/{two}/seats/1/takeover")
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["taken_over"] is True
    assert r.json()["status"] == "playing" and r.json()["cancel_vote"] is None
    _error(_cancel(ana, two), 409, "cancel_needs_another_player")
    _error(_agree(ben, two), 409, "seat_taken_over")
    assert ben.post(f"{API}/tables/{two}/take-back").is_success
    assert _cancel(ana, two).json()["cancel_vote"]["waiting"] == [1]


@pytest.mark.parametrize("on_resign", ["last", "bot"])
def test_a_solo_game_resigned_is_lost_to_the_automatic_opponent(
    http: httpx.Client, on_resign: str
) -> None:
    """Ginkgopolis solo: the only seat resigns; Hal wins, in the result, on the player's
    page and in the replay's check. With either rule: a bot would finish the seat for
    nobody else."""
    ana, eve = new_player(http, "Ana"), new_player(http, "Eve")
    body = {"game": "ginkgopolis", "seats": 1, "on_resign": on_resign}
    r = ana.post(f"{API}/tables", body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert ana.post(f"{API}/tables/{tid}/start").status_code == 200
    r = ana.post(f"{API}/tables/{tid}/resign")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "finished"
    result = ana.state(tid)["result"]
    assert result["ranking"] == [0] and result["places"] == {"0": 2}
    assert result["resigned"] == [0] and result["ended_early"] is True
    (hal,) = result["others"]
    assert hal["id"] == "hal" and hal["place"] == 1 and isinstance(hal["score"], int)
    es = ana.get(f"{API}/tables/{tid}?lang=es").json()["result"]["tiebreak_text"]
    assert "todos los jugadores abandonaron" in es
    page = eve.get(f"{API}/players/{ana.id}").json()
    assert page["stats"]["played"] == 1 and page["stats"]["won"] == 0
    game = next(g for g in page["games"] if g["table_id"] == tid)
    assert game["place"] == 2 and game["players"] == 2 and game["resigned"] is True
    assert game["rated"] is False and game["unrated_reason"] == "fewer_than_two_people"
    assert any("ended early" in line for line in _verified(ana, tid))


@pytest.mark.parametrize("on_resign", ["last", "bot"])
def test_the_last_person_resigning_ends_the_game_whatever_the_rule(
    http: httpx.Client, on_resign: str
) -> None:
    """Two people and two bots: the first person out leaves the game to the other person (it
    goes on); the last person out leaves it to bots alone, who would finish it for nobody,
    so it ends at once with either rule: the bots' seats share first place."""
    ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
    tid = _table([ana, ben], bots=("random", "random"), pile=40, on_resign=on_resign)
    r = ben.post(f"{API}/tables/{tid}/resign")
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    r = ana.post(f"{API}/tables/{tid}/resign")
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    result = ana.state(tid)["result"]
    assert result["ended_early"] is True and result["resigned"] == [1, 0]
    assert result["places"] == {"2": 1, "3": 1, "0": 3, "1": 4}


def test_an_early_end_ranks_the_automatic_opponent_with_the_seats_still_in(
    http: httpx.Client,
) -> None:
    """MINE! with two seats plays a dummy director: when one seat resigns, the other and the
    dummy share first place (nobody scored yet) and the resigned seat comes after both."""
    ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
    r = ana.post(f"{API}/tables", {"game": "mine", "seats": 2})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert ben.post(f"{API}/tables/{tid}/join").is_success
    assert ana.post(f"{API}/tables/{tid}/start").status_code == 200
    assert ana.post(f"{API}/tables/{tid}/resign").json()["status"] == "finished"
    result = ben.state(tid)["result"]
    assert result["ranking"] == [1, 0] and result["places"] == {"1": 1, "0": 3}
    (dummy,) = result["others"]
    assert dummy["id"] == "dummy" and dummy["place"] == 1
    game = next(g for g in ben.get(f"{API}/players/{ana.id}").json()["games"])
    assert game["place"] == 3 and game["players"] == 3
    assert any("ended early" in line for line in _verified(ben, tid))
    # The check holds the dummy's place; a result stored before it was ranked still checks.
    replay = ben.get(f"{API}/tables/{tid}/replay").json()
    legacy = {**replay, "result": early_result(2, [0])}
    assert any("ended early" in line for line in verify(legacy, games=test_games()))  # type: ignore[arg-type]
    forged = {**replay, "result": {**result, "places": {"1": 1, "0": 2}}}
    with pytest.raises(VerificationFailed):
        verify(forged, games=test_games())  # type: ignore[arg-type]


SEAT_KINDS = ("person", "bot", "resigned")


@pytest.mark.parametrize("owner_resigned", [False, True], ids=["owner_in", "owner_resigned"])
def test_every_mix_of_seats_follows_the_rule(http: httpx.Client, owner_resigned: bool) -> None:
    """Over every mix of the two other seats (a person, a bot, a person who resigned) and
    the owner in or resigned: the proposal, each vote and the end follow the one rule: a
    cancel needs the owner's say and the yes of every other person who still has one, of
    whom there must be at least one. (``on_resign: "bot"``: no resignation ends the game;
    nobody acts, so the people still in keep it waiting for them.)"""
    for kinds in [(a, b) for a in SEAT_KINDS for b in SEAT_KINDS]:
        ana = new_player(http, "Ana")
        people = [new_player(http, f"P{i}") for i, kind in enumerate(kinds) if kind != "bot"]
        bots = tuple("random" for kind in kinds if kind == "bot")
        tid = _table([ana, *people], bots=bots, pile=40, on_resign="bot")
        by_seat = {_seat(p, tid): p for p in people}
        resigned = [
            s
            for s, kind in zip(sorted(by_seat), [k for k in kinds if k != "bot"], strict=True)
            if kind == "resigned"
        ]
        for seat in resigned:
            assert by_seat[seat].post(f"{API}/tables/{tid}/resign").is_success
        if owner_resigned:
            assert ana.post(f"{API}/tables/{tid}/resign").is_success
        voters = [s for s in sorted(by_seat) if s not in resigned]
        # Nobody left but bots: they may finish the game meanwhile (then: not_playing).
        left_to_bots = owner_resigned and not voters
        say_none = ("resigned", "not_playing") if left_to_bots else ("resigned",)
        r = _cancel(ana, tid)
        case = f"{kinds}, owner resigned: {owner_resigned}"
        if owner_resigned:
            assert r.status_code == 409 and r.json()["error"]["code"] in say_none, case
        elif not voters:
            _error(r, 409, "cancel_needs_another_player")
        else:
            assert r.json()["cancel_vote"]["waiting"] == voters, case
        for seat in resigned:
            r = _agree(by_seat[seat], tid)
            assert r.status_code == 409 and r.json()["error"]["code"] in say_none, case
        for index, seat in enumerate(voters):
            r = _agree(by_seat[seat], tid)
            if owner_resigned:
                _error(r, 409, "cancel_not_proposed")
                continue
            last = index == len(voters) - 1
            assert r.json()["status"] == ("finished" if last else "playing"), case
        cancelled = not owner_resigned and bool(voters)
        table = _table_of(ana, tid)
        if not left_to_bots:
            assert table["status"] == ("finished" if cancelled else "playing"), case
        assert bool((table.get("result") or {}).get("cancelled")) is cancelled, case


# --------------------------------------------------------------------------- delete


def test_the_owner_deletes_an_open_table_and_the_seated_see_it_gone(
    http: httpx.Client, live: LiveServer
) -> None:
    ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
    tid = _table([ana, ben], start=False)
    _error(ben.http.delete(f"{API}/tables/{tid}", headers=ben.auth), 403, "forbidden")
    _error(http.delete(f"{API}/tables/{tid}"), 401, "unauthorized")
    ws = Socket(f"{live.ws_url}{API}/tables/{tid}/ws?token={ben.token}")
    try:
        ws.until(lambda f: f["type"] == "table")
        r = ana.http.delete(f"{API}/tables/{tid}", headers=ana.auth)
        assert r.status_code == 204, r.text
        gone = ws.until(lambda f: f["type"] == "table" and f.get("deleted"))
        assert gone == {"type": "table", "table": None, "deleted": tid}
    finally:
        ws.close()
    _error(ben.get(f"{API}/tables/{tid}"), 404, "not_found")
    assert tid not in {t["id"] for t in ben.get(f"{API}/me/tables").json()}
    _error(ana.http.delete(f"{API}/tables/{tid}", headers=ana.auth), 404, "not_found")
    # Only while open: a game that has started is resigned or cancelled, not deleted.
    started = _table([ana, ben])
    _error(ana.http.delete(f"{API}/tables/{started}", headers=ana.auth), 409, "already_started")
    assert _table_of(ana, started)["status"] == "playing"


# --------------------------------------------------------------------------- play again


def test_play_again_makes_one_table_with_the_same_game_seats_and_bots(
    http: httpx.Client, live: LiveServer
) -> None:
    ana, ben, eve = (new_player(http, n) for n in ("Ana", "Ben", "Eve"))
    tc = {"clock": "realtime", "bank_seconds": 300, "increment_seconds": 5}
    tid = _table(
        [ana, ben], bots=("random",), pile=9, private=True, time_control=tc, on_resign="bot"
    )
    rematch = f"{API}/tables/{tid}/rematch"
    _error(ana.post(rematch), 409, "not_finished")
    _play_out([ana, ben], tid)
    old = _table_of(ana, tid)
    assert old["next_table"] is None
    _error(eve.post(rematch), 404, "not_found")  # a private table is not confirmed
    ws = Socket(f"{live.ws_url}{API}/tables/{tid}/ws?token={ana.token}")
    try:
        ws.until(lambda f: f["type"] == "table")
        # Both click at once (each on a connection of its own): one table, made once.
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda p: _alone(live, p, rematch), [ben, ana]))
        assert sorted(r.status_code for r in answers) == [200, 201], [r.text for r in answers]
        new = answers[0].json()
        assert {r.json()["id"] for r in answers} == {new["id"]} and new["id"] != tid
        # Every open page of the old table hears where the next one is.
        heard = ws.until(lambda f: f["type"] == "table" and f["table"]["next_table"])
        assert heard["table"]["next_table"] == new["id"]
    finally:
        ws.close()
    again = ana.post(rematch)
    assert again.status_code == 200 and again.json()["id"] == new["id"]
    assert _table_of(ben, tid)["next_table"] == new["id"]
    # The same game, options, seats, privacy, clocks and resign rule; people at their own
    # seats, the bot at its level; the new table is open, waiting for its owner to start.
    assert new["status"] == "open" and new["game"] == "pick"
    assert new["options"] == old["options"] and new["private"] is True and new["invite_code"]
    assert new["invite_code"] != old["invite_code"]
    assert new["time_control"] == old["time_control"] and new["on_resign"] == "bot"
    assert [(s["player"] or {}).get("id") for s in new["seats"]] == [ana.id, ben.id, None]
    assert [(s["bot"], s["bot_level"]) for s in new["seats"]] == [
        (False, None), (False, None), (True, "random"),
    ]  # fmt: skip
    assert new["seed_commitment"] != old["seed_commitment"]
    owner = new["owner"]["id"]
    assert owner in (ana.id, ben.id)
    players = {ana.id: ana, ben.id: ben}
    # Its players find it among their tables; a player who does not want to play leaves it.
    assert new["id"] in {t["id"] for t in ben.get(f"{API}/me/tables").json()}
    other = players[ben.id if owner == ana.id else ana.id]
    assert other.post(f"{API}/tables/{new['id']}/leave").status_code == 204
    # Deleted by its owner: the next click makes another one.
    r = players[owner].http.delete(f"{API}/tables/{new['id']}", headers=players[owner].auth)
    assert r.status_code == 204, r.text
    assert _table_of(ana, tid)["next_table"] is None
    third = ben.post(rematch)
    assert third.status_code == 201 and third.json()["id"] != new["id"], third.text
    assert third.json()["owner"]["id"] == ben.id


def test_play_again_after_a_resignation_or_a_cancel(http: httpx.Client) -> None:
    ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
    tid = _table([ana, ben])
    assert ana.post(f"{API}/tables/{tid}/resign").json()["status"] == "finished"
    r = ana.post(f"{API}/tables/{tid}/rematch")  # the one who resigned may ask for a rematch
    assert r.status_code == 201, r.text
    seats = r.json()["seats"]
    assert [s["player"]["id"] for s in seats] == [ana.id, ben.id]
    assert not any(s["resigned"] or s["bot"] for s in seats)


# --------------------------------------------------------------------------- the cap


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_cap_counts_only_tables_that_can_still_move(tmp_path: Path, backend: str) -> None:
    with (
        temporary_server(tmp_path, backend, max_open_tables_per_player=2) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
        waiting = _table([ana], bots=("normal",), start=False)  # open: counts
        running = _table([ana, ben], pile=40)  # a person still plays: counts
        r = ana.post(f"{API}/tables", {"game": "pick"})
        _error(r, 409, "too_many_tables")
        assert r.json()["error"]["count"] == 2 and r.json()["error"]["limit"] == 2
        # Deleting the open one frees a place.
        assert ana.http.delete(f"{API}/tables/{waiting}", headers=ana.auth).status_code == 204
        spare = _table([ana], bots=("normal",), start=False)
        _error(ana.post(f"{API}/tables", {"game": "pick"}), 409, "too_many_tables")
        # A cancelled game no longer counts.
        assert ana.post(f"{API}/tables/{running}/cancel").is_success
        assert ben.post(f"{API}/tables/{running}/cancel/vote", {"agree": True}).is_success
        played = _table([ana, ben], pile=40)
        _error(ana.post(f"{API}/tables", {"game": "pick"}), 409, "too_many_tables")
        # Nor does a game the owner resigned from and left to bots alone.
        assert ana.post(f"{API}/tables/{spare}/start").is_success
        assert ana.post(f"{API}/tables/{spare}/resign").is_success
        assert ana.post(f"{API}/tables", {"game": "pick"}).status_code == 201
        # The running game and the new open table count.
        _error(ana.post(f"{API}/tables", {"game": "pick"}), 409, "too_many_tables")
        assert _table_of(ana, played)["status"] == "playing"
