"""No 5xx for anything a client can send, on both databases (issue 17.7).

Every HTTP route of the app (enumerated from ``app.routes``, so a new route is covered the
day it is added) gets path parameters, query parameters and body fields drawn from hostile
strategies: NUL bytes, non-ASCII digits (``int("²")`` raises although ``"²".isdigit()``),
integers past 64 bits and past PostgreSQL's INTEGER, negative numbers, empty and very long
strings, next to the real ids of a player, an open, a playing and a finished table, a game. The
answer is never a 5xx, and every 4xx is the envelope of API.md.

The opaque tokens the API hands out or takes back (lobby cursors, invite codes, idempotency
keys) are hostile values too, real and forged (issue 34.3); and every field of every request
body gets a value of another JSON type (issue 34.8): a 4xx in the envelope, nothing changed.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from app.signing import Signer
from tests.conftest import PROFILE
from tests.support.client import Player, make_table, new_player
from tests.support.live import LiveServer, temporary_server
from tests.support.wsclient import Socket

ADMIN_TOKEN = "admin-token-for-fuzzing"
#: Examples per route: the profile's (``ci``: 30), 150 under ``long`` (not its 2000: ~40
#: routes on two databases would take an hour).
FUZZ_EXAMPLES = 150 if PROFILE == "long" else settings().max_examples

#: Integers no column holds: PostgreSQL's INTEGER and BIGINT, SQLite's 64 bits, and past all.
HUGE = [2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64, 10**30, -(2**31) - 1, -(2**63) - 1]
#: A datetime whose UTC is before year 1 (Python cannot even convert it).
BEFORE_YEAR_ONE = "0001-01-01T00:00:00+14:00"
NASTY_TEXT = [
    "",
    " ",
    "   ",
    "\x00",
    "a\x00b",
    "\x00" * 3,
    "²",
    "¹²³",
    "١٢٣",  # Arabic-Indic digits: int() takes them, a database column type does not
    "߀",
    "-1",
    "0",
    "-0",
    "+1",
    "1e3",
    "NaN",
    "é",
    "x" * 65,
    "9" * 200,
    "..",
    "%",
    "\n",
    "\u202e",
    BEFORE_YEAR_ONE,
    "http://[::1/x",  # URLs no parser should take
    "http://example.com:99999/",
    "http://example.com:port/",
    f"http://{'a' * 64}.example/",
    "9999-12-31T23:59:59-14:00",
    *[str(n) for n in HUGE],
]


def hostile_text(real: list[str]) -> st.SearchStrategy[str]:
    nasty = st.sampled_from(NASTY_TEXT + real)
    return st.one_of(
        nasty,
        nasty,  # twice: most examples try a quoted nasty, the rest anything
        st.integers().map(str),
        st.text(max_size=80),
        st.text(alphabet=string.ascii_letters + "\x00²", min_size=1, max_size=70),
    )


def hostile_number(real: list[str]) -> st.SearchStrategy[str]:
    """Query values: mostly numbers out of every column's range, else any hostile text."""
    return st.one_of(
        st.sampled_from(HUGE).map(str),
        st.integers(min_value=-(2**70), max_value=2**70).map(str),
        hostile_text(real),
    )


def hostile_json(real: list[str]) -> st.SearchStrategy[Any]:
    """Body values: the quoted nasties first (so few examples reach them), then anything."""
    scalars = st.one_of(
        st.sampled_from(NASTY_TEXT + real + HUGE),
        hostile_text(real),
        st.integers(),
        st.booleans(),
        st.none(),
        st.floats(allow_nan=False, allow_infinity=False),
    )
    return st.one_of(
        st.sampled_from(NASTY_TEXT + real + HUGE),
        scalars,
        st.lists(scalars, max_size=3),
        st.dictionaries(hostile_text(real), scalars, max_size=3),
    )


@dataclass
class Fuzzing:
    live: LiveServer
    http: httpx.Client
    player: Player
    ids: dict[str, list[str]]  # path parameter -> real values

    @property
    def real(self) -> list[str]:
        return sorted({value for values in self.ids.values() for value in values})


