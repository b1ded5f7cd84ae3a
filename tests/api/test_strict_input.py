"""Strict actions and options in every game (issue 16, point 3).

What ``action_schema`` and ``options_schema`` publish is exactly what the server takes:
an integer is a JSON integer (not ``"3"``, ``true`` or ``3.0``), a boolean is ``true`` or
``false`` (not ``"yes"``, ``1`` or ``"false"``), a string is a string. Hypothesis picks a
game, a point in a random game and one scalar of a legal action (or of the options) and
sends it with its type confused: the answer is ``422 validation_error`` naming the field,
and nothing changes (the table stays at its version, no table is created).
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games import REGISTRY
from tests.support.client import Player, make_table, new_player

GAMES = sorted(REGISTRY)
OPTIONS_SCHEMA = {
    g: jsonschema_rs.validator_for(e.Options.model_json_schema()) for g, e in REGISTRY.items()
}

Path = tuple[str | int, ...]


def _scalars(value: Any, path: Path = ()) -> list[tuple[Path, Any]]:
    """Every scalar inside a JSON value with its path; the ``type`` tag is left alone."""
    if isinstance(value, dict):
        return [
            leaf
            for key, item in value.items()
            if not (path == () and key == "type")
            for leaf in _scalars(item, (*path, key))
        ]
    if isinstance(value, list):
        return [leaf for i, item in enumerate(value) for leaf in _scalars(item, (*path, i))]
    return [] if value is None else [(path, value)]


def confusions(value: Any) -> list[Any]:
    """Values of another JSON type that a lax parser would turn into ``value``'s type."""
    if isinstance(value, bool):
        return [str(value).lower(), "yes" if value else "no", int(value), float(value)]
    if isinstance(value, int):
        return [str(value), float(value), value % 2 == 1, [value]]
    if isinstance(value, float):
        return [str(value)]
    if isinstance(value, str):
        return [1, 0, True, [value]]
    raise AssertionError(f"not a JSON scalar: {value!r}")


def _replace(value: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    head, *rest = path
    if isinstance(value, dict):
        return {k: _replace(v, tuple(rest), new) if k == head else v for k, v in value.items()}
    return [_replace(v, tuple(rest), new) if i == head else v for i, v in enumerate(value)]


def _published(schema: Any, value: Any, action: Any, bad: Any) -> bool:
    """Whether the action with ``bad`` in place of ``value`` is still one the published
    schema allows (then it is no confusion: ``"auto"`` to ``true`` is fine where the schema
    says string or boolean). JSON Schema counts 3.0 as an integer; a float in place of an
    integer stays a confusion."""
    if isinstance(bad, float) and isinstance(value, int) and not isinstance(value, bool):
        return False
    return bool(schema.is_valid(action))


def _names_field(body: dict[str, Any], path: Path) -> bool:
    """The error's details point at the confused field (its name, or its index in a list)."""
    error = body["error"]
    if error["code"] != "validation_error":
        return False
    named = [p for p in path if isinstance(p, str)]
    locs = [loc for e in error.get("errors", []) for loc in e["loc"]]
    return not named or named[-1] in locs or named[-1] in error["message"]


_ACTION_SCHEMAS: dict[str, Any] = {}


def _action_schema(http: httpx.Client, game: str) -> Any:
    """A validator of the game's published ``action_schema`` (GET /games)."""
    if game not in _ACTION_SCHEMAS:
        games = {g["id"]: g for g in http.get("/api/v1/games").json()}
        _ACTION_SCHEMAS[game] = jsonschema_rs.validator_for(games[game]["action_schema"])
    return _ACTION_SCHEMAS[game]


def _seats(game: str) -> int:
    info = REGISTRY[game].info
    return max(info.min_players, 2) if info.max_players > 1 else 1


def _started(
    http: httpx.Client, game: str, moves: int, rng: random.Random
) -> tuple[str, list[Player]]:
    n = _seats(game)
    players = [new_player(http, f"S{i}") for i in range(n)]
    tid = make_table(players[0], game, n)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    for _ in range(moves):
        states = [(p, p.state(tid)) for p in players]
        movers = [(p, s) for p, s in states if s["legal_actions"]]
        if not movers:
            break
        p, s = rng.choice(movers)
        r = p.act(tid, s["version"], rng.choice(s["legal_actions"]))
        assert r.status_code == 200, r.text
    return tid, players


@settings(max_examples=12, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
@pytest.mark.parametrize("game", GAMES)
def test_a_type_confused_action_is_refused_and_changes_nothing(
    http: httpx.Client, game: str, data: st.DataObject
) -> None:
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    tid, players = _started(http, game, data.draw(st.integers(0, 12), label="moves"), rng)
    movers = [(p, p.state(tid)) for p in players]
    movers = [(p, s) for p, s in movers if s["legal_actions"]]
    if not movers:
        return
    p, before = movers[0]
    schema = _action_schema(http, game)
    candidates = [
        (a, path, bad)
        for a in before["legal_actions"]
        for path, value in _scalars(a)
        for bad in confusions(value)
        if not _published(schema, value, _replace(a, path, bad), bad)
    ]
    if not candidates:
        return  # only actions with no field but their type (a pass): nothing to confuse
    action, path, bad = data.draw(st.sampled_from(candidates), label="confusion")
    sent = _replace(action, path, bad)
    r = p.act(tid, before["version"], sent)
    assert r.status_code == 422, (sent, r.text)
    assert _names_field(r.json(), path), r.text
    after = p.state(tid)
    assert after["version"] == before["version"] and after["view"] == before["view"]


def _option_cases() -> list[tuple[str, str, Any]]:
    cases = []
    for game in GAMES:
        defaults = REGISTRY[game].Options().model_dump(mode="json")
        for name, value in defaults.items():
            for bad in confusions(value) if value is not None else [True, "1", 1.0]:
                if not _published(OPTIONS_SCHEMA[game], value, {name: bad}, bad):
                    cases.append((game, name, bad))
    return cases


@pytest.mark.parametrize(("game", "name", "bad"), _option_cases())
def test_a_type_confused_option_is_refused_and_creates_no_table(
    http: httpx.Client, game: str, name: str, bad: Any
) -> None:
    owner = new_player(http, "O")
    r = owner.post("/api/v1/tables", {"game": game, "seats": _seats(game), "options": {name: bad}})
    assert r.status_code == 422, (name, bad, r.text)
    assert _names_field(r.json(), (name,)), r.text
    mine = owner.get("/api/v1/tables", params={"status": "open", "game": game}).json()
    assert all(t["owner"]["id"] != owner.id for t in mine)


@pytest.mark.parametrize(
    ("options", "named"),
    [({"characters": "draft"}, "characters"), ({"characters": "random"}, "characters"),
     ({"hidden_sp": True}, "hidden_sp")],
)  # fmt: skip
def test_solo_ginkgopolis_refuses_the_options_that_do_nothing_solo(
    http: httpx.Client, options: dict[str, Any], named: str
) -> None:
    owner = new_player(http, "O")
    r = owner.post("/api/v1/tables", {"game": "ginkgopolis", "seats": 1, "options": options})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "validation_error" and named in error["message"], error
    mine = owner.get("/api/v1/tables", params={"status": "open", "game": "ginkgopolis"}).json()
    assert all(t["owner"]["id"] != owner.id for t in mine)
    # The same options are fine with two seats, where they do something.
    r = owner.post("/api/v1/tables", {"game": "ginkgopolis", "seats": 2, "options": options})
    assert r.status_code == 201, r.text
