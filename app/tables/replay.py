"""Re-playing a table's log: setup(seed), then every record in order.

A record is a seat's action, or an undo that takes the table back to the state
before the action it names. The setup's own record (version 1, kind ``setup``) only
carries the events of ``Engine.start``; re-playing passes over it. Every path that
re-plays a log (state rebuilds, step-by-step replays, ``python -m app.verify``) goes
through :func:`replay_log`.

Re-playing on the server shares the event loop with every table of the instance, so it
goes through :class:`ReplayWork`: the work runs in slices of a few milliseconds
(:class:`Pacer`), a bounded number at a time, the clients waiting take turns
(:class:`FairTurns`), identical requests share one run, and what can never change (a
finished game's replay, the state at a version) is kept in bounded caches.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable, Iterable, Iterator
from typing import Any, TypeVar

from pydantic import BaseModel

from app import errors
from app.games.base import Engine, parse_action

ACTION, UNDO, SETUP = "action", "undo", "setup"

Step = tuple[int, int | None, str, dict[str, Any]]
"""(version, seat, kind, action): for an undo, ``action`` is ``{"undoes": <version>}``."""


def replay_log(
    engine: Engine, state: BaseModel, steps: Iterable[Step]
) -> Iterator[tuple[int, BaseModel]]:
    """Yield ``(version, state after that record)`` for every record, in order.

    Raises ``ValueError`` when an undo names an action that is not the last one in force
    (a log the server never writes).
    """
    steps = list(steps)
    undone = {action["undoes"] for _v, _s, kind, action in steps if kind == UNDO}
    # The states before the actions that are later undone (only those are kept).
    before: dict[int, BaseModel] = {}
    in_force: list[int] = []
    for version, seat, kind, action in steps:
        if kind == SETUP:
            continue
        if kind == UNDO:
            target = action.get("undoes")
            if not in_force or in_force[-1] != target or target not in before:
                raise ValueError(
                    f"record {version} undoes {target}, which is not the last action in force"
                )
            in_force.pop()
            state = before.pop(target)
        else:
            if seat is None:
                raise ValueError(f"record {version} is an action without a seat")
            if version in undone:
                before[version] = state
            state, _ = engine.apply(state, seat, parse_action(engine, action))
            in_force.append(version)
        yield version, state


def final_state(engine: Engine, state: BaseModel, steps: Iterable[Step]) -> BaseModel:
    """The state after the whole log (``state`` itself when the log is empty)."""
    for _version, state in replay_log(engine, state, steps):  # noqa: B007, B020
        pass
    return state


T = TypeVar("T")


def dumps(value: Any) -> bytes:
    """JSON as the API renders it (compact, UTF-8): pieces of a body rendered ahead of time."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


class Pacer:
    """Cooperative time slicing for CPU-bound work on the event loop: ``await tick()`` between
    small units of work gives the loop back once the current slice has run ``slice_seconds``,
    and rests long enough to keep the work to ``share`` of the time. The rest matters: while
    the loop thread computes it holds the GIL, and the database drivers' threads (aiosqlite)
    wait for it on every hand-over, so a loop that only yields still serves others slowly."""

    def __init__(self, slice_seconds: float, share: float = 1.0) -> None:
        self.slice_seconds = slice_seconds
        self.rest = (1.0 - share) / share
        self._since = time.perf_counter()

    async def tick(self) -> None:
        ran = time.perf_counter() - self._since
        if ran >= self.slice_seconds:
            await asyncio.sleep(ran * self.rest)
            self._since = time.perf_counter()


async def paced_final_state(
    engine: Engine, state: BaseModel, steps: Iterable[Step], pacer: Pacer
) -> BaseModel:
    """:func:`final_state`, yielding to the event loop between slices of ``apply`` calls."""
    for _version, state in replay_log(engine, state, steps):  # noqa: B007, B020
        await pacer.tick()
    return state


class Turn:
    """One run's place in :class:`FairTurns`: ``granted`` is done when the run may start.
    A run asked for by several clients waits in each one's queue and goes at the first of
    their turns."""

    def __init__(self) -> None:
        self.granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.clients: list[Hashable] = []


