"""Hidden information on every outbound path, for every registered game (and the test game).

Random games (hypothesis draws the player count and a seed for every choice; 2
games per engine in CI, 40 under HYPOTHESIS_PROFILE=long) are played through the real server with a socket per seat plus a
spectator. After every action, what each viewer received — the REST state, the
WebSocket state frame, its events, the log endpoint (fetched as each seat and as a
spectator), the table listing — must be exactly what the engine's ``view(state, seat)``
and the events' ``visible_to`` allow, computed here from the server's full state and
from every event the engine produced. At random steps a seat also sends a refused
request (not its turn, a stale version, a malformed or an illegal action, over REST or
its socket): the error must change nothing and tell the seat nothing hidden from it
(see ``_check_refusal``). The engines' own leak tests prove that ``view`` hides what the
rules hide; this proves the server adds nothing to it on any path.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.games.base import Engine, GameOver, NotYourTurn, RulesError, parse_action
from app.refusals import validation_failed
from tests.conftest import test_games
from tests.support.client import Player, make_table, new_player
from tests.support.live import LiveServer
from tests.support.worlds import other_worlds
from tests.support.wsclient import Socket

GAMES: dict[str, Engine] = test_games()  # type: ignore[assignment]

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
MAX_ACTIONS = 1000 if LONG else 60
# Share of steps at which a seat also sends a refused request.
REFUSAL_RATE = 0.4
# Share of steps at which every viewer's log is fetched (and at the end, in every language).
LOG_RATE = 0.3
LANGS: tuple[str | None, ...] = (None, "es", "en")


def _server_state(live: LiveServer, tid: str) -> tuple[int, Any]:
    async def read() -> tuple[int, Any]:
        snap = await live.service().snapshot(tid)
        return snap.version, snap.state

    return asyncio.run_coroutine_threadsafe(read(), live.app.state.loop).result(timeout=30)


def _setup_events(live: LiveServer, engine: Engine, tid: str) -> list[Any]:
    """The events ``Engine.start`` gave the table (its version 1), from the server's seed."""

    async def read() -> list[Any]:
        snap = await live.service().snapshot(tid)
        options = engine.Options.model_validate(snap.options)
        return list(engine.start(snap.seat_count, snap.seed, options).events)

    return asyncio.run_coroutine_threadsafe(read(), live.app.state.loop).result(timeout=30)


def _dump(model: Any) -> Any:
    return model.model_dump(mode="json")


def _same(a: Any, b: Any) -> bool:
    return json.dumps(_dump(a), sort_keys=True) == json.dumps(_dump(b), sort_keys=True)


def _expected_events(engine: Engine, events: list[Any], seat: int | None) -> list[dict[str, Any]]:
    out = []
    for event in events:
        if event.is_visible_to(seat):
            data = event.model_dump(mode="json")
            data.pop("visible_to", None)
            out.append(data)
    return out


@dataclass
class Table:
    """One table under test, and every event the engine (or the table) produced at it."""

    engine: Engine
    tid: str
    live: LiveServer
    http: httpx.Client
    players: list[Player]
    sockets: list[Socket]
    spectator: Socket
    # (version, acting seat, events): the engine's events, or the table's own (public) ones
    # as plain dicts, in the order the server numbered them.
    history: list[tuple[int, int | None, list[Any]]] = field(default_factory=list)
    # The version of each viewer's last look at the log.
    log_seen: dict[int | None, int] = field(default_factory=dict)
    # Refusals checked, and the reshuffled worlds they were compared with.
    refusals: int = 0
    reshuffled: int = 0

    def expected_log(self, viewer: int | None, since: int = 0) -> list[dict[str, Any]]:
        """Every event ``viewer`` may see after ``since``, as the log shows it. Undone actions
        stay in the log: an undo adds its own public ``action_undone`` event."""
        out: list[dict[str, Any]] = []
        for version, actor, events in self.history:
            if version <= since:
                continue
            for event in events:
                if isinstance(event, dict):
                    out.append({"version": version, "actor": actor, **event})
                else:
                    out.extend(
                        {"version": version, "actor": actor, **e}
                        for e in _expected_events(self.engine, [event], viewer)
                    )
        return out


# --------------------------------------------------------------------------- the log


