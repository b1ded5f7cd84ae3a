"""The figures of the "How to play" pages: GET /games/{id}/figures and /figures/{name}.

Each figure is a real position the engine built; the server shows only the figure
seat's view of it, shaped like the table's state frame, so the page can draw it with
the game's own renderer.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from app.games import REGISTRY
from app.games.base import Engine, dump
from tests.support.pickgame import PICK

ENGINES: dict[str, Engine] = {"pick": PICK, **REGISTRY}  # type: ignore[dict-item]
PICTURE_KEYS = {
    "game", "name", "caption", "seat", "version", "status",
    "to_act", "view", "legal_actions", "result",
}  # fmt: skip


def _json(value: Any) -> Any:
    """What the value looks like after a trip through JSON (int dict keys become strings)."""
    return json.loads(json.dumps(value))


def _expected(engine: Engine, name: str) -> dict[str, Any]:
    figure = engine.figures[name]()
    state, seat = figure.state, figure.seat
    result = engine.result(state)
    legal = engine.legal_actions(state, seat) if seat is not None else []
    return _json(
        {
            "game": engine.info.id,
            "name": name,
            "caption": figure.caption,
            "seat": seat,
            "version": 0,
            "status": "playing" if result is None else "finished",
            "to_act": sorted(engine.to_act(state)),
            "view": dump(engine.view(state, seat)),
            "legal_actions": [dump(a) for a in legal],
            "result": None if result is None else dump(result),
        }
    )


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_every_figure_answers_the_seats_picture(http: httpx.Client, game_id: str) -> None:
    engine = ENGINES[game_id]
    names = list(engine.figures)
    if game_id in REGISTRY:
        assert len(names) >= 3, f"{game_id}: the rules page needs at least 3 figures"
    listed = http.get(f"/api/v1/games/{game_id}/figures")
    assert listed.status_code == 200
    assert [f["name"] for f in listed.json()] == names
    for name in names:
        r = http.get(f"/api/v1/games/{game_id}/figures/{name}")
        assert r.status_code == 200, (name, r.text)
        picture = r.json()
        assert set(picture) == PICTURE_KEYS
        expected = _expected(engine, name)
        assert picture == expected, f"{game_id}/{name} differs from the engine's picture"
        assert picture["caption"].strip(), f"{game_id}/{name} has no caption"
        if picture["seat"] is None:
            assert picture["legal_actions"] == []
        assert {"name": name, "caption": picture["caption"]} in listed.json()


def test_unknown_game_or_figure_is_not_found(http: httpx.Client) -> None:
    for path in (
        "/api/v1/games/nosuchgame/figures",
        "/api/v1/games/nosuchgame/figures/start",
        "/api/v1/games/pick/figures/nosuchfigure",
    ):
        r = http.get(path)
        assert r.status_code == 404, path
        assert r.json()["error"]["code"] == "not_found"
        assert r.json()["error"]["message"]


def test_the_pick_figure_is_the_documented_shape(http: httpx.Client) -> None:
    picture = http.get("/api/v1/games/pick/figures/start").json()
    assert picture["game"] == "pick" and picture["name"] == "start"
    assert picture["version"] == 0 and picture["status"] == "playing"
    assert picture["seat"] == 0 and picture["caption"] == "a fresh pile"
    assert picture["view"]["pile"] == 11 and picture["result"] is None
    # Seat 0 sees its own legal actions only when it is to act.
    assert bool(picture["legal_actions"]) == (0 in picture["to_act"])


def test_the_rules_page_is_served_for_known_games_only(http: httpx.Client) -> None:
    r = http.get("/games/pick/rules")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    r = http.get("/games/nosuchgame/rules")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