class FairTurns:
    """Who runs next, ``lanes`` runs at a time: the waiting runs queue per client (first come,
    first served within a client) and the clients take turns, one run each. A client that
    asks for many replays at once waits for its own; another client's run goes after at
    most one of each other client's.

    The turns are kept by a virtual clock (start-time fair queuing): each client with runs
    waiting has the time of its next turn, the earliest goes (the first to come among
    equals), and a turn moves its client's next one on by one. A client that comes (back)
    has its next turn now, or later if it has just had one: asking one replay at a time
    gains nothing over asking them all at once.

    A client may have ``per_client`` runs waiting; the next one is refused with
    :class:`QueueFull`. The client ``None`` is the server's own work (an undo, the retry of
    an old idempotency id): it takes its turns too, but is never refused."""

    def __init__(self, lanes: int, per_client: int) -> None:
        self.per_client = per_client
        self._free = lanes
        self._waiting: dict[Hashable, deque[Turn]] = {}  # in the order they came
        self._next: dict[Hashable, int] = {}  # each waiting client's next turn
        self._now = 0  # the turn being given
        # Clients with nothing waiting whose next turn is still to come (they just had one).
        self._rested: dict[Hashable, int] = {}

    def waiting(self, client: Hashable) -> int:
        """How many runs ``client`` has waiting for a turn."""
        return len(self._waiting.get(client, ()))

    def take(self, client: Hashable) -> Turn:
        """A place for a new run of ``client``. Raises :class:`QueueFull` past its bound."""
        if client is not None and self.waiting(client) >= self.per_client:
            raise QueueFull(client)
        turn = Turn()
        self.join(turn, client)
        return turn

    def join(self, turn: Turn, client: Hashable) -> None:
        """``client`` waits for ``turn``'s run too: it goes at the first of their turns.
        (Never refused: sharing a run adds no work.)"""
        if turn.granted.done() or client in turn.clients:
            return
        turn.clients.append(client)
        if client not in self._waiting:
            self._waiting[client] = deque()
            self._next[client] = max(self._now, self._rested.pop(client, 0))
        self._waiting[client].append(turn)
        self._grant()

    def release(self) -> None:
        """A run is over: the next turn."""
        self._free += 1
        self._grant()

    def withdraw(self, turn: Turn) -> None:
        """A run that will not run (cancelled): out of every queue, its lane back if it had one."""
        if turn.granted.done():
            self.release()
        else:
            turn.granted.cancel()
            self._unqueue(turn)

    def _grant(self) -> None:
        while self._free and self._waiting:
            client = min(self._waiting, key=self._next.__getitem__)
            if self._next[client] > self._now:
                self._now = self._next[client]
                self._rested = {c: t for c, t in self._rested.items() if t > self._now}
            self._next[client] += 1
            turn = self._waiting[client][0]
            self._unqueue(turn)
            self._free -= 1
            turn.granted.set_result(None)

    def _unqueue(self, turn: Turn) -> None:
        for client in turn.clients:
            queue = self._waiting.get(client)
            if queue is None or turn not in queue:
                continue
            queue.remove(turn)
            if not queue:
                del self._waiting[client]
                next_turn = self._next.pop(client)
                if next_turn > self._now:
                    self._rested[client] = next_turn


class QueueFull(Exception):
    """The client already has as many replays waiting as it may."""