def _check_log(
    table: Table, version: int, viewer: int | None, lang: str | None, since: int = 0
) -> None:
    """The log as ``viewer`` fetches it (its token; none for a spectator) is exactly its events;
    each readable line is the one of that visible event, so it holds nothing more."""
    params: dict[str, Any] = {"since": since}
    if lang is not None:
        params["lang"] = lang
    path = f"/api/v1/tables/{table.tid}/log"
    client = table.players[viewer] if viewer is not None else table.http
    r = client.get(path, params=params)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] == version
    expected = table.expected_log(viewer, since)
    got = body["events"]
    if lang is None:
        assert all("text" not in e and "message" not in e for e in got)
    else:
        service = table.live.service()
        texts = [e.pop("text") for e in got]
        messages = [e.pop("message") for e in got]
        readable = [service.presenter.readable(table.engine, e, lang) for e in expected]
        assert texts == [r["text"] for r in readable]
        assert messages == [r["message"] for r in readable]
        assert all(texts)
    assert got == expected, f"the log shows {viewer} something else than its events"


# --------------------------------------------------------------------------- refused requests
#
# What a refusal may say. The server refuses in a fixed order (app.tables.moves.Moves.act_as_seat):
# not playing, stale version, not the seat's turn, not an action of the game, then whatever the
# engine's ``apply`` raises. ``_refusal`` models that order and computes each refusal from the
# full state. An error body tells the seat nothing hidden when it is a function of what the seat
# may know: the request, the version and the seats to act (all public), and its own view.
#
# * Refusals the server words itself (not_playing, stale_version, not_your_turn before the
#   engine, validation_error) depend on public facts only: their details must equal exactly
#   the public values computed here (``current_version``, ``to_act``, the validation errors of
#   the request alone) and every number in their message must be one of those public numbers.
# * Refusals the engine words must equal, word for word, the engine's refusal in the real
#   state, and the same refusal must come out of *other worlds*: states that differ from the
#   real one only in what the seat cannot see (other seats' hands, face-down cards, deck
#   order, the Rng seed), each checked to give the seat exactly the same ``view``. A message
#   that names a hidden card (or depends on one in any way) differs between worlds and fails,
#   whatever its wording. The worlds are built per game below from the parts its view.py
#   hides. (They agree with the seat's view, not with every private event it once saw: an
#   engine message may repeat what the view shows, nothing else.) Server-worded refusals go
#   through the same comparison, which shows their code and details depend on no hidden part.
# * Any body, whoever words it, must not contain a hidden value (a string the other worlds
#   changed, such as a card in another hand) that the seat's view, its log and its request do
#   not already show.
#
# Every check compares exact values computed from the engine and the request: none guesses at
# wording, so none can fail by chance. (What it cannot see: a hidden number that happens to
# equal a public one in a message the server words; those messages are fixed sentences around
# the public numbers.)


@dataclass(frozen=True)
class Refusal:
    status: int
    code: str
    details: dict[str, Any]
    engine_message: str | None  # the engine's words; None when the server words it
    # The engine's reason code and its parameters (for a translation): compared across worlds
    # like its words, so a parameter that depends on a hidden card fails too.
    reason: str | None = None
    params: dict[str, Any] | None = None


def _refusal(
    engine: Engine, state: Any, version: int, seat: int, sent_version: int, action: Any
) -> Refusal | None:
    """How the server must refuse ``action`` from ``seat``; None if it must accept it."""
    to_act = sorted(engine.to_act(state))
    if engine.result(state) is not None:
        return Refusal(409, "not_playing", {}, None)
    if sent_version != version:
        return Refusal(409, "stale_version", {"current_version": version}, None)
    if seat not in to_act:
        return Refusal(409, "not_your_turn", {"to_act": to_act}, None)
    try:
        parsed = parse_action(engine, action)
    except ValidationError as exc:
        # The path of the offending value in the action (issue 35), and pydantic's errors.
        refused = validation_failed("", exc.errors(), document=action, root="action")
        return Refusal(422, "validation_error", refused.details, None)
    try:
        engine.apply(state, seat, parsed)
    except NotYourTurn as exc:
        return Refusal(409, "not_your_turn", {}, exc.message, exc.reason, exc.params)
    except GameOver as exc:
        return Refusal(409, "not_playing", {}, exc.message, exc.reason, exc.params)
    except RulesError as exc:
        return Refusal(422, "illegal_action", {}, exc.message, exc.reason, exc.params)
    return None


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], Any]:
    if isinstance(value, dict):
        return {k: v for key, item in value.items() for k, v in _leaves(item, (*path, key)).items()}
    if isinstance(value, list):
        return {k: v for i, item in enumerate(value) for k, v in _leaves(item, (*path, i)).items()}
    return {path: value}


