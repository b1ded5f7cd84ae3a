"""A finished table's result explains its ties for people when a language is asked for
(docs/API-EXTENSIONS.md "Readable tie-breaks"): ``result.tiebreak_text`` next to the
unchanged ``result.tiebreak``, in REST state and table answers and in WebSocket frames."""

from __future__ import annotations

from typing import Any

import httpx

from app.games.base import Result
from tests.support.client import Player, new_player
from tests.support.live import LiveServer
from tests.support.pickgame import PICK
from tests.support.wsclient import Socket


def _tied_table(http: httpx.Client) -> tuple[str, list[Player], list[int]]:
    """A Pick game of three that ends with the first two movers tied on 3 tokens each.

    Pile 7, takes of at most 3: the first mover takes 3, the second 3, and the third must
    take the last token (and loses). Returns the table, its players by seat, and the seats
    in the order they moved; the last move is left to the caller.
    """
    players = [new_player(http, name) for name in ("Ana", "Ben", "Cid")]
    r = players[0].post(
        "/api/v1/tables", {"game": "pick", "seats": 3, "options": {"pile": 7, "max_take": 3}}
    )
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    by_seat = sorted(players, key=lambda p: p.state(tid)["seat"])
    first = by_seat[0].state(tid)["to_act"][0]
    order = [(first + i) % 3 for i in range(3)]
    for seat in order[:2]:
        version = by_seat[seat].state(tid)["version"]
        assert by_seat[seat].act(tid, version, {"type": "take", "count": 3}).status_code == 200
    return tid, by_seat, order


def _expected(result: dict[str, Any], lang: str) -> str:
    plain = {k: v for k, v in result.items() if k != "tiebreak_text"}
    return PICK.describe(Result.model_validate(plain), lang)  # type: ignore[arg-type]


def test_state_and_table_carry_the_readable_tiebreak_in_the_language_asked(
    http: httpx.Client,
) -> None:
    tid, players, order = _tied_table(http)
    last = players[order[2]]
    version = last.state(tid)["version"]
    assert last.act(tid, version, {"type": "take", "count": 1}).status_code == 200

    # Without a language the result is exactly as before.
    plain = last.state(tid)
    assert plain["status"] == "finished"
    result = plain["result"]
    assert result["tiebreak"] == "sum of bonus cards" and "tiebreak_text" not in result
    assert result["scores"] == {str(order[0]): 3, str(order[1]): 3, str(order[2]): 0}

    es = last.get(f"/api/v1/tables/{tid}/state", params={"lang": "es"}).json()["result"]
    assert es["tiebreak"] == result["tiebreak"]
    text = es["tiebreak_text"]
    assert text == _expected(result, "es")
    assert text.startswith("Empate a 3 fichas: desempata la suma de las cartas de bonificación")
    bonus = result["details"]["bonus"]
    for seat in order[:2]:
        assert f"{seat + 1}: {bonus[str(seat)]}" in text  # seats for people count from 1

    table = http.get(f"/api/v1/tables/{tid}", params={"lang": "en"}).json()
    assert table["result"]["tiebreak_text"] == _expected(result, "en")
    assert table["result"]["tiebreak_text"].startswith("Tie on 3 tokens")
    assert "tiebreak_text" not in http.get(f"/api/v1/tables/{tid}").json()["result"]
    assert http.get(f"/api/v1/tables/{tid}/state", params={"lang": "fr"}).status_code == 422


def test_websocket_frames_carry_the_readable_tiebreak(http: httpx.Client, live: LiveServer) -> None:
    tid, players, order = _tied_table(http)
    last = players[order[2]]
    ws = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={last.token}&lang=es")
    spectator = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws")
    try:
        version = ws.until(lambda f: f["type"] == "state")["version"]
        ws.send(
            {
                "type": "action",
                "version": version,
                "action": {"type": "take", "count": 1},
                "id": "end",
            }
        )
        answer = ws.until(lambda f: f.get("ref") == "end")
        assert answer["type"] == "state" and answer["status"] == "finished"
        result = answer["result"]
        assert result["tiebreak_text"] == _expected(result, "es")
        assert result["tiebreak_text"].startswith("Empate a 3 fichas")
        # A new socket in English gets the table and the state in English.
        en = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?lang=en")
        try:
            table = en.until(lambda f: f["type"] == "table")["table"]
            assert table["result"]["tiebreak_text"].startswith("Tie on 3 tokens")
            state = en.until(lambda f: f["type"] == "state")
            assert state["result"]["tiebreak_text"] == table["result"]["tiebreak_text"]
        finally:
            en.close()
        # A socket without a language: the result as it always was.
        seen = spectator.state_at(answer["version"])
        assert seen["result"]["tiebreak"] == "sum of bonus cards"
        assert "tiebreak_text" not in seen["result"]
    finally:
        ws.close()
        spectator.close()
