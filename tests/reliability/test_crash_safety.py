"""Crash safety: SIGKILL the real server mid-game, restart it, lose nothing, invent nothing.

For every registered game and both databases, the real server (``python -m app``) runs as
a subprocess. The table has at least three seats: one random bot and the rest humans, each
human its own client on its own thread (REST and its own WebSocket, see
``_crash_clients``), plus a spectator socket. The kill point is a seeded number of
acknowledged requests, counted over the whole game and kept well inside the game's
shortest random playthrough; at it the server is SIGKILLed, either right after the K-th
acknowledgement or a seeded few milliseconds after the next request was sent (in flight).

After every kill, from the database: the table was still playing; versions are
contiguous; every acknowledged request is in the log at its version, as sent; every
logged record is one a client sent at exactly that version, or the bot's own choice; no
idempotency key is applied twice; the snapshot is seed + log replayed; every picture any
client was shown (REST bodies and state frames) is that replay's view at its version.
After each restart: a new socket gets the stored version; a bot that was due resumes
without a human nudging it; a request in flight at the kill, sent again with its key,
lands at most once. After the last restart the game is played to the end (finished, with
a ranking, and the stored result is the engine's).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import random
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import BaseModel
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.games import REGISTRY
from app.games.base import Engine
from app.tables.replay import SETUP, Step, replay_log
from tests.reliability._crash_clients import (
    AFTER_ACK,
    IN_FLIGHT,
    WAIT,
    Human,
    KillMode,
    KillPlan,
    Ledger,
    Watcher,
    canonical,
)
from tests.support.client import Player, make_table, new_player
from tests.support.databases import BACKENDS, fresh_database
from tests.support.process import ServerProcess

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
# One kill per game and database in CI (eight runs over four games), five with
# HYPOTHESIS_PROFILE=long.
KILLS_PER_GAME = 5 if LONG else 1
BOT_LEVEL = "random"
BOT_MOVE = "bot:"  # the key the server gives its bots' moves (app.tables.bots.BOT_MOVE)
SIMULATED_GAMES = 10
# The bots think for a moment: a kill right after a human's move then often finds the bot
# due, and the restart has to resume it.
BOT_DELAY = 0.02


# --------------------------------------------------------------------------- the plan


def _human_moves(engine: Engine, seats: int, seed: int) -> int:
    """Actions by the human seats (all but the last) in one random self-play."""
    rng = random.Random(seed)
    state = engine.setup(seats, seed, engine.Options())
    moves = 0
    for _ in range(engine.max_length(seats)):
        if engine.result(state) is not None:
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        moves += seat != seats - 1
    return moves


@functools.cache
def _plan(game_id: str) -> tuple[int, int]:
    """(seats, kill budget): at least three seats (two humans and the bot) where the game
    allows, more if the game is too short for the kills; the budget is half the human moves
    of the shortest of a few random self-plays, so every kill point is well inside a game."""
    engine = REGISTRY[game_id]
    info = engine.info
    assert info.max_players >= 2, f"{game_id}: the test needs a human and a bot seat"
    seats = min(info.max_players, max(info.min_players, 3))
    while True:
        shortest = min(_human_moves(engine, seats, s) for s in range(SIMULATED_GAMES))
        budget = shortest // 2
        if budget >= 3 * KILLS_PER_GAME or seats == info.max_players:
            break
        seats += 1
    assert budget >= 3 * KILLS_PER_GAME, f"{game_id} is too short for {KILLS_PER_GAME} kills"
    return seats, budget


def _kill_plans(seed: int, budget: int) -> list[tuple[int, KillMode, float]]:
    """Per round: (acknowledgements to wait for, mode, in-flight delay), from the seed alone."""
    rng = random.Random(f"{seed}:kills")
    high = max(3, min(25, budget // KILLS_PER_GAME))
    return [
        (rng.randint(3, high), rng.choice((AFTER_ACK, IN_FLIGHT)), rng.uniform(0, 0.01))
        for _ in range(KILLS_PER_GAME)
    ]


# --------------------------------------------------------------------------- the database


@dataclass
class Record:
    version: int
    seat: int
    kind: str
    action: dict[str, Any]
    client_id: str | None


@dataclass
class Stored:
    status: str
    version: int
    state: BaseModel
    to_act: frozenset[int]
    result: Any
    log: dict[int, Record]


def _read(url: str, table_id: str) -> tuple[list[Any], Any]:
    async def read() -> tuple[list[Any], Any]:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                rows = (
                    await conn.execute(
                        text(
                            "SELECT version, seat, kind, action, client_id FROM action_log"
                            " WHERE table_id = :t ORDER BY version"
                        ),
                        {"t": table_id},
                    )
                ).all()
                table = (
                    await conn.execute(
                        text(
                            "SELECT status, version, state, seed, seat_count, options, result"
                            " FROM game_tables WHERE id = :t"
                        ),
                        {"t": table_id},
                    )
                ).one()
            return list(rows), table
        finally:
            await engine.dispose()

    return asyncio.run(read())


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _check_store(
    url: str, tid: str, engine: Engine, ledger: Ledger, bot_seat: int, resumed: list[int]
) -> Stored:
    """Every invariant the database must keep, whatever the kill did; the table as stored."""
    rows, table = _read(url, tid)
    status, version, seed, seat_count = str(table[0]), int(table[1]), int(table[3]), table[4]
    # The start is version 1, logged with the setup's events and no seat; every move after it
    # is one record per version, none skipped or doubled.
    setup = [row for row in rows if str(row[2]) == SETUP]
    assert [(int(row[0]), row[1]) for row in setup] == [(1, None)], f"the setup record: {setup}"
    log = {
        int(v): Record(int(v), int(s), str(k), _json(a), c) for v, s, k, a, c in rows if k != SETUP
    }  # fmt: skip
    assert sorted(log) == list(range(2, 2 + len(log))), f"a version was skipped: {sorted(log)}"
    assert version == 1 + len(log), f"the table is at {version} with {len(log)} records"

    # The snapshot is seed + log replayed (and every state on the way is kept for below).
    states: dict[int, BaseModel] = {
        1: engine.setup(seat_count, seed, engine.Options.model_validate(_json(table[5])))
    }
    steps: list[Step] = [(r.version, r.seat, r.kind, r.action) for r in log.values()]
    for v, state in replay_log(engine, states[1], steps):
        states[v] = state
    final = states[version]
    assert canonical(final.model_dump(mode="json")) == canonical(_json(table[2])), (
        "the snapshot differs from seed + log replayed"
    )
    result = engine.result(final)
    assert status == ("finished" if result is not None else "playing"), status
    if result is not None:
        assert _json(table[6]) == result.model_dump(mode="json"), "stored result != engine's"

    # Every acknowledged request is in the log at its version, exactly as sent.
    for ack in ledger.acks:
        record = log.get(ack.version)
        assert record is not None, f"acknowledged {ack} lost"
        got = (record.seat, record.kind, canonical(record.action))
        assert got == (ack.sent.seat, ack.sent.kind, canonical(ack.sent.action)), (
            f"acknowledged {ack} but the log has {record}"
        )
        if ack.sent.client_id is not None:
            assert record.client_id == ack.sent.client_id, (ack, record)

    # Nothing else: a human seat's record is a request a client sent at that very version;
    # a bot seat's record is the bot's own choice there; no key is applied twice.
    sent = {s.key() for s in ledger.sent}
    for record in log.values():
        if record.seat == bot_seat:
            before = states[record.version - 1]
            rng = random.Random(f"{seed}:{record.version - 1}:{bot_seat}")
            choice = engine.bot(
                engine.view(before, bot_seat),
                engine.legal_actions(before, bot_seat),
                rng,
                BOT_LEVEL,
            )
            assert record.kind == "action", record
            assert record.client_id == f"{BOT_MOVE}{record.version - 1}:{bot_seat}", record
            assert record.action == choice.model_dump(mode="json"), f"the bot never chose {record}"
        else:
            key = (record.version, record.seat, record.kind, canonical(record.action))
            assert (*key, record.client_id) in sent, f"a record nobody sent: {record}"
    keys = [r.client_id for r in log.values() if r.client_id is not None]
    assert len(keys) == len(set(keys)), "an idempotency key was applied twice"

    # What any client was shown is the stored history's view at that version.
    views: dict[tuple[int, int | None], Any] = {}
    for seen in ledger.seen:
        assert seen.version in states, f"a client was shown version {seen.version}, not stored"
        at = states[seen.version]
        if (seen.version, seen.seat) not in views:
            views[seen.version, seen.seat] = json.loads(
                json.dumps(engine.view(at, seen.seat).model_dump(mode="json"))
            )
        assert seen.view == views[seen.version, seen.seat], (
            f"seat {seen.seat} was shown a view at {seen.version} ({seen.via}) the log does not give"
        )
        shown = "finished" if engine.result(at) is not None else "playing"
        assert seen.status == shown, seen

    # A bot due at a restart moved first, before any human client was started.
    for v in resumed:
        assert log[v].seat == bot_seat, f"record {v} after the restart is not the bot's"

    return Stored(status, version, final, engine.to_act(final), result, log)


# --------------------------------------------------------------------------- one round


@dataclass
class Table:
    engine: Engine
    tid: str
    humans: dict[int, Player]
    bot_seat: int
    seed: int


def _round(
    server: ServerProcess,
    table: Table,
    ledger: Ledger,
    round_no: int,
    plan: KillPlan | None,
    stored: Stored | None,
    resumed: list[int],
) -> list[Human]:
    """Play one round with every client until the plan's kill (or, without a plan, until
    the game ends)."""
    stop = threading.Event()
    ledger.arm(plan, server.kill)
    watcher = Watcher(server.ws_url, table.tid, ledger, stop)
    clients: list[Human] = []
    try:
        watcher.start()
        assert ledger.wait_for(lambda: watcher.first is not None or bool(ledger.errors)), (
            "the spectator socket got no state"
        )
        _raise(ledger)
        assert watcher.first is not None
        if stored is not None:
            # After a restart: a new socket is told the stored version; a bot that was due
            # resumes on its own (no human client runs yet to wake it).
            if table.bot_seat in stored.to_act:
                assert watcher.first >= stored.version, (watcher.first, stored.version)
                assert ledger.wait_for(lambda: ledger.max_seen > stored.version), (
                    f"the bot did not resume at version {stored.version}"
                )
                resumed.append(stored.version + 1)
            else:
                assert watcher.first == stored.version, (watcher.first, stored.version)
        pending = dict(ledger.pending)
        ledger.pending.clear()
        for seat, player in table.humans.items():
            retry = pending.get(seat)
            clients.append(
                Human(
                    base_url=server.url,
                    ws_url=server.ws_url,
                    tid=table.tid,
                    seat=seat,
                    token=player.token,
                    rng=random.Random(f"{table.seed}:seat{seat}:round{round_no}"),
                    ledger=ledger,
                    stop=stop,
                    round_no=round_no,
                    retry=retry if retry is not None and retry.client_id is not None else None,
                )
            )
        for client in clients:
            client.start()
        if plan is not None:
            # The clients stop when the kill lands, a little before the kill returns.
            ok = ledger.wait_for(
                lambda: (
                    ledger.killed
                    or bool(ledger.errors)
                    or (all(c.done for c in clients) and not ledger.killing)
                ),
                timeout=4 * WAIT,
            )
            _raise(ledger)
            if ledger.killing:
                assert ledger.wait_for(lambda: ledger.killed), "the kill did not return"
            if not ledger.killed:
                ledger.fire()
                raise AssertionError(
                    f"round {round_no}: {len(ledger.acks)} of {plan.target} acknowledgements"
                    f" before the clients stopped (timed out: {not ok})"
                )
        else:
            ok = ledger.wait_for(
                lambda: bool(ledger.errors) or all(c.done for c in clients), timeout=8 * WAIT
            )
            _raise(ledger)
            assert ok, "the game did not reach its end"
            assert all(c.finished for c in clients), "a client stopped before the end"
    finally:
        stop.set()
        for thread in [watcher, *clients]:
            if thread.ident is not None:
                thread.join(timeout=WAIT)
    assert not any(t.is_alive() for t in [watcher, *clients]), "a client did not stop"
    _raise(ledger)
    return clients


def _retried(clients: list[Human]) -> str:
    tried = [f"seat {c.seat} acked={c.retried}" for c in clients if c.retried is not None]
    return f", re-sent what was in flight at the last kill: {', '.join(tried)}" if tried else ""


def _raise(ledger: Ledger) -> None:
    if ledger.errors:
        raise ledger.errors[0]


# --------------------------------------------------------------------------- the test


def _run(engine: Engine, backend: str, tmp_path: Path, seed: int) -> dict[str, int]:
    """Play, kill, check; return the figures scripts/long_runs.py prints."""
    seats, budget = _plan(engine.info.id)
    kills = _kill_plans(seed, budget)
    ledger = Ledger()
    resumed: list[int] = []
    notes: list[str] = []
    with fresh_database(backend, tmp_path, migrate=False) as url:
        server = ServerProcess(url, PARTIDA_BOT_DELAY=BOT_DELAY).start()
        try:
            with httpx.Client(base_url=server.url, timeout=30) as http:
                owner = new_player(http, "H0")
                tid = make_table(owner, engine.info.id, seats)["id"]
                humans = {0: owner}
                for i in range(1, seats - 1):
                    player = new_player(http, f"H{i}")
                    r = player.post(f"/api/v1/tables/{tid}/join")
                    assert r.status_code == 200, r.text
                    humans[r.json()["seat"]] = player
                r = owner.post(f"/api/v1/tables/{tid}/bots", {"level": BOT_LEVEL})
                assert r.status_code in (200, 201), r.text
                assert owner.post(f"/api/v1/tables/{tid}/start").status_code == 200
            (bot_seat,) = set(range(seats)) - set(humans)
            table = Table(engine, tid, humans, bot_seat, seed)

            stored: Stored | None = None
            for round_no, (k, mode, delay) in enumerate(kills):
                plan = KillPlan(len(ledger.acks) + k, mode, delay)
                clients = _round(server, table, ledger, round_no, plan, stored, resumed)
                stored = _check_store(url, tid, engine, ledger, bot_seat, resumed)
                assert stored.status == "playing", (
                    f"kill {round_no}: the game had ended before the kill"
                    f" ({len(ledger.acks)} acknowledgements, version {stored.version})"
                )
                aimed = ledger.in_flight
                landed = aimed is not None and (
                    (rec := stored.log.get(aimed.version + 1)) is not None
                    and (rec.version, rec.seat, rec.kind, canonical(rec.action), rec.client_id)
                    == aimed.key()
                )
                notes.append(
                    f"kill {round_no}: {mode} at ack {plan.target} (then {len(ledger.acks)}),"
                    f" version {stored.version}, bot due: {bot_seat in stored.to_act}"
                    + (f", in flight: v{aimed.version + 1} landed={landed}" if aimed else "")
                    + _retried(clients)
                )
                server = ServerProcess(url, port=server.port, PARTIDA_BOT_DELAY=BOT_DELAY).start()

            # After the last restart: bots resume and the game is played to the end.
            clients = _round(server, table, ledger, len(kills), None, stored, resumed)
            notes.append(f"to the end{_retried(clients)}")
            with httpx.Client(base_url=server.url, timeout=30) as http:
                final = http.get(f"/api/v1/tables/{tid}/state", headers=owner.auth).json()
            assert final["status"] == "finished" and final["result"]["ranking"], final
            server.stop()
            stored = _check_store(url, tid, engine, ledger, bot_seat, resumed)
            assert stored.status == "finished"
            assert stored.version == final["version"]
            bot_records = sum(r.seat == bot_seat for r in stored.log.values())
            assert bot_records, "the bot never moved"
            notes.append(
                f"{len(ledger.acks)} acks, {len(ledger.seen)} pictures,"
                f" {bot_records} bot records of {len(stored.log)}"
            )
            print(f"\n{engine.info.id}/{backend}: " + "; ".join(notes), end=" ")
            return {
                "kills": len(kills),
                "acknowledged": len(ledger.acks),
                "log_records": len(stored.log),
                "bot_records": bot_records,
                "bot_resumed_after_kill": len(resumed),
            }
        finally:
            server.stop()


# Every game on both databases under the long profile; in CI each game on one of them, the
# two taking turns over the games (the kill and the recovery are the same code for every game).
CASES = (
    [(game_id, backend) for game_id in sorted(REGISTRY) for backend in BACKENDS]
    if LONG
    else [(game_id, BACKENDS[i % 2]) for i, game_id in enumerate(sorted(REGISTRY))]
)


@pytest.mark.timeout(1800 if LONG else 300)
@pytest.mark.parametrize(("game_id", "backend"), CASES, ids=[f"{g}-{b}" for g, b in CASES])
def test_sigkill_loses_no_acknowledged_action_and_games_finish(
    game_id: str, backend: str, tmp_path: Path, record_property: Any
) -> None:
    seed = zlib.crc32(f"{game_id}:{backend}".encode())
    for name, value in _run(REGISTRY[game_id], backend, tmp_path, seed).items():
        record_property(name, value)