@pytest.fixture(scope="module")
def fuzzing(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzing]:
    with (
        temporary_server(tmp_path_factory.mktemp("fuzz"), backend, admin_token=ADMIN_TOKEN) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        player, other = new_player(http, "Fuzz"), new_player(http, "Other")
        open_table = make_table(player, "pick", 2)["id"]
        playing = make_table(player, "pick", 2, {"pile": 40, "max_take": 1})["id"]
        assert other.post(f"/api/v1/tables/{playing}/join").status_code == 200
        assert player.post(f"/api/v1/tables/{playing}/start").status_code == 200
        finished = make_table(player, "pick", 2, {"pile": 4, "max_take": 3})["id"]
        assert other.post(f"/api/v1/tables/{finished}/join").status_code == 200
        assert player.post(f"/api/v1/tables/{finished}/start").status_code == 200
        while (state := player.state(finished))["status"] != "finished":
            mover = player if state["legal_actions"] else other
            picture = mover.state(finished)
            assert mover.act(finished, picture["version"], picture["legal_actions"][-1]).is_success
        # Real ids, for the route to go past the lookup: the other player (the admin routes
        # may block or rename it; the fuzzing player keeps its token), both tables, a game.
        ids = {
            "table_id": [open_table, playing, finished],
            "player_id": [other.id],
            "game_id": ["pick"],
            "name": ["start"],
            "seat": ["0", "1"],
            **opaque_tokens(http, player, open_table),
        }
        yield Fuzzing(live, http, player, ids)


def opaque_tokens(http: httpx.Client, player: Player, table_id: str) -> dict[str, list[str]]:
    """The API's opaque tokens, real and forged, by the parameter that carries them: lobby
    cursors (forged, NUL inside, valid-looking but unsigned, signed by another key,
    truncated), invite codes, idempotency keys."""
    private = player.post("/api/v1/tables", {"game": "pick", "seats": 2, "private": True})
    invite = private.json()["invite_code"]
    listing = http.get("/api/v1/tables", params={"limit": 1})
    cursor = listing.headers["x-next-cursor"]
    payload, _, mac = cursor.rpartition(".")
    made_up = json.dumps(["2026-01-01T00:00:00+00:00", table_id]).encode()
    unsigned = Signer(b"", "").sign(made_up).rpartition(".")[0]
    return {
        "cursor": [
            cursor, cursor[:-1], payload, mac, unsigned, f"{unsigned}.{mac}",
            Signer(b"another deployment's key", "lobby cursor").sign(made_up),
            Signer(b"", "").sign(json.dumps(["2026-01-01T00:00:00+00:00", "a\x00b"]).encode()),
            cursor[:10] + "\x00" + cursor[10:], f"{cursor}.{cursor}",
        ],
        "invite": [invite, invite[:-1], invite + "\x00", "\x00" + invite[1:], invite.upper()],
        "id": ["move-1", "\x7f", "a\x00", "é" * 64, "é" * 65, "x" * 64, "x" * 65],
    }  # fmt: skip


@dataclass
class Route:
    path: str  # with the routers' prefixes, e.g. /api/v1/tables/{table_id}/log
    methods: list[str]
    api: APIRoute  # its parameters and body


def _routes(live: LiveServer) -> list[Route]:
    """Every HTTP route the app serves (included routers flattened)."""
    routes = [
        Route(str(ctx.path_format), sorted(ctx.methods or ()), ctx.original_route)
        for ctx in iter_route_contexts(live.app.routes)
        if isinstance(ctx.original_route, APIRoute)
    ]
    assert len(routes) >= 40  # the API, the pages, the health checks
    return routes


def _params(dependant: Dependant, kind: str) -> list[str]:
    """The aliases of the route's ``kind`` ("path_params", "query_params") parameters, its
    dependencies' included (``?lang=``, ``?status=``, ...)."""
    own = [field.alias for field in getattr(dependant, kind)]
    return own + [name for sub in dependant.dependencies for name in _params(sub, kind)]


def _body_model(route: APIRoute) -> type[BaseModel] | None:
    if route.body_field is None:
        return None
    model = route.body_field.field_info.annotation
    for candidate in getattr(model, "__args__", (model,)):  # `Model | None`
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def _body_fields(route: APIRoute) -> list[str]:
    model = _body_model(route)
    return list(model.model_fields) if model else []


_PLAIN = {int: 1, str: "pick", bool: False, datetime: "2000-01-01T00:00:00Z"}


def _base_body(route: APIRoute) -> dict[str, Any] | None:
    """A body whose required fields hold plain values, so that the path and query get
    through validation with it (a missing body would be refused before any lookup)."""
    model = _body_model(route)
    if model is None:
        return None
    return {
        name: _PLAIN.get(field.annotation, {})  # type: ignore[call-overload]
        for name, field in model.model_fields.items()
        if field.is_required()
    }


def assert_no_server_error(response: httpx.Response, what: str) -> None:
    assert response.status_code < 500, f"{what}: {response.status_code} {response.text[:300]}"
    if response.status_code >= 400:
        error = response.json()["error"]
        assert isinstance(error["code"], str) and isinstance(error["message"], str), what


def _path_value(fuzzing: Fuzzing, name: str) -> st.SearchStrategy[str]:
    """A real id three times in four (so the request reaches the database), else hostile."""
    real = st.sampled_from(fuzzing.ids.get(name, ["x"]))
    return st.one_of(real, real, real, hostile_text(fuzzing.real))


def _some_of(names: list[str], values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Half the time one hostile parameter alone (no other one refused first), else any."""
    if not names:
        return st.just({})
    return st.one_of(
        st.sampled_from(names).flatmap(lambda n: st.fixed_dictionaries({n: values})),
        st.fixed_dictionaries({}, optional=dict.fromkeys(names, values)),
    )


def _fuzz(fuzzing: Fuzzing, route: Route) -> None:
    """Hypothesis over one route: hostile path/query/body values; status < 500, envelope."""
    real = fuzzing.real
    path_names = sorted(set(_params(route.api.dependant, "path_params")))
    query_names = sorted(set(_params(route.api.dependant, "query_params")))
    body_names = _body_fields(route.api)
    admin = route.path.startswith("/api/v1/admin")
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"} if admin else fuzzing.player.auth

    @given(
        method=st.sampled_from(route.methods),
        path=st.fixed_dictionaries({n: _path_value(fuzzing, n) for n in path_names}),
        query=_some_of(query_names, hostile_number(real)),
        body=_some_of(body_names, hostile_json(real)),
    )
    @settings(max_examples=FUZZ_EXAMPLES, database=None, suppress_health_check=list(HealthCheck))
    def exercise(
        method: str, path: dict[str, str], query: dict[str, str], body: dict[str, Any]
    ) -> None:
        if not all(path.values()):
            return  # an empty segment is another path (or none): nothing of this route
        url = route.path.format(**{k: quote(v, safe="") for k, v in path.items()})
        kwargs: dict[str, Any] = {"params": query, "headers": headers}
        if route.api.body_field is not None:
            kwargs["json"] = body
        response = fuzzing.http.request(method, url, **kwargs)
        assert_no_server_error(response, f"{method} {url} {query} {body}")

    exercise()


@pytest.mark.timeout(3600 if PROFILE == "long" else 300)
def test_no_route_answers_a_server_error_to_hostile_parameters(fuzzing: Fuzzing) -> None:
    """Every route of the app, fuzzed (FUZZ_EXAMPLES a route)."""
    for route in _routes(fuzzing.live):
        _fuzz(fuzzing, route)


#: The grid's values: one of each kind of trouble (hypothesis above explores around them).
GRID = [
    "\x00",
    "a\x00b",
    "²",
    "١٢٣",
    "",
    " ",
    "x" * 65,
    str(2**31),
    str(2**63),
    str(2**64),
    "-1",
    BEFORE_YEAR_ONE,
    "http://[::1/x",
]


def test_every_parameter_of_every_route_takes_every_kind_of_trouble(fuzzing: Fuzzing) -> None:
    """Deterministic: each path, query and body parameter of each route gets each GRID value
    alone, the other path parameters real, for every method of the route."""
    failures: list[str] = []
    table = make_table(fuzzing.player, "pick", 2, {"pile": 40, "max_take": 1})["id"]
    other = new_player(fuzzing.http, "Grid")
    assert other.post(f"/api/v1/tables/{table}/join").status_code == 200
    assert fuzzing.player.post(f"/api/v1/tables/{table}/start").status_code == 200
    ids = {**fuzzing.ids, "table_id": [table], "player_id": [other.id]}  # its own, playing
    for route in _routes(fuzzing.live):
        path_names = sorted(set(_params(route.api.dependant, "path_params")))
        query_names = sorted(set(_params(route.api.dependant, "query_params")))
        admin = route.path.startswith("/api/v1/admin")
        headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"} if admin else fuzzing.player.auth
        base = {n: ids.get(n, ["x"])[0] for n in path_names}
        body0 = _base_body(route.api)
        trials: list[tuple[dict[str, str], dict[str, str], dict[str, Any] | None]] = []
        for value in GRID:
            trials += [({**base, n: value}, {}, body0) for n in path_names if value]
            trials += [(base, {n: value}, body0) for n in query_names]
            trials += [(base, {}, {**(body0 or {}), n: value}) for n in _body_fields(route.api)]
        for method in route.methods:
            for path, query, body in trials:
                url = route.path.format(**{k: quote(v, safe="") for k, v in path.items()})
                try:
                    response = fuzzing.http.request(
                        method, url, params=query, headers=headers, json=body
                    )
                except httpx.TransportError as exc:  # a server that crashed drops the line
                    failures.append(f"{method} {url} {query} {body}: {exc!r}")
                    continue
                if response.status_code >= 500:
                    failures.append(f"{method} {url} {query} {body}: {response.status_code}")
    assert not failures, "\n".join(failures)


#: The cases the issue quotes, each refused with a 422 validation_error naming the input.
EXPLICIT = [
    ("GET", "/api/v1/tables/{open}/log?since=9223372036854775808", None, "since"),
    ("GET", "/api/v1/tables/{open}/log?since=2147483648", None, "since"),
    ("GET", "/api/v1/tables/{open}/log?since=%C2%B2", None, "since"),
    ("GET", "/api/v1/tables/{open}/chat?since=18446744073709551616", None, "since"),
    ("GET", "/api/v1/tables/{open}/chat?since=2147483648", None, "since"),
    ("GET", "/api/v1/tables/{finished}/replay/steps?perspective=%C2%B2", None, "perspective"),
    ("GET", "/api/v1/tables/{finished}/replay/steps?start=9223372036854775808", None, "start"),
    ("GET", "/api/v1/tables/a%00b", None, "table_id"),
    ("GET", "/api/v1/tables/a%00b/state", None, "table_id"),
    ("GET", "/api/v1/tables/%C2%B2/log", None, "table_id"),
    ("POST", "/api/v1/tables/a%00b/join", None, "table_id"),
    ("GET", "/api/v1/players/a%00b", None, "player_id"),
    ("GET", "/api/v1/tables?game=a%00b", None, "game"),
    ("POST", "/api/v1/tables/{open}/actions", {"version": 0, "action": {}, "id": "a\x00"}, "id"),
    ("POST", "/api/v1/tables/{open}/undo", {"version": 0, "id": "\x00"}, "id"),
    ("PATCH", "/api/v1/admin/players/{other}", {"name": "   "}, "name"),
    ("PATCH", "/api/v1/admin/players/{other}", {"name": "\x00"}, "name"),
    ("PATCH", "/api/v1/admin/players/a%00b", {"blocked": True}, "player_id"),
    ("DELETE", "/api/v1/admin/tables/a%00b", None, "table_id"),
    ("POST", "/api/v1/admin/prune", {"finished_before": BEFORE_YEAR_ONE}, "finished_before"),
    ("PATCH", "/api/v1/me", {"webhook_url": "http://[::1/x"}, "webhook_url"),
    ("PATCH", "/api/v1/me", {"webhook_url": "http://example.com:99999/"}, "webhook_url"),
    ("PATCH", "/api/v1/me", {"webhook_url": "http://example.com:port/"}, "webhook_url"),
    ("PATCH", "/api/v1/me", {"webhook_url": f"http://{'a' * 64}.example/"}, "webhook_url"),
    ("PATCH", "/api/v1/me", {"webhook_url": "http://a..example/"}, "webhook_url"),
]


@pytest.mark.parametrize(("method", "path", "body", "field"), EXPLICIT)
def test_the_quoted_inputs_are_refused_with_a_validation_error(
    fuzzing: Fuzzing, method: str, path: str, body: dict[str, Any] | None, field: str
) -> None:
    (open_table, _, finished), (other,) = fuzzing.ids["table_id"], fuzzing.ids["player_id"]
    url = path.format(open=open_table, finished=finished, other=other)
    admin = url.startswith("/api/v1/admin")
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"} if admin else fuzzing.player.auth
    response = fuzzing.http.request(method, url, json=body, headers=headers)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "validation_error" and field in error["message"], error


@pytest.mark.parametrize(
    ("table", "since"),
    [("a%00b", "0"), ("%C2%B2", "0"), ("{open}", "%C2%B2"), ("{open}", "99999999999999999999")],
)
def test_a_socket_with_a_hostile_table_id_or_since_is_closed_cleanly(
    fuzzing: Fuzzing, table: str, since: str
) -> None:
    """The WebSocket takes the same ids: a malformed one gets an error frame and a close frame,
    a malformed ``since`` an error frame and then a full state; never an internal error
    (1011)."""
    table_id = table.format(open=make_table(fuzzing.player, "pick", 2)["id"])
    url = f"{fuzzing.live.ws_url}/api/v1/tables/{table_id}/ws?since={since}"
    try:
        socket = Socket(url)
    except Exception as exc:  # refused during the handshake: HTTP 403, no 5xx
        assert "500" not in str(exc), exc
        return
    try:
        if table.startswith("{"):
            frame = socket.until(lambda f: f["type"] == "state")
            assert frame["version"] >= 0
        else:
            # An error frame in the envelope, then a close frame (API.md), never 1011.
            frames: list[dict[str, Any]] = []
            with pytest.raises(Exception) as closed:
                while True:
                    frames.append(socket.recv(timeout=10))
            assert "1011" not in str(closed.value), closed.value
            assert all(f["type"] == "error" for f in frames), frames
            assert {f["error"]["code"] for f in frames} <= {"not_found", "validation_error"}
    finally:
        socket.conn.close()


def test_the_fuzzing_reaches_every_kind_of_parameter(fuzzing: Fuzzing) -> None:
    """The route walk above sees path ids, query numbers and body fields (no blind spots)."""
    routes = _routes(fuzzing.live)
    paths = {name for r in routes for name in _params(r.api.dependant, "path_params")}
    queries = {name for r in routes for name in _params(r.api.dependant, "query_params")}
    bodies = {f for r in routes for f in _body_fields(r.api)}
    assert {"table_id", "player_id", "game_id", "name", "seat"} <= paths
    assert {"since", "start", "perspective", "game", "status"} <= queries
    assert {"id", "name", "webhook_url", "version", "text", "invite"} <= bodies


def _send(
    fuzzing: Fuzzing, route: Route, method: str, path: dict[str, str], query: dict[str, str],
    body: Any, bearer: str | None = None,
) -> httpx.Response:  # fmt: skip
    admin = route.path.startswith("/api/v1/admin")
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"} if admin else fuzzing.player.auth
    if bearer is not None:  # as bytes: a token may be anything, UTF-8 included
        headers = {"Authorization": f"Bearer {bearer}".encode()}  # type: ignore[dict-item]
    url = route.path.format(**{k: quote(v, safe="") for k, v in path.items()})
    kwargs: dict[str, Any] = {"params": query, "headers": headers}
    if route.api.body_field is not None:
        kwargs["json"] = body
    return fuzzing.http.request(method, url, **kwargs)


#: The tokens a client only ever passes back as it got them (all others are forged).
TOKEN_NAMES = ("cursor", "invite", "id")


def test_every_opaque_token_real_or_forged_is_answered_in_the_envelope(fuzzing: Fuzzing) -> None:
    """Each query parameter and body field that carries a cursor, an invite code or an
    idempotency key gets each real and forged token, and each route forged bearer tokens:
    never a 5xx, every 4xx the envelope; a forged cursor is a 422 naming ``cursor``."""
    failures: list[str] = []
    real_cursor = fuzzing.ids["cursor"][0]
    token = fuzzing.player.token
    bearers = [token[:-1], token + "x", token.upper(), ADMIN_TOKEN[:-1], "x" * 5000, "²", "a b"]
    for route in _routes(fuzzing.live):
        path_names = sorted(set(_params(route.api.dependant, "path_params")))
        path = {n: fuzzing.ids.get(n, ["x"])[0] for n in path_names}
        query_names = set(_params(route.api.dependant, "query_params")) & set(TOKEN_NAMES)
        body_names = set(_body_fields(route.api)) & set(TOKEN_NAMES)
        body0 = _base_body(route.api)
        trials = [({n: t}, body0, n) for n in sorted(query_names) for t in fuzzing.ids[n]]
        trials += [
            ({}, {**(body0 or {}), n: t}, n) for n in sorted(body_names) for t in fuzzing.ids[n]
        ]
        for method in route.methods:
            for bearer in bearers:  # the player's and the admin's tokens, forged
                r = _send(fuzzing, route, method, path, {}, body0, bearer)
                if r.status_code >= 500 or (r.status_code >= 400 and "error" not in r.json()):
                    failures.append(f"{method} {route.path} as {bearer[:20]!r}: {r.status_code}")
            for query, body, name in trials:
                what = f"{method} {route.path} {query} {body}"
                r = _send(fuzzing, route, method, path, query, body)
                try:
                    assert_no_server_error(r, what)
                except AssertionError as exc:
                    failures.append(str(exc))
                    continue
                if name == "cursor" and query["cursor"] != real_cursor:
                    error = r.json()["error"] if r.status_code == 422 else {}
                    if error.get("field") != "cursor":
                        failures.append(f"a forged cursor: {what}: {r.status_code} {r.text[:200]}")
    assert not failures, "\n".join(failures)


#: A value of another JSON type for each type a field may have (a lax parser reads each as
#: that type: "7" and 7.0 and true as 7, "yes" and 1 as true, 7 as "7", "x" as ["x"]).
CONFUSED: dict[str, list[Any]] = {
    "integer": ["7", 7.0, True, [7]],
    "number": ["7", True],
    "boolean": ["yes", "true", 1, 0],
    "string": [7, True, [], {}],
    "array": ["x", {}],
    "object": [[], "x", 1],
}


def _json_type(value: Any) -> str:
    kinds = [(bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
             (list, "array"), (dict, "object")]  # fmt: skip
    return next(name for kind, name in kinds if isinstance(value, kind))


def _schema_types(schema: dict[str, Any]) -> set[str]:
    """The JSON types a field's schema allows (a nested model is an object)."""
    if "$ref" in schema:
        return {"object"}
    if "anyOf" in schema:
        return set().union(*(_schema_types(s) for s in schema["anyOf"]))
    kind = schema.get("type")
    return {kind} if isinstance(kind, str) else set(kind or ())


def _confused_fields(model: type[BaseModel]) -> list[tuple[tuple[str, ...], Any]]:
    """(path, value) for every field of the body and of the models it nests, each with every
    value of a JSON type the field does not allow; and a field the body does not have."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})

    def walk(props: dict[str, Any], path: tuple[str, ...]) -> list[tuple[tuple[str, ...], Any]]:
        out: list[tuple[tuple[str, ...], Any]] = [((*path, "surplus"), 1)]
        for name, field in props.items():
            allowed = _schema_types(field)
            out += [
                ((*path, name), bad)
                for kind in sorted(allowed)
                for bad in CONFUSED.get(kind, [])
                if _json_type(bad) not in allowed
                and not (_json_type(bad) == "integer" and "number" in allowed)  # 7 is a number
            ]
            refs = [s["$ref"] for s in [field, *field.get("anyOf", [])] if "$ref" in s]
            for ref in refs:
                out += walk(defs[ref.rsplit("/", 1)[1]].get("properties", {}), (*path, name))
        return out

    return walk(schema.get("properties", {}), ())


def _put(body: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    head, *rest = path
    if not rest:
        return {**body, head: value}
    inner = body.get(head)
    return {**body, head: _put(inner if isinstance(inner, dict) else {}, tuple(rest), value)}


def test_every_field_of_every_body_refuses_another_json_type(fuzzing: Fuzzing) -> None:
    """Deterministic: each field of each route's body (nested ones too) gets each value of a
    JSON type it does not allow, the rest of the body plain: a 4xx in the envelope, never a
    5xx or a success, and the table it names stays at its version (no table is made)."""
    failures: list[str] = []
    table = make_table(fuzzing.player, "pick", 2, {"pile": 40, "max_take": 1})["id"]
    other = new_player(fuzzing.http, "Types")
    assert other.post(f"/api/v1/tables/{table}/join").status_code == 200
    assert fuzzing.player.post(f"/api/v1/tables/{table}/start").status_code == 200
    ids = {**fuzzing.ids, "table_id": [table], "player_id": [other.id]}
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}

    def world() -> tuple[int, int, list[Any]]:
        tables = fuzzing.http.get("/api/v1/admin/tables", headers=admin).json()
        players = fuzzing.http.get("/api/v1/admin/players", headers=admin).json()
        return fuzzing.player.state(table)["version"], len(tables), players

    for route in _routes(fuzzing.live):
        model = _body_model(route.api)
        if model is None:
            continue
        path_names = sorted(set(_params(route.api.dependant, "path_params")))
        path = {n: ids.get(n, ["x"])[0] for n in path_names}
        body0 = _base_body(route.api) or {}
        for method in route.methods:
            for where, bad in _confused_fields(model):
                before = world()
                body = _put(body0, where, bad)
                r = _send(fuzzing, route, method, path, {}, body)
                what = f"{method} {route.path} {body}: {r.status_code} {r.text[:200]}"
                if not 400 <= r.status_code < 500:
                    failures.append(what)
                elif not isinstance(r.json().get("error", {}).get("code"), str):
                    failures.append(f"not the envelope: {what}")
                elif world() != before:
                    failures.append(f"it changed something: {what}")
    assert not failures, "\n".join(failures)
