"""Strict actions and options in every game (issue 16, point 3), and strict request bodies
(issue 34, point 8).

What ``action_schema`` and ``options_schema`` publish is exactly what the server takes:
an integer is a JSON integer (not ``"3"``, ``true`` or ``3.0``), a boolean is ``true`` or
``false`` (not ``"yes"``, ``1`` or ``"false"``), a string is a string. Hypothesis picks a
game, a point in a random game and one scalar of a legal action (or of the options) and
sends it with its type confused: the answer is ``422 validation_error`` naming the field,
and nothing changes (the table stays at its version, no table is created).

Every other field of every request body is as strict (one base model, RequestBody): each
route with a body is walked from the app, each of its fields confused in turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from app.games import REGISTRY
from tests.support.client import Player, make_table, new_player
from tests.support.live import LiveServer, temporary_server

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


def _names_field(body: dict[str, Any], path: Path, root: str = "") -> bool:
    """The error's details point at the confused field (its name, or its index in a list),
    and its ``field``, the same in the envelope and in ``params``, is the plain JSON path of
    the value in what was sent (issue 35)."""
    error = body["error"]
    if error["code"] != "validation_error":
        return False
    dotted = ".".join(str(p) for p in ((root,) if root else ()) + tuple(path))
    if not error.get("field") == error["params"]["field"] == dotted:
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
    assert _names_field(r.json(), path, "action"), r.text
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
    assert _names_field(r.json(), (name,), "options"), r.text
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
    # The game's own check names the option as pydantic's would (issue 35).
    assert error["field"] == error["params"]["field"] == f"options.{named}", error
    assert [e["loc"] for e in error["errors"]] == [[named]], error
    mine = owner.get("/api/v1/tables", params={"status": "open", "game": "ginkgopolis"}).json()
    assert all(t["owner"]["id"] != owner.id for t in mine)
    # The same options are fine with two seats, where they do something.
    r = owner.post("/api/v1/tables", {"game": "ginkgopolis", "seats": 2, "options": options})
    assert r.status_code == 201, r.text


# ------------------------------------------------------------------ every request body (34.8)

ADMIN_TOKEN = "admin-token-for-strict-bodies"


@pytest.fixture(scope="module")
def strict_server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server of this module's own: an admin token for the admin bodies, and webhooks to
    local addresses (no DNS) for PATCH /me."""
    with temporary_server(
        tmp_path_factory.mktemp("strict"), backend, admin_token=ADMIN_TOKEN,
        webhook_allow_private=True,
    ) as live:  # fmt: skip
        yield live


@dataclass
class Call:
    """A request whose body, as published, the server accepts (so only a confusion fails it)."""

    method: str
    path: str
    body: dict[str, Any]
    who: Player | None = None  # None: anonymous, or the admin on an admin path
    table: str | None = None  # whose chat and table the request could change


def _pick_level(http: httpx.Client) -> str:
    games = {g["id"]: g for g in http.get("/api/v1/games").json()}
    return str(games["pick"]["default_bot_level"])


def _two_playing(http: httpx.Client) -> tuple[str, Player, Player]:
    """A running pick table of two; the first player returned is the one to act."""
    a, b = new_player(http, "A"), new_player(http, "B")
    tid = make_table(a, "pick", 2, {"pile": 30})["id"]
    assert b.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
    return (tid, a, b) if a.state(tid)["legal_actions"] else (tid, b, a)


def _move(http: httpx.Client) -> Call:
    tid, mover, _ = _two_playing(http)
    state = mover.state(tid)
    body = {"version": state["version"], "action": state["legal_actions"][0], "id": "move-1"}
    return Call("POST", f"/api/v1/tables/{tid}/actions", body, mover, tid)


def _undo_call(http: httpx.Client) -> Call:
    tid, mover, _ = _two_playing(http)
    state = mover.state(tid)
    moved = mover.act(tid, state["version"], {"type": "pass_turn"})  # undoable: no chance
    assert moved.status_code == 200, moved.text
    body = {"version": moved.json()["version"], "id": "undo-1"}
    return Call("POST", f"/api/v1/tables/{tid}/undo", body, mover, tid)