def _words(value: Any) -> set[str]:
    return set(re.findall(r"\w+", value if isinstance(value, str) else json.dumps(value)))


def _hidden_words(table: Table, state: Any, worlds: list[Any], seat: int) -> set[str]:
    """Strings the other worlds moved (cards, tiles, …) that the seat's view and log lack."""
    real = _leaves(_dump(state))
    moved: set[str] = set()
    for world in worlds:
        for path, value in _leaves(_dump(world)).items():
            before = real.get(path)
            if isinstance(value, str) and isinstance(before, str) and before != value:
                moved |= _words(value) | _words(before)
    known = _words(_dump(table.engine.view(state, seat))) | _words(table.expected_log(seat))
    return moved - known


def _illegal_action(
    engine: Engine, state: Any, seat: int, seen: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any] | None:
    """A well-formed action that the engine refuses from ``seat`` now: an action legal at some
    earlier step, or a legal one with one field changed (often to a value from another hand)."""
    legal = [_dump(a) for a in engine.legal_actions(state, seat)]
    leaves = [v for v in _leaves(_dump(state)).values() if v is not None]
    strings = [v for v in leaves if isinstance(v, str)] or ["x"]
    numbers = [v for v in leaves if isinstance(v, int) and not isinstance(v, bool)] or [0]
    for _ in range(12):
        if seen and (not legal or rng.random() < 0.3):
            candidate = dict(rng.choice(seen))
        elif legal:
            candidate = dict(rng.choice(legal))
            keys = sorted(k for k in candidate if k != "type")
            if not keys:
                continue
            key = rng.choice(keys)
            old = candidate[key]
            if isinstance(old, bool):
                candidate[key] = not old
            elif isinstance(old, int):
                candidate[key] = rng.choice([old - 1, old + 1, old + 7, rng.choice(numbers)])
            elif isinstance(old, list) and old and isinstance(old[0], int):
                candidate[key] = [old[0] + rng.choice((-1, 1)), *old[1:]]
            else:
                candidate[key] = rng.choice(strings)
        else:
            return None
        if candidate in legal:
            continue
        try:
            parse_action(engine, candidate)
        except ValidationError:
            continue
        refusal = _refusal(engine, state, 0, seat, 0, candidate)
        if refusal is not None and refusal.engine_message is not None:
            return candidate
    return None


