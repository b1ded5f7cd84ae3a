"""Luz ``strict_memory`` through the real server: no path shows an older trick's cards.

A three-seat Luz game with ``strict_memory`` is played to its end through the API, every
seat holding a socket and a spectator a fourth. After every action each viewer's GET
state is read; every third version each viewer's GET /log (and in turn a seat's with
``?lang=en`` / ``es``: the readable lines too); every ninth a seat reconnects with
``?since`` a dozen versions back and another sends ``sync`` from further back (the resync
paths); replay and replay/steps are asked for while the game runs. At the end every
state frame every socket received is checked as well. What each path showed at version
``v`` is checked against an oracle that reads only the unredacted log (GET /replay after
the end, tests/support/luz_memory.py): no card, slot or readable card of a completed trick
other than the last one (rules §6 note 2). The same game without the option shows the
log as logged, and once the game is over the log shows everything.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.support import luz_memory
from tests.support.client import Player, acting, make_table, new_player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket

SEATS = 3


class QuietSocket(Socket):
    """A test socket that buffers every frame (no flow control) and sends no keep-alive pings:
    the sockets here are read only at the end, and a socket that stops reading would leave
    the server's pings unanswered and be closed (a wall-clock failure on a busy machine)."""

    def __init__(self, url: str) -> None:
        self._context = connect(
            url, open_timeout=30, max_size=2**22, ping_interval=None, max_queue=None
        )
        self.conn = self._context.__enter__()
        self.frames = []


@dataclass
class Seen:
    """What one path showed at one table version."""

    version: int
    path: str
    events: list[dict[str, Any]]
    view: dict[str, Any] | None = None
    seat: int | None = None


def _log_of(replay: dict[str, Any]) -> luz_memory.Log:
    log: luz_memory.Log = [[] for _ in range(replay["table"]["version"] + 1)]
    log[1] = replay.get("setup_events", [])
    for step in replay["actions"]:
        log[step["version"]] = step["events"]
    return log


def _expected(log: luz_memory.Log, upto: int, seat: int | None) -> list[dict[str, Any]]:
    """The unredacted log as GET /log showed it before this option existed."""
    return [
        {"version": v, **{k: x for k, x in e.items() if k != "visible_to"}}
        for v in range(1, upto + 1)
        for e in log[v]
        if e.get("visible_to") is None or (seat is not None and seat in e["visible_to"])
    ]


def _bare(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k not in ("actor", "text")} for e in events]