def _vote(http: httpx.Client) -> Call:
    tid, a, b = _two_playing(http)
    owner, other = (
        (a, b) if a.get(f"/api/v1/tables/{tid}").json()["owner"]["id"] == a.id else (b, a)
    )
    assert owner.post(f"/api/v1/tables/{tid}/cancel").status_code == 200
    return Call("POST", f"/api/v1/tables/{tid}/cancel/vote", {"agree": True}, other, tid)


def _join(http: httpx.Client) -> Call:
    owner, guest = new_player(http, "Owner"), new_player(http, "Guest")
    r = owner.post("/api/v1/tables", {"game": "pick", "seats": 2, "private": True})
    assert r.status_code == 201, r.text
    table = r.json()
    body = {"invite": table["invite_code"]}
    return Call("POST", f"/api/v1/tables/{table['id']}/join", body, guest, table["id"])


def _bots(http: httpx.Client) -> Call:
    owner = new_player(http, "Owner")
    tid = make_table(owner, "pick", 2)["id"]
    return Call("POST", f"/api/v1/tables/{tid}/bots", {"level": _pick_level(http)}, owner, tid)


def _chat(http: httpx.Client) -> Call:
    owner = new_player(http, "Owner")
    tid = make_table(owner, "pick", 2)["id"]
    return Call("POST", f"/api/v1/tables/{tid}/chat", {"text": "hello"}, owner, tid)


def _create(http: httpx.Client) -> Call:
    time_control = {
        "clock": "realtime", "bank_seconds": 600, "increment_seconds": 10, "move_seconds": 86400,
        "on_timeout": "bot_move", "abandon": "vote", "grace_seconds": 120, "bot_pace": "normal",
        "takeover_level": _pick_level(http),
    }  # fmt: skip
    body = {"game": "pick", "options": {"pile": 12}, "seats": 2, "private": True,
            "time_control": time_control, "on_resign": "bot"}  # fmt: skip
    return Call("POST", "/api/v1/tables", body, new_player(http, "Owner"))


def _rename(http: httpx.Client) -> Call:
    target = new_player(http, "Target")
    body = {"name": "Renamed", "blocked": True}
    return Call("PATCH", f"/api/v1/admin/players/{target.id}", body)


#: Every route with a request body, and how to reach a state where its published body is
#: accepted: a confusion of any one field is then the only reason to refuse it.
SCENARIOS: dict[tuple[str, str], Any] = {
    ("POST", "/api/v1/players"): lambda http: Call(
        "POST", "/api/v1/players", {"name": "Ana", "access_code": "none needed here"}
    ),
    ("PATCH", "/api/v1/me"): lambda http: Call(
        "PATCH", "/api/v1/me", {"webhook_url": "http://127.0.0.1:9/hook"}, new_player(http, "W")
    ),
    ("POST", "/api/v1/tables"): _create,
    ("POST", "/api/v1/tables/{table_id}/join"): _join,
    ("POST", "/api/v1/tables/{table_id}/bots"): _bots,
    ("POST", "/api/v1/tables/{table_id}/actions"): _move,
    ("POST", "/api/v1/tables/{table_id}/undo"): _undo_call,
    ("POST", "/api/v1/tables/{table_id}/chat"): _chat,
    ("POST", "/api/v1/tables/{table_id}/cancel/vote"): _vote,
    ("PATCH", "/api/v1/admin/players/{player_id}"): _rename,
    ("POST", "/api/v1/admin/prune"): lambda http: Call(
        "POST", "/api/v1/admin/prune", {"finished_before": "2100-01-01T00:00:00Z"}
    ),
}


def body_confusions(value: Any) -> list[Any]:
    """Values of another JSON type that a lax parser would read as ``value``'s type."""
    if isinstance(value, bool):
        return [str(value).lower(), "yes" if value else "no", int(value), [value]]
    if isinstance(value, int):
        return [str(value), float(value), True, False, [value]]
    if isinstance(value, str):
        return [7, True, [], {}]
    if isinstance(value, dict):
        return [[], "x", 1]
    if isinstance(value, list):
        return ["x", {}]
    raise AssertionError(f"an example body holds {value!r}: give it a value to confuse")


