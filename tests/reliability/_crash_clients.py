"""The clients of the crash-safety test, and the ledger of what they sent and saw.

Every human seat is its own client on its own thread, with its own httpx client and its
own WebSocket: it learns about turns from its socket's state frames (now and then from
``GET state`` instead), and sends each action either over REST or over its socket, with
or without an idempotency key. A spectator socket (:class:`Watcher`) only watches.

Everything goes through one :class:`Ledger`: each request before it is sent, each
acknowledgement (a 200, or the socket's state frame answering the request's id), and each
picture of the table any client was shown (REST bodies and state frames alike). The
ledger also fires the round's SIGKILL: right after the K-th acknowledgement, or a small
delay after the first request sent once K acknowledgements are in (while it is in flight).
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx
from websockets.exceptions import WebSocketException

from tests.support.wsclient import Socket

KillMode = Literal["after_ack", "in_flight"]
AFTER_ACK: KillMode = "after_ack"
IN_FLIGHT: KillMode = "in_flight"

# Refusals a well-behaved client can meet while others play at the same time.
REFUSALS = {"stale_version", "not_your_turn", "not_undoable", "not_playing"}
# What a client sees when the server dies under it.
CONNECTION_LOST = (httpx.TransportError, WebSocketException, OSError, EOFError)

UNDO_RATE = 0.25  # how often a client takes back the action it just saw acknowledged
WS_RATE = 0.3  # how often it sends a request over its socket instead of REST
KEY_RATE = 0.7  # how often a REST request carries an idempotency key (socket ones always do)
REST_READ_RATE = 0.15  # how often it re-reads GET state before acting instead of trusting frames
WAIT = 60.0  # guard against a hang (never an assertion about speed)


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@dataclass(frozen=True)
class Sent:
    """A request as a client sent it: an action, or an undo (``{"undoes": version}``)."""

    seat: int
    version: int  # the version the request acted on: its record, if any, is version + 1
    kind: Literal["action", "undo"]
    action: dict[str, Any]
    client_id: str | None

    def key(self) -> tuple[int, int, str, str, str | None]:
        return (self.version + 1, self.seat, self.kind, canonical(self.action), self.client_id)


@dataclass(frozen=True)
class Ack:
    """An acknowledged request: it must be in the log at ``version``, as sent."""

    version: int
    sent: Sent
    via: str  # "rest", "ws" or "retry"


@dataclass(frozen=True)
class Seen:
    """A picture of the table one viewer was shown (seat None: a spectator)."""

    version: int
    seat: int | None
    status: str
    view: Any
    via: str


@dataclass
class KillPlan:
    """Kill once ``target`` acknowledgements are in (counted over the whole game)."""

    target: int
    mode: KillMode
    delay: float  # in_flight: seconds between sending the request and the SIGKILL


@dataclass
class Ledger:
    cond: threading.Condition = field(default_factory=threading.Condition)
    sent: list[Sent] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    # Per seat, the request sent and not answered yet (after a kill: the one in flight).
    pending: dict[int, Sent] = field(default_factory=dict)
    errors: list[BaseException] = field(default_factory=list)
    max_seen: int = 0
    # The current round.
    plan: KillPlan | None = None
    kill: Callable[[], None] | None = None
    killing: bool = False  # the SIGKILL is on its way: losing the connection is expected
    killed: bool = False
    in_flight: Sent | None = None  # in_flight mode: the request the kill was aimed at

    def arm(self, plan: KillPlan | None, kill: Callable[[], None]) -> None:
        with self.cond:
            self.plan, self.kill = plan, kill
            self.killing = self.killed = False
            self.in_flight = None

    def fire(self) -> None:
        """SIGKILL the server now (once per round)."""
        with self.cond:
            if self.killing:
                return
            self.killing = True
            kill = self.kill
        assert kill is not None
        kill()
        with self.cond:
            self.killed = True
            self.cond.notify_all()

    def on_send(self, sent: Sent) -> None:
        aim = False
        with self.cond:
            self.sent.append(sent)
            self.pending[sent.seat] = sent
            plan = self.plan
            if (
                plan is not None
                and plan.mode == IN_FLIGHT
                and len(self.acks) >= plan.target
                and self.in_flight is None
            ):
                self.in_flight, aim = sent, True
        if aim:
            assert plan is not None
            # Fired from another thread while this one sends the request.
            timer = threading.Timer(plan.delay, self.fire)
            timer.daemon = True
            timer.start()

    def on_answer(self, seat: int) -> None:
        with self.cond:
            self.pending.pop(seat, None)

    def on_ack(self, ack: Ack) -> None:
        with self.cond:
            self.acks.append(ack)
            plan = self.plan
            now = plan is not None and plan.mode == AFTER_ACK and len(self.acks) == plan.target
        if now:
            self.fire()

    def observe(self, picture: dict[str, Any], via: str) -> None:
        seen = Seen(picture["version"], picture["seat"], picture["status"], picture["view"], via)
        with self.cond:
            self.seen.append(seen)
            if seen.version > self.max_seen:
                self.max_seen = seen.version
                self.cond.notify_all()

    def fail(self, exc: BaseException) -> None:
        with self.cond:
            self.errors.append(exc)
            self.cond.notify_all()

    def wait_for(self, predicate: Callable[[], bool], timeout: float = WAIT) -> bool:
        with self.cond:
            return self.cond.wait_for(predicate, timeout)

    def notify(self) -> None:
        with self.cond:
            self.cond.notify_all()


class _Client(threading.Thread):
    """A thread that ends quietly when the server is killed under it, and reports anything
    else to the ledger."""

    def __init__(self, ledger: Ledger, stop: threading.Event, name: str) -> None:
        super().__init__(name=name, daemon=True)
        self.ledger, self.stop = ledger, stop
        self.done = False

    def run(self) -> None:
        try:
            self.play()
        except CONNECTION_LOST as exc:
            if not self.ledger.killing:
                self.ledger.fail(exc)
        except BaseException as exc:
            # A timeout while the kill is on its way is the kill's doing; anything else is not.
            if not (self.ledger.killing and isinstance(exc, TimeoutError)):
                self.ledger.fail(exc)
        finally:
            self.done = True
            self.ledger.notify()

    def play(self) -> None:
        raise NotImplementedError


class Watcher(_Client):
    """A spectator socket: records every state frame; ``first`` is the first version."""

    def __init__(self, ws_url: str, tid: str, ledger: Ledger, stop: threading.Event) -> None:
        super().__init__(ledger, stop, "watcher")
        self.url = f"{ws_url}/api/v1/tables/{tid}/ws"
        self.first: int | None = None

    def play(self) -> None:
        sock = Socket(self.url)
        try:
            while not self.stop.is_set():
                try:
                    frame = sock.recv(timeout=0.5)
                except TimeoutError:
                    continue
                if frame.get("type") == "state":
                    self.ledger.observe(frame, "ws")
                    if self.first is None:
                        self.first = frame["version"]
                        self.ledger.notify()
        finally:
            sock.close()


class Human(_Client):
    """One human seat, playing random legal actions until the game ends or the server dies."""

    def __init__(
        self,
        *,
        base_url: str,
        ws_url: str,
        tid: str,
        seat: int,
        token: str,
        rng: random.Random,
        ledger: Ledger,
        stop: threading.Event,
        round_no: int,
        retry: Sent | None,
    ) -> None:
        super().__init__(ledger, stop, f"seat-{seat}")
        self.base_url, self.tid, self.seat, self.rng = base_url, tid, seat, rng
        self.ws = f"{ws_url}/api/v1/tables/{tid}/ws?token={token}"
        self.auth = {"Authorization": f"Bearer {token}"}
        self.round_no = round_no
        self.retry = retry
        self.retried: bool | None = None  # whether the retried request was acknowledged
        self.latest: dict[str, Any] | None = None
        self.spent = 0  # a refused request acted on this version: wait for a newer one
        self.replies: dict[str, dict[str, Any]] = {}
        self.count = 0
        self.finished = False

    # ------------------------------------------------------------------ pictures

    def _take(self, picture: dict[str, Any], via: str) -> None:
        self.ledger.observe(picture, via)
        if self.latest is None or picture["version"] >= self.latest["version"]:
            self.latest = picture

    def _pump(self, sock: Socket, wait: float) -> bool:
        """Read every frame that has arrived, waiting up to ``wait`` for the first one."""
        got = False
        timeout = wait
        while True:
            try:
                frame = sock.recv(timeout=timeout)
            except TimeoutError:
                return got
            got, timeout = True, 0
            if frame.get("type") == "state":
                self._take(frame, "ws")
            if frame.get("type") in ("state", "error") and isinstance(frame.get("ref"), str):
                self.replies[frame["ref"]] = frame
            elif frame.get("type") == "error":
                raise AssertionError(f"seat {self.seat}: unexpected error frame {frame}")

    # ------------------------------------------------------------------ requests

    def _new_id(self) -> str:
        self.count += 1
        return f"s{self.seat}r{self.round_no}n{self.count}"

    def _request(
        self, http: httpx.Client, sock: Socket, sent: Sent, via_ws: bool
    ) -> dict[str, Any] | None:
        """Send ``sent``; the picture that acknowledged it, or None when it was refused."""
        self.ledger.on_send(sent)
        if via_ws:
            assert sent.client_id is not None
            frame: dict[str, Any] = {"type": sent.kind, "version": sent.version}
            frame["id"] = sent.client_id
            if sent.kind == "action":
                frame["action"] = sent.action
            sock.send(frame)
            while sent.client_id not in self.replies:
                if not self._pump(sock, WAIT):
                    raise TimeoutError(f"seat {self.seat}: no answer to {sent}")
            reply = self.replies.pop(sent.client_id)
            self.ledger.on_answer(self.seat)
            if reply["type"] == "state":
                assert reply["version"] >= sent.version + 1, (sent, reply["version"])
                return reply
            code = reply["error"]["code"]
        else:
            body: dict[str, Any] = {"version": sent.version}
            if sent.kind == "action":
                body["action"] = sent.action
            if sent.client_id is not None:
                body["id"] = sent.client_id
            path = "actions" if sent.kind == "action" else "undo"
            r = http.post(f"/api/v1/tables/{self.tid}/{path}", json=body, headers=self.auth)
            self.ledger.on_answer(self.seat)
            if r.status_code == 200:
                picture: dict[str, Any] = r.json()
                assert picture["version"] == sent.version + 1, (sent, picture["version"])
                self._take(picture, "rest")
                return picture
            code = r.json()["error"]["code"]
        assert code in REFUSALS, f"seat {self.seat}: {sent} refused with {code}"
        return None

    def _send(
        self,
        http: httpx.Client,
        sock: Socket,
        version: int,
        kind: Literal["action", "undo"],
        action: dict[str, Any],
    ) -> bool:
        via_ws = self.rng.random() < WS_RATE
        keyed = via_ws or self.rng.random() < KEY_RATE
        sent = Sent(self.seat, version, kind, action, self._new_id() if keyed else None)
        if self._request(http, sock, sent, via_ws) is None:
            return False
        self.ledger.on_ack(Ack(version + 1, sent, "ws" if via_ws else "rest"))
        return True

    # ------------------------------------------------------------------ the loop

    def play(self) -> None:
        with httpx.Client(base_url=self.base_url, timeout=30) as http:
            sock = Socket(self.ws)
            try:
                self._play(http, sock)
            finally:
                sock.close()

    def _play(self, http: httpx.Client, sock: Socket) -> None:
        if self.retry is not None:
            # The request that was in flight at the kill, sent again with its key: applied
            # once at most, whatever the kill did to it.
            self.retried = self._request(http, sock, self.retry, via_ws=False) is not None
            if self.retried:
                self.ledger.on_ack(Ack(self.retry.version + 1, self.retry, "retry"))
        while not self.stop.is_set():
            self._pump(sock, 0)
            p = self.latest
            if p is not None and p["status"] == "finished":
                self.finished = True
                return
            if p is None or not p["legal_actions"] or p["version"] <= self.spent:
                if not self._pump(sock, 0.5):
                    sock.send({"type": "sync"})
                continue
            if self.rng.random() < REST_READ_RATE:
                r = http.get(f"/api/v1/tables/{self.tid}/state", headers=self.auth)
                assert r.status_code == 200, r.text
                self._take(r.json(), "rest")
                p = self.latest
                assert p is not None
                if not p["legal_actions"] or p["status"] != "playing":
                    continue
            version = p["version"]
            action = self.rng.choice(p["legal_actions"])
            if not self._send(http, sock, version, "action", action):
                self.spent = version
                sock.send({"type": "sync"})
                continue
            if self.rng.random() < UNDO_RATE:
                # Take it back (the engine, or somebody acting first, may refuse: 409).
                self._send(http, sock, version + 1, "undo", {"undoes": version + 1})