def _malformed_action(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    shapes = [
        {"type": "no_such_action"},
        {k: v for k, v in action.items() if k != "type"},
        {**action, "unexpected_field": 1},
        {**action, **{k: {"not": "a value"} for k in action if k != "type"}},
    ]
    return rng.choice(shapes)


def _send(
    table: Table, seat: int, sent_version: int, action: Any, ref: str, via_socket: bool
) -> tuple[int | None, dict[str, Any]]:
    """Send an action as ``seat``; the status (None over the socket) and the error body."""
    if not via_socket:
        r = table.players[seat].act(table.tid, sent_version, action)
        return r.status_code, r.json()
    sock = table.sockets[seat]
    sock.send({"type": "action", "version": sent_version, "action": action, "id": ref})
    frame = sock.until(lambda f: f["type"] in ("error", "state") and f.get("ref") == ref)
    assert frame["type"] == "error", frame
    return None, {k: v for k, v in frame.items() if k not in ("type", "ref")}


def _check_refusal(
    table: Table,
    version: int,
    state: Any,
    seat: int,
    sent_version: int,
    action: Any,
    rng: random.Random,
    ref: str,
) -> None:
    """``seat`` sends a request the server must refuse; the refusal is exact, changes nothing
    and tells the seat nothing hidden from it (see the comment above ``Refusal``)."""
    engine = table.engine
    expected = _refusal(engine, state, version, seat, sent_version, action)
    assert expected is not None, "the test meant to send a refused request"
    status, body = _send(table, seat, sent_version, action, ref, rng.random() < 0.5)
    if status is not None:
        assert status == expected.status, body
    assert set(body) == {"error"}, body
    error = body["error"]
    assert error["code"] == expected.code, body
    shown = {k: v for k, v in error.items() if k not in ("code", "message", "reason", "params")}
    assert shown == expected.details
    if expected.engine_message is not None:
        assert error.get("reason") == expected.reason, body
        assert error.get("params", {}) == (expected.params or {}), body
    else:
        # The server's own parameters come from public facts only: its details, the request
        # and the public numbers (the field a validation error names, the current version).
        public_words = _words(expected.details) | _words(action) | _words([sent_version, version])
        assert _words(error.get("params", {})) <= public_words | _words(
            list(error.get("params", {}))
        ), body
    message = error["message"]
    assert isinstance(message, str) and message
    worlds = other_worlds(engine, state, seat, rng)
    table.refusals += 1
    table.reshuffled += len(worlds) - 1
    for world in worlds:
        assert _refusal(engine, world, version, seat, sent_version, action) == expected, (
            f"the refusal depends on what seat {seat} cannot see: {message!r}"
        )
    if expected.engine_message is not None:
        assert message == expected.engine_message
    else:
        public = {sent_version, version, seat, *engine.to_act(state)}
        assert set(re.findall(r"\d+", message)) <= {str(n) for n in public}, message
    hidden = _hidden_words(table, state, worlds, seat) - _words(action)
    assert not _words(body) & hidden, f"the refusal names something hidden: {body}"
    # Nothing changed.
    now, current = _server_state(table.live, table.tid)
    assert now == version and _same(current, state)


def _refuse_something(
    table: Table,
    version: int,
    state: Any,
    seat: int,
    action: dict[str, Any],
    seen: list[dict[str, Any]],
    rng: random.Random,
    ref: str,
) -> None:
    """One refused request, of a kind drawn from ``rng``, around ``seat``'s chosen ``action``."""
    engine = table.engine
    to_act = engine.to_act(state)
    waiting = [s for s in range(len(table.players)) if s not in to_act]
    kind = rng.choice(["turn", "stale", "malformed", "illegal", "illegal"])
    if kind == "turn" and waiting:
        # Another seat sends the very action the acting seat chose.
        _check_refusal(table, version, state, rng.choice(waiting), version, action, rng, ref)
        return
    if kind == "illegal":
        illegal = _illegal_action(engine, state, seat, seen, rng)
        if illegal is not None:
            _check_refusal(table, version, state, seat, version, illegal, rng, ref)
            return
    if kind == "malformed":
        malformed = _malformed_action(action, rng)
        if _refusal(engine, state, version, seat, version, malformed) is not None:
            _check_refusal(table, version, state, seat, version, malformed, rng, ref)
            return
    stale = version + rng.choice((-1, 1))
    _check_refusal(table, version, state, seat, stale, action, rng, ref)


# --------------------------------------------------------------------------- the test


@pytest.fixture
def tally(record_property: Any) -> Iterator[Counter[str]]:
    """Totals over every game a test plays, reported for scripts/long_runs.py."""
    counts: Counter[str] = Counter()
    yield counts
    for name, value in sorted(counts.items()):
        record_property(name, value)


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(
    max_examples=40 if LONG else 1,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    # The server deals each table from its own secret seed, so a run cannot be replayed:
    # no shrinking, and every choice comes from one seed drawn up front (drawing the choices
    # one by one would make hypothesis see a differently shaped game on each run).
    phases=[Phase.explicit, Phase.generate],
)
@given(choice_seed=st.integers(0, 2**32 - 1), extra_players=st.integers(0, 2))
def test_every_path_shows_each_viewer_only_its_view(
    game_id: str,
    http: httpx.Client,
    live: LiveServer,
    tally: Counter[str],
    choice_seed: int,
    extra_players: int,
) -> None:
    engine = GAMES[game_id]
    rng = random.Random(choice_seed)
    low = max(engine.info.min_players, 2) if engine.info.max_players > 1 else 1
    n = min(engine.info.max_players, low + extra_players)
    players = [new_player(http, f"S{i}") for i in range(n)]
    tid = make_table(players[0], game_id, n)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    sockets = [Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={p.token}") for p in players]
    spectator = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws")
    table = Table(engine, tid, live, http, players, sockets, spectator)
    table.history.append((1, None, _setup_events(live, engine, tid)))
    seen: list[dict[str, Any]] = []  # actions legal at earlier steps: illegal ones later
    try:
        version, state = _server_state(live, tid)
        for step in range(MAX_ACTIONS):
            _check_viewers(table, version, state, rng)
            to_act = sorted(engine.to_act(state))
            if not to_act:
                break
            seat = to_act[0]
            legal = engine.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))].model_dump(mode="json")
            if rng.random() < REFUSAL_RATE:
                _refuse_something(table, version, state, seat, action, seen, rng, f"r{step}")
            seen = [*seen[-40:], *(_dump(a) for a in rng.sample(legal, min(3, len(legal))))]
            expected_state, events = engine.apply(state, seat, engine_action(engine, action))
            r = players[seat].act(tid, version, action)
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["view"] == engine.view(expected_state, seat).model_dump(mode="json")
            assert body["events"] == [
                {"version": version + 1, "actor": seat, **e}
                for e in _expected_events(engine, events, seat)
            ]
            table.history.append((version + 1, seat, list(events)))
            for viewer, sock in [*enumerate(sockets), (None, spectator)]:
                frame = sock.state_at(version + 1)
                got = [
                    {k: v for k, v in e.items() if k not in ("version", "actor")}
                    for e in frame["events"]
                ]
                assert got == _expected_events(engine, events, viewer), f"events leaked to {viewer}"
            version, state_after = _server_state(live, tid)
            assert _same(state_after, expected_state)
            # Now and then the seat takes an undoable action back: everybody's picture returns
            # to what it was, and the undo itself tells nobody anything more.
            if engine.undoable(state, seat, engine_action(engine, action)) and rng.random() < 0.3:
                r = players[seat].post(f"/api/v1/tables/{tid}/undo", {"version": version})
                assert r.status_code == 200, r.text
                undone = {"type": "action_undone", "seat": seat, "undoes": version}
                table.history.append((version + 1, seat, [undone]))
                for viewer, sock in [*enumerate(sockets), (None, spectator)]:
                    frame = sock.state_at(version + 1)
                    assert frame["view"] == engine.view(state, viewer).model_dump(mode="json")
                    assert frame["events"] == [{"version": version + 1, "actor": seat, **undone}]
                version, state_after = _server_state(live, tid)
                assert _same(state_after, state)
            state = state_after
        else:
            _check_viewers(table, version, state, rng)
        # The end (or the last state reached): every viewer's whole log, in every language.
        for viewer in [*range(n), None]:
            for lang in LANGS:
                _check_log(table, version, viewer, lang)
        # The reshuffles keep what each seat sees (else the comparisons above are vacuous).
        assert table.reshuffled > 0 or table.refusals < 3
        tally.update(
            games=1,
            finished=int(not engine.to_act(state)),
            versions_checked=version,
            refusals=table.refusals,
            reshuffled_worlds=table.reshuffled,
        )
        if not engine.to_act(state):
            last = seen[-1] if seen else {"type": "no_such_action"}
            _check_refusal(table, version, state, 0, version, last, rng, "over")
    finally:
        for sock in (*sockets, spectator):
            sock.close()


