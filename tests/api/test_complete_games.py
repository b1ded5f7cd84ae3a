"""Complete games through the public API at every player count and with the options,
one person (random legal actions, exactly as a third-party client would) and bots."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import httpx
import pytest

from app.games import REGISTRY
from app.games.base import Result
from app.verify import verify
from tests.support.client import Player, make_table, new_player

CASES: list[tuple[str, int, dict[str, Any]]] = []
if "luz" in REGISTRY:
    CASES += [
        ("luz", 3, {}),
        ("luz", 4, {"trump": "none", "safety_miss_from": "nearest"}),
        (
            "luz",
            5,
            {
                "first_player_rotation": "fixed",
                "strict_memory": True,
                "manual_sort_direction": True,
            },
        ),
    ]
if "mine" in REGISTRY:
    CASES += [
        ("mine", 2, {}),
        ("mine", 3, {"dummy": True, "variant": True}),
        ("mine", 4, {"variant": True, "first_player": 2}),
        ("mine", 5, {"dummy": True}),
        ("mine", 6, {"variant": False}),
    ]
if "gluckauf" in REGISTRY:
    CASES += [
        ("gluckauf", 2, {}),
        ("gluckauf", 3, {}),
        ("gluckauf", 4, {"delivered_visible": True}),
    ]
if "ginkgopolis" in REGISTRY:
    CASES += [
        ("ginkgopolis", 1, {}),
        ("ginkgopolis", 2, {"characters": "draft", "hidden_sp": True}),
        ("ginkgopolis", 3, {}),
        ("ginkgopolis", 4, {"characters": "random", "keep_token_order": True}),
        ("ginkgopolis", 5, {}),
    ]


@pytest.mark.parametrize(
    ("game", "seats", "options"), CASES, ids=[f"{g}-{n}-{i}" for i, (g, n, _) in enumerate(CASES)]
)
def test_a_person_and_bots_play_to_a_final_result(
    http: httpx.Client, game: str, seats: int, options: dict[str, Any]
) -> None:
    rng = random.Random(f"{game}{seats}")
    person = new_player(http, "Person")
    table = make_table(person, game, seats, options)
    for _ in range(seats - 1):
        assert (
            person.post(f"/api/v1/tables/{table['id']}/bots", {"level": "normal"}).status_code
            == 200
        )
    assert person.post(f"/api/v1/tables/{table['id']}/start").status_code == 200
    deadline = time.monotonic() + 240
    acted = 0
    while time.monotonic() < deadline:
        state = person.state(table["id"])
        if state["status"] == "finished":
            break
        if not state["legal_actions"]:
            time.sleep(0.01)
            continue
        r = person.act(table["id"], state["version"], rng.choice(state["legal_actions"]))
        assert r.status_code in (200, 409), r.text
        acted += 1
    result = state["result"]
    assert state["status"] == "finished", "the game did not end in time"
    assert sorted(result["ranking"]) == list(range(seats))
    assert set(result["scores"]) == {str(s) for s in range(seats)}
    assert acted > 0
    _check_the_setup_is_logged(http, person, table["id"], game, seats)
    # Asked in a language, the result also explains its ties for people (the engine's
    # text from the stored result; "" when nobody tied); tiebreak itself is unchanged.
    engine = REGISTRY[game]
    for lang in ("es", "en"):
        r = person.get(f"/api/v1/tables/{table['id']}/state", params={"lang": lang})
        localized = r.json()["result"]
        assert localized["tiebreak"] == result["tiebreak"]
        assert localized["tiebreak_text"] == engine.describe(Result.model_validate(result), lang)
        assert not re.search(
            r"\b(seats?|asientos?|players?|jugador) 0\b", localized["tiebreak_text"], re.I
        )


# How each game announces the start of a deal or round, and how many the game had.
OPENINGS: dict[str, tuple[str, str]] = {
    "luz": ("deal_started", "deal"),
    "mine": ("round_started", "round"),
}


def _check_the_setup_is_logged(
    http: httpx.Client, person: Player, tid: str, game: str, seats: int
) -> None:
    """Version 1 of the log is the setup: the events of ``Engine.start`` (as the person may
    see them, by nobody), so that the first deal or round begins in the log like the others."""
    engine = REGISTRY[game]
    replay = http.get(f"/api/v1/tables/{tid}/replay").json()
    options = engine.Options.model_validate(replay["table"]["options"])
    opened = engine.start(seats, replay["seed"], options).events
    assert replay["setup_events"] == [e.model_dump(mode="json") for e in opened]
    log = person.get(f"/api/v1/tables/{tid}/log").json()["events"]
    first = [e for e in log if e["version"] == 1]
    seen = [e.model_dump(mode="json") for e in opened if e.is_visible_to(0)]
    assert first == [
        {"version": 1, "actor": None, **{k: v for k, v in e.items() if k != "visible_to"}}
        for e in seen
    ]
    if game in OPENINGS:
        kind, number = OPENINGS[game]
        begun = [e[number] for e in log if e["type"] == kind]
        assert (
            begun == list(range(1, len(begun) + 1)) and begun[0] == 1 and first[0]["type"] == kind
        )
        if game == "luz":
            assert len(begun) == 4  # a Luz game is always four deals (§7)
    # The log still replays and verifies (the setup record is passed over).
    assert verify(replay, games=REGISTRY)
