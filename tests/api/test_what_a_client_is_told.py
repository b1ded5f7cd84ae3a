"""Issue 35, "What a client is told": the log a third-party client reads, at the API.

A Ginkgopolis draft table announces the draft at version 1 (each pile only to its seat),
Hal's face-down card has its public event, and the ``?lang=`` messages of every game
carry numbers as JSON numbers.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from app.games import REGISTRY
from tests.support.client import Player, make_table, new_player


def _log(who: Player | httpx.Client, tid: str, lang: str | None = None) -> list[dict[str, Any]]:
    params = {"lang": lang} if lang else {}
    r = who.get(f"/api/v1/tables/{tid}/log", params=params)
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def _started(
    http: httpx.Client, game: str, seats: int, options: dict[str, Any]
) -> tuple[str, list[Player]]:
    players = [new_player(http, f"P{i}") for i in range(seats)]
    tid = make_table(players[0], game, seats, options)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    return tid, players


def test_a_ginkgopolis_draft_table_announces_the_draft_at_version_1(http: httpx.Client) -> None:
    tid, players = _started(http, "ginkgopolis", 3, {"characters": "draft"})
    public = _log(http, tid, "en")
    assert [e["type"] for e in public if e["version"] == 1] == ["draft_started"]
    started = public[0]
    assert (started["n_players"], started["pile_size"]) == (3, 4)
    assert started["text"].startswith("Character draft for 3 players")
    piles: dict[int, list[str]] = {}
    for seat, p in enumerate(players):
        mine = [e for e in _log(p, tid, "es") if e["version"] == 1]
        assert [e["type"] for e in mine] == ["draft_started", "draft_pile_received"]
        pile = mine[1]
        view = p.state(tid)["view"]
        own = next(pl for pl in view["players"] if pl.get("draft_pile") is not None)
        assert pile["player"] == seat and pile["characters"] == own["draft_pile"]
        assert pile["text"].startswith("Tu pila del draft: ")
        piles[seat] = pile["characters"]
    # Nobody's log names another seat's characters.
    for seat, p in enumerate(players):
        text = json.dumps(_log(p, tid, "en"))
        for other, characters in piles.items():
            if other != seat:
                assert not [c for c in characters if c in text], (seat, other)


def test_hals_face_down_card_is_in_the_log_for_everybody(http: httpx.Client) -> None:
    tid, (you,) = _started(http, "ginkgopolis", 1, {})
    for reader in (http, you):
        setup = [e for e in _log(reader, tid, "en") if e["version"] == 1]
        drawn = [e for e in setup if e["type"] == "hal_card_drawn"]
        assert len(drawn) == 1 and drawn[0]["text"] == "Hal drew 1 card face down."
        assert set(drawn[0]) - {"version", "actor", "text", "message", "at"} == {
            "type",
            "player",
            "count",
        }
    view = you.state(tid)["view"]
    assert view["hal_card_face_down"] is True


_NUMBER_TEXT = re.compile(r"[+-]?\d+(\.\d+)?")


def _number_texts(value: Any) -> list[str]:
    if isinstance(value, dict):
        inner = value.get("params", {}) if "key" in value else value
        return [t for v in inner.values() for t in _number_texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _number_texts(v)]
    return [value] if isinstance(value, str) and _NUMBER_TEXT.fullmatch(value) else []


def test_the_numbers_of_lang_lines_are_json_numbers_in_every_game(http: httpx.Client) -> None:
    """The setup's lines of each game (MINE! with the die cards, where round_started gave
    ``mine_max`` and ``sale_max`` as strings) and a few moves of each."""
    options = {"mine": {"variant": True}, "ginkgopolis": {}, "luz": {}, "gluckauf": {}}
    for game in sorted(REGISTRY):
        seats = max(REGISTRY[game].info.min_players, 2)
        tid, players = _started(http, game, seats, options[game])
        for _ in range(6):
            movers = [(p, p.state(tid)) for p in players]
            movers = [(p, s) for p, s in movers if s["legal_actions"]]
            if not movers:
                break
            p, s = movers[0]
            assert p.act(tid, s["version"], s["legal_actions"][0]).status_code == 200
        for lang in ("en", "es"):
            events = _log(players[0], tid, lang)
            assert events and all("message" in e for e in events)
            found = [t for e in events for t in _number_texts(e["message"])]
            assert not found, (game, lang, found)
        if game == "mine":
            (round_started,) = [e for e in events if e["type"] == "round_started"]
            params = round_started["message"]["params"]
            assert isinstance(params["mine_max"], int) and isinstance(params["sale_max"], int)