def engine_action(engine: Engine, data: dict[str, Any]) -> Any:
    return parse_action(engine, data)


def _check_viewers(table: Table, version: int, state: Any, rng: random.Random) -> None:
    engine, tid, http = table.engine, table.tid, table.http
    for seat, player in enumerate(table.players):
        expected = engine.view(state, seat).model_dump(mode="json")
        rest = player.state(tid)
        assert rest["version"] == version and rest["view"] == expected
        frame = table.sockets[seat].state_at(version)
        assert frame["view"] == expected and frame["seat"] == seat
    public = engine.view(state, None).model_dump(mode="json")
    assert http.get(f"/api/v1/tables/{tid}/state").json()["view"] == public
    assert table.spectator.state_at(version)["view"] == public
    listing = json.dumps(http.get("/api/v1/tables", params={"status": "playing"}).json())
    assert '"view"' not in listing and '"state"' not in listing
    # At a seeded share of the steps, every viewer's log: the whole of it, or what came since
    # that viewer's previous look (so that every event is checked for every viewer), with
    # readable lines in one language or none.
    if rng.random() < LOG_RATE:
        for viewer in [*range(len(table.players)), None]:
            since = table.log_seen.get(viewer, 0) if rng.random() < 0.5 else 0
            _check_log(table, version, viewer, rng.choice(LANGS), since)
            table.log_seen[viewer] = version