def _play(live: LiveServer, http: httpx.Client, strict: bool) -> tuple[list[Seen], str]:
    players = [new_player(http, f"Luz{i}") for i in range(SEATS)]
    tid = make_table(players[0], "luz", SEATS, {"strict_memory": strict})["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    seat_of = {p.id: p.state(tid)["seat"] for p in players}
    base = f"{live.ws_url}/api/v1/tables/{tid}/ws"
    sockets: dict[int | None, Socket] = {
        seat_of[p.id]: QuietSocket(f"{base}?token={p.token}") for p in players
    }
    sockets[None] = QuietSocket(base)
    viewers: list[Player | None] = [*players, None]
    seen: list[Seen] = []
    rng = random.Random(1714)
    refused = 0
    try:
        while True:
            player, state = acting(players, tid)
            r = player.act(tid, state["version"], rng.choice(state["legal_actions"]))
            assert r.status_code == 200, r.text
            answer = r.json()
            version = answer["version"]
            seen.append(
                Seen(version, f"answer seat {answer['seat']}", answer["events"], answer["view"])
            )
            for viewer in viewers:
                got = (viewer.get if viewer else http.get)(f"/api/v1/tables/{tid}/state")
                assert got.status_code == 200
                seen.append(Seen(version, "state", [], got.json()["view"]))
            if answer["status"] == "finished":
                break
            if version % 3 == 0:
                for index, viewer in enumerate(viewers):
                    lang = ("en", "es")[version % 2] if index == version % SEATS else None
                    query = f"?lang={lang}" if lang else ""
                    got = (viewer.get if viewer else http.get)(f"/api/v1/tables/{tid}/log{query}")
                    assert got.status_code == 200
                    assert got.json()["version"] == version
                    seat = seat_of[viewer.id] if viewer else None
                    seen.append(Seen(version, f"log {lang}", got.json()["events"], seat=seat))
            if version % 9 == 0:
                # A reconnect a dozen versions back, and a sync from further back.
                p = players[version % SEATS]
                fresh = QuietSocket(f"{base}?token={p.token}&since={max(version - 12, 1)}&lang=en")
                try:
                    frame = fresh.state_at(version, timeout=60)
                    seen.append(Seen(frame["version"], "reconnect", frame.get("events", [])))
                finally:
                    fresh.close()
                sock = sockets[seat_of[players[(version + 1) % SEATS].id]]
                sock.state_at(version, timeout=60)
                sock.send({"type": "sync", "version": max(version - 30, 0)})
                frame = sock.until(lambda f: f["type"] == "state", timeout=60)
                seen.append(Seen(frame["version"], "sync", frame.get("events", [])))
                for path in ("replay", "replay/steps?perspective=0"):
                    got = http.get(f"/api/v1/tables/{tid}/{path}")
                    assert got.status_code == 409 and got.json()["error"]["code"] == "not_finished"
                    refused += 1
        final = players[0].state(tid)["version"]
        for sock in sockets.values():
            sock.state_at(final, timeout=60)
            for frame in sock.frames:
                if frame["type"] == "state":
                    seen.append(Seen(frame["version"], "frame", frame.get("events", [])))
    finally:
        for sock in sockets.values():
            sock.close()
    assert refused > 5
    return seen, tid


def _view_leaks(log: luz_memory.Log, seen: Seen) -> list[Any]:
    """The view's tricks that name a hidden card (at most the last completed one is shown)."""
    view = seen.view
    if view is None:
        return []
    cards, _slots = luz_memory.hidden(log, seen.version)
    tricks = [*view["completed_tricks"], view["current_trick"]]
    if view["phase"] != "finished":
        assert len(view["completed_tricks"]) <= 1
    return [p for t in tricks for p in t["plays"] if (view["deal"], p["card"]) in cards]


def test_strict_memory_no_path_shows_an_older_tricks_cards(
    live: LiveServer, http: httpx.Client
) -> None:
    seen, tid = _play(live, http, strict=True)
    replay = http.get(f"/api/v1/tables/{tid}/replay")
    assert replay.status_code == 200
    log = _log_of(replay.json())
    final = len(log) - 1
    checked: dict[str, int] = {}
    leaking: dict[str, int] = {}
    for item in seen:
        path = item.path.split()[0]
        checked[path] = checked.get(path, 0) + len(item.events) + (item.view is not None)
        if item.version >= final:
            continue  # the game is over: everything may be shown
        if _view_leaks(log, item) or luz_memory.leaks(log, item.version, item.events):
            leaking[path] = leaking.get(path, 0) + 1
    assert leaking == {}, f"paths that showed an older trick's cards (times): {leaking}"
    assert set(checked) == {"answer", "state", "log", "reconnect", "sync", "frame"}
    assert min(checked.values()) > 20, checked
    # What may be shown still is: in the last /log read, the last completed trick's cards.
    logs = [s for s in seen if s.path.startswith("log") and s.version < final]
    last = logs[-1]
    done = luz_memory.last_done(log, last.version)
    assert done is not None
    (version, _index), _deal, event = done
    assert any(
        e["type"] == "trick_won" and e["version"] == version and e["cards"] == event["cards"]
        for e in last.events
    )
    # Once the game has ended the log shows every card, as logged.
    whole = http.get(f"/api/v1/tables/{tid}/log").json()["events"]
    assert _bare(whole) == _expected(log, final, None)


def test_without_strict_memory_every_path_shows_the_log_as_logged(
    live: LiveServer, http: httpx.Client
) -> None:
    seen, tid = _play(live, http, strict=False)
    log = _log_of(http.get(f"/api/v1/tables/{tid}/replay").json())
    compared = 0
    for item in seen:
        if item.path == "log None":
            # The whole log at that version, for that viewer: exactly as logged.
            assert _bare(item.events) == _expected(log, item.version, item.seat), item.version
            compared += 1
    assert compared > 60
    leaking = [
        s for s in seen if s.path == "log None" and luz_memory.leaks(log, s.version, s.events)
    ]
    assert leaking, "without the option older tricks' cards stay in the log"