def _leaves(model: type[BaseModel], body: dict[str, Any], path: Path = ()) -> list[Path]:
    """The path of every field of the body (a nested model's fields one by one; the games'
    own actions and options are confused by the tests above)."""
    assert set(body) == set(model.model_fields), f"the example of {model.__name__} misses fields"
    paths: list[Path] = []
    for name, field in model.model_fields.items():
        nested = [t for t in getattr(field.annotation, "__args__", (field.annotation,))
                  if isinstance(t, type) and issubclass(t, BaseModel)]  # fmt: skip
        paths.append((*path, name))
        if nested and isinstance(body[name], dict):
            paths += _leaves(nested[0], body[name], (*path, name))
    return paths


def _value(body: Any, path: Path) -> Any:
    for part in path:
        body = body[part]
    return body


def _send(http: httpx.Client, call: Call, body: Any) -> httpx.Response:
    admin = call.path.startswith("/api/v1/admin")
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"} if admin else (
        call.who.auth if call.who else {})  # fmt: skip
    return http.request(call.method, call.path, json=body, headers=headers)


def _world(http: httpx.Client, call: Call) -> list[Any]:
    """Everything a body could change: every table (versions, seats, status), every player
    (names, blocked), the caller's own record, the table's chat."""
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    seen = [
        http.get(f"/api/v1/admin/{what}", headers=admin).json() for what in ("tables", "players")
    ]
    if call.who is not None:
        seen.append(call.who.get("/api/v1/me").json())
        if call.table is not None:
            seen.append(call.who.get(f"/api/v1/tables/{call.table}/chat").json())
    return seen


def _body_routes(live: LiveServer) -> dict[tuple[str, str], type[BaseModel]]:
    from tests.api.test_no_server_errors import _body_model, _routes

    return {
        (method, route.path): model
        for route in _routes(live)
        if (model := _body_model(route.api)) is not None
        for method in route.methods
    }


def test_every_request_body_has_its_published_example(strict_server: LiveServer) -> None:
    """Each route with a body is in SCENARIOS, and its example body, as documented, is taken
    (2xx): strictness refuses no published form (an ISO date, an enum's string, null)."""
    routes = _body_routes(strict_server)
    assert set(routes) == set(SCENARIOS), "a route with a body has no scenario here"
    with httpx.Client(base_url=strict_server.url, timeout=30) as http:
        for key, scenario in SCENARIOS.items():
            call = scenario(http)
            _leaves(routes[key], call.body)
            r = _send(http, call, call.body)
            assert r.is_success, (key, call.body, r.text)


@pytest.mark.parametrize("route", list(SCENARIOS), ids=[f"{m} {p}" for m, p in SCENARIOS])
def test_a_type_confused_body_field_is_refused_and_changes_nothing(
    strict_server: LiveServer, route: tuple[str, str]
) -> None:
    """Every field of the route's body (nested ones too) with its JSON type confused, and
    with a field the body does not have: each is a 422 validation_error whose errors name
    the field, and nothing changes. ``version: "7"``, ``seats: "3"`` and ``agree: "yes"``
    were read as 7, 3 and true before."""
    model = _body_routes(strict_server)[route]
    failures: list[str] = []
    with httpx.Client(base_url=strict_server.url, timeout=30) as http:
        example = SCENARIOS[route](http).body
        cases: list[tuple[Path, Any]] = [
            (path, bad)
            for path in _leaves(model, example)
            if _value(example, path) is not None
            for bad in body_confusions(_value(example, path))
        ]
        cases.append((("surplus",), 1))
        for path, bad in cases:
            call = SCENARIOS[route](http)
            before = _world(http, call)
            r = _send(http, call, _replace(call.body, path, bad) if path[0] in call.body
                      else {**call.body, path[0]: bad})  # fmt: skip
            what = f"{path}={bad!r}: {r.status_code} {r.text[:200]}"
            if r.status_code != 422 or r.json()["error"]["code"] != "validation_error":
                failures.append(what)
            elif path[-1] not in [
                loc for e in r.json()["error"].get("errors", []) for loc in e["loc"]
            ] or not _names_field(r.json(), path):
                failures.append(f"the field is not named: {what}")
            elif _world(http, call) != before:
                failures.append(f"it changed something: {what}")
    assert not failures, "\n".join(failures)