class ReplayWork:
    """Where the server's re-plays run: paced, few at a time, fair between clients, shared
    and kept.

    * Every run gets a :class:`Pacer`: no slice holds the loop longer than ``slice_seconds``
      (plus one engine call or one step's rendering), and a run takes at most ``share`` of
      the loop's time.
    * ``lanes`` runs of a kind at a time (rendered replays, states): with all the others
      waiting their turn, the loop runs at most that many slices between two looks at its
      timers and sockets. The waiting runs take turns between clients (:class:`FairTurns`);
      one client may have ``per_client`` waiting, the next is ``429 rate_limited``.
    * Identical requests in flight share one run (one re-play, many awaiters); a client
      that goes away does not cancel it for the others.
    * Results are kept in LRU caches: rendered pieces of finished games (bounded in bytes)
      and states at a version (bounded in entries). Both never change once they exist: the
      log is append-only and a finished game takes no more records.
    """

    def __init__(
        self,
        *,
        max_bytes: int,
        max_states: int,
        slice_seconds: float,
        lanes: int,
        share: float = 1.0,
        per_client: int = 4,
    ) -> None:
        self.max_bytes = max_bytes
        self.max_states = max_states
        self.slice_seconds = slice_seconds
        self.share = share
        self._rendered: OrderedDict[Hashable, list[bytes]] = OrderedDict()
        self._rendered_bytes = 0
        self._states: OrderedDict[Hashable, BaseModel] = OrderedDict()
        self._pending: dict[Hashable, tuple[asyncio.Future[Any], Turn]] = {}
        self._turns = {kind: FairTurns(lanes, per_client) for kind in ("rendered", "state")}
        self._seconds_per_run = slice_seconds  # a moving mean: how soon to come back
        self.runs = 0  # re-plays actually run (not answered from a cache or a shared run)

    @property
    def rendered_bytes(self) -> int:
        return self._rendered_bytes

    async def rendered(
        self,
        key: Hashable,
        build: Callable[[Pacer], Awaitable[list[bytes]]],
        client: Hashable = None,
    ) -> list[bytes]:
        """Pieces of a rendered answer for ``key`` (kept: only for things that never change),
        run in ``client``'s turn (None: the server's own)."""
        pieces = self._rendered.get(key)
        if pieces is not None:
            self._rendered.move_to_end(key)
            return pieces
        pieces = await self._shared(("rendered", key), "rendered", build, client)
        size = sum(len(p) for p in pieces)
        if key not in self._rendered and size <= self.max_bytes:
            self._rendered[key] = pieces
            self._rendered_bytes += size
            while self._rendered_bytes > self.max_bytes:
                _key, old = self._rendered.popitem(last=False)
                self._rendered_bytes -= sum(len(p) for p in old)
        return pieces

    async def state(
        self, key: Hashable, build: Callable[[Pacer], Awaitable[BaseModel]]
    ) -> BaseModel:
        """The state for ``key`` (a table and a version: it never changes once logged)."""
        state = self._states.get(key)
        if state is not None:
            self._states.move_to_end(key)
            return state
        state = await self._shared(("state", key), "state", build, None)
        if self.max_states > 0:
            self._states[key] = state
            while len(self._states) > self.max_states:
                self._states.popitem(last=False)
        return state

    async def _shared(
        self, key: Hashable, lane: str, build: Callable[[Pacer], Awaitable[T]], client: Hashable
    ) -> T:
        turns = self._turns[lane]
        if key in self._pending:
            pending, turn = self._pending[key]
            turns.join(turn, client)
        else:
            try:
                turn = turns.take(client)
            except QueueFull:
                raise errors.RetryLater(
                    f"{turns.per_client} replays of yours are already waiting; retry later",
                    retry_after=self._retry_after(turns.per_client),
                    reason="replay",
                ) from None
            pending = asyncio.ensure_future(self._run(turns, turn, build))
            self._pending[key] = (pending, turn)

            def settled(future: asyncio.Future[Any]) -> None:
                self._pending.pop(key, None)
                if not future.cancelled():
                    future.exception()  # seen here even if every awaiter went away

            pending.add_done_callback(settled)
        result: T = await asyncio.shield(pending)
        return result

    def _retry_after(self, waiting: int) -> int:
        """Seconds until a client's waiting runs are likely over (at least 1)."""
        return max(1, math.ceil(self._seconds_per_run * waiting))

    async def _run(self, turns: FairTurns, turn: Turn, build: Callable[[Pacer], Awaitable[T]]) -> T:
        try:
            await turn.granted
        except asyncio.CancelledError:
            turns.withdraw(turn)
            raise
        try:
            self.runs += 1
            started = time.perf_counter()
            result = await build(Pacer(self.slice_seconds, self.share))
            took = time.perf_counter() - started
            self._seconds_per_run += (took - self._seconds_per_run) / 8
            return result
        finally:
            turns.release()
