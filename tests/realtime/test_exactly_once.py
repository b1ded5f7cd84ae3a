"""Each version's events reach a socket once, in order, none missing, whatever lands while
its catch-up (``?since=``), a sync's answer, its own action's answer or a resync is being
prepared: a commit and its broker notice are made to land inside the server's own code, at
the point where they used to make a version arrive twice.

Every socket's events, concatenated over its state frames, must equal what ``/log`` gives
its reader since the version it started from."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import jsonpatch  # type: ignore[import-untyped]
import pytest

from app.realtime.broker import Resync, TableUpdate
from tests.support.client import Player, acting, make_table, new_player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket

TAKE = {"type": "take", "count": 1}


class Server:
    """Hooks into the live server's service: ``arm(point)`` makes the next call of ``point``
    for the table (the catch-up's database read, its read of the events, or an action's
    commit) first commit one more move (its notice delivered at once, as the memory broker
    does), in the server's own event loop."""

    def __init__(self, live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
        self.service = live.service()
        self.hub = live.app.state.hub
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tid = ""
        self.tokens: list[str] = []
        self.armed: str | None = None
        self.pending: str | None = None
        self.fired = 0
        self.committed = threading.Event()
        self._wrap(monkeypatch, self.service, "snapshot", "read", lambda kw: kw.get("fresh", True))
        self._wrap(monkeypatch, self.service.history, "events_since", "events", lambda kw: True)
        # The read of a seat's first socket, after its registration, before its catch-up.
        self._wrap(
            monkeypatch, self.service, "snapshot", "presence", lambda kw: kw.get("fresh") is False
        )
        add = self.hub.add

        def registered(conn: Any) -> bool:
            if conn.table_id == self.tid and self.pending is not None:
                self.armed, self.pending = self.pending, None
            return bool(add(conn))

        monkeypatch.setattr(self.hub, "add", registered)

    def _wrap(
        self,
        monkeypatch: pytest.MonkeyPatch,
        owner: Any,
        name: str,
        point: str,
        applies: Callable[[dict[str, Any]], bool],
    ) -> None:
        original = getattr(owner, name)

        async def hooked(*args: Any, **kwargs: Any) -> Any:
            self.loop = asyncio.get_running_loop()
            if self.armed == point and applies(kwargs) and self._is_table(args[0]):
                self.armed = None
                if point == "presence":
                    # A "refresh" notice (a seat taken back) too, before the commit.
                    snap = await original(*args, **kwargs)
                    await self.hub.on_update(TableUpdate(self.tid, snap.version, "refresh"))
                await self.commit()
            return await original(*args, **kwargs)

        monkeypatch.setattr(owner, name, hooked)

    def _is_table(self, first: Any) -> bool:
        return (first if isinstance(first, str) else getattr(first, "id", None)) == self.tid

    def arm(self, point: str, *, on_register: bool = False) -> None:
        """Arm ``point`` now, or (``on_register``) once the next socket of the table is
        registered for live updates: between that and its catch-up."""
        if on_register:
            self.pending = point
        else:
            self.armed = point

    async def commit(self) -> None:
        """One move by whoever is to act (not through this test's sockets)."""
        snap = await self.service.snapshot(self.tid)
        for token in self.tokens:
            player = await self.service.player_by_token(token)
            if player is not None and snap.seat_of(player.id) in snap.to_act():
                await self.service.moves.act(self.tid, player, snap.version, TAKE, None)
                self.fired += 1
                self.committed.set()
                return
        raise AssertionError("nobody to act")

    def run(self, make: Callable[[], Awaitable[Any]]) -> Any:
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(_call(make), self.loop).result(timeout=60)


async def _call(make: Callable[[], Awaitable[Any]]) -> Any:
    return await make()


@pytest.fixture
def server(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    yield Server(live, monkeypatch)


def _game(http: httpx.Client, server: Server) -> tuple[list[Player], str]:
    players = [new_player(http, "A"), new_player(http, "B")]
    tid = make_table(players[0], "pick", 2, {"pile": 40, "max_take": 1})["id"]
    assert players[1].post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    server.tid, server.tokens = tid, [p.token for p in players]
    return players, tid


def _move(players: list[Player], tid: str) -> int:
    for p in players:
        s = p.state(tid)
        if s["legal_actions"]:
            assert p.act(tid, s["version"], TAKE).status_code == 200
            return int(s["version"]) + 1
    raise AssertionError("nobody to act")


def _settle(sock: Socket, version: int) -> list[dict[str, Any]]:
    """Every state frame up to ``version``, and any sent before a pong that follows."""
    sock.state_at(version, timeout=30)
    sock.send({"type": "ping"})
    sock.until(lambda f: f["type"] == "pong", timeout=30)
    return [f for f in sock.frames if f["type"] == "state"]


def _assert_once(
    frames: list[dict[str, Any]], reader: Player | None, http: httpx.Client, tid: str, since: int
) -> None:
    got = [e for f in frames for e in f["events"]]
    log = (reader.get if reader else http.get)(f"/api/v1/tables/{tid}/log", params={"since": since})
    # A version's events (a move may log several) come in one frame, never in two.
    per_frame = [sorted({e["version"] for e in f["events"]}) for f in frames]
    versions = [v for vs in per_frame for v in vs]
    assert len(versions) == len(set(versions)), f"a version arrived twice: {per_frame}"
    assert got == log.json()["events"]
    assert {e["version"] for e in got} == set(range(since + 1, frames[-1]["version"] + 1))


def _assert_views(
    frames: list[dict[str, Any]], reader: Player | None, http: httpx.Client, tid: str
) -> None:
    """In delta mode each patch applies to the view of the frame just before it."""
    view: Any = None
    for previous, frame in zip([None, *frames], frames, strict=False):
        if "view_patch" in frame:
            assert previous is not None and frame["base_version"] == previous["version"]
            view = jsonpatch.apply_patch(view, frame["view_patch"])
        else:
            view = frame["view"]
    want = (reader.get if reader else http.get)(f"/api/v1/tables/{tid}/state").json()
    assert view == want["view"]


@pytest.mark.parametrize(
    ("point", "who"),
    [
        ("read", "seat"),
        ("read", "spectator"),
        ("events", "seat"),
        ("events", "spectator"),
        ("presence", "seat"),
    ],
)
@pytest.mark.parametrize("delta", [False, True])
def test_a_commit_during_the_catch_up_arrives_once(
    point: str, who: str, delta: bool, server: Server, http: httpx.Client, live: LiveServer
) -> None:
    players, tid = _game(http, server)
    for _ in range(4):
        since = _move(players, tid)
    _move(players, tid)
    reader = players[0] if who == "seat" else None
    query = f"since={since}" + (f"&token={reader.token}" if reader else "") + "&delta=1" * delta
    server.arm(point, on_register=True)
    sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?{query}")
    try:
        sock.until(lambda f: f["type"] == "state", timeout=30)
        assert server.committed.wait(timeout=30)
        for _ in range(2):
            last = _move(players, tid)
        frames = _settle(sock, last)
        assert server.fired == 1
        _assert_once(frames, reader, http, tid, since)
        _assert_views(frames, reader, http, tid)
        # The first frame is the catch-up: it starts right after ``since``.
        assert frames[0]["events"][0]["version"] == since + 1
    finally:
        sock.close()


@pytest.mark.parametrize("point", ["read", "events"])
@pytest.mark.parametrize("named", [True, False])
def test_a_commit_during_a_sync_arrives_once(
    point: str, named: bool, server: Server, http: httpx.Client, live: LiveServer
) -> None:
    players, tid = _game(http, server)
    _move(players, tid)
    # From an older version than the table's: the sync's answer is not the first frame's.
    since = 1
    sock = Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?since={since}&token={players[1].token}")
    try:
        seen = sock.until(lambda f: f["type"] == "state", timeout=30)["version"]
        server.arm(point)
        sock.send({"type": "sync", "version": seen} if named else {"type": "sync"})
        sock.until(lambda f: f["type"] == "state", timeout=30)
        assert server.fired == 1
        last = _move(players, tid)
        _assert_once(_settle(sock, last), players[1], http, tid, since)
    finally:
        sock.close()


def test_an_action_answer_and_its_live_update_arrive_once(
    server: Server, http: httpx.Client, live: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The live update of a socket's own move is ready before the move's answer is sent (as
    when the broker's publish to Redis yields): the version still comes once, in the answer."""
    players, tid = _game(http, server)
    act = server.service.moves.act

    async def slow_answer(*args: Any, **kwargs: Any) -> Any:
        answer = await act(*args, **kwargs)
        for _ in range(50):
            await asyncio.sleep(0)
        return answer

    monkeypatch.setattr(server.service.moves, "act", slow_answer)
    socks = {
        p.id: Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?since=1&token={p.token}")
        for p in players
    }
    try:
        for sock in socks.values():
            sock.until(lambda f: f["type"] == "state", timeout=30)
        for n in range(6):
            mover, state = acting(players, tid)
            version, ref = state["version"], f"m{n}"
            sock = socks[mover.id]
            sock.send({"type": "action", "version": version, "action": TAKE, "id": ref})
            answer = sock.until(lambda f, ref=ref: f.get("ref") == ref, timeout=30)
            assert answer["type"] == "state", answer
            assert answer["version"] == answer["events"][-1]["version"] == version + 1
        # A retry of the last action (same id) is answered as one, without its events again.
        sock.send({"type": "action", "version": version, "action": TAKE, "id": ref})
        again = sock.until(lambda f: f.get("ref") == ref and f is not answer, timeout=30)
        assert again["type"] == "state" and again["replayed"] is True
        last = players[0].state(tid)["version"]
        for p in players:
            _assert_once(_settle(socks[p.id], last), p, http, tid, 1)
    finally:
        for sock in socks.values():
            sock.close()


def test_a_resync_racing_the_live_updates_sends_each_version_once(
    server: Server, http: httpx.Client, live: LiveServer
) -> None:
    """A broker reconnect (resync) while a commit's live updates are on their way."""
    players, tid = _game(http, server)
    base = f"{live.ws_url}/api/v1/tables/{tid}/ws?since=1"
    socks = [Socket(base), Socket(f"{base}&token={players[0].token}&delta=1")]
    try:
        for sock in socks:
            sock.until(lambda f: f["type"] == "state", timeout=30)

        async def commit_then_resync() -> None:
            await server.commit()
            await server.hub.on_update(Resync())

        for _ in range(3):
            server.run(commit_then_resync)
        last = _move(players, tid)
        for sock, reader in zip(socks, [None, players[0]], strict=True):
            frames = _settle(sock, last)
            _assert_once(frames, reader, http, tid, 1)
            _assert_views(frames, reader, http, tid)
    finally:
        for sock in socks:
            sock.close()
