"""Re-playing a table's log: setup(seed), then every record in order.

A record is a seat's action, or an undo that takes the table back to the state
before the action it names. The setup's own record (version 1, kind ``setup``) only
carries the events of ``Engine.start``; re-playing passes over it. Every path that
re-plays a log (state rebuilds, step-by-step replays, ``python -m app.verify``) goes
through :func:`replay_log`.

Re-playing on the server shares the event loop with every table of the instance, so it
goes through :class:`ReplayWork`: the work runs in slices of a few milliseconds
(:class:`Pacer`), a bounded number at a time, identical requests share one run, and what
can never change (a finished game's replay, the state at a version) is kept in bounded
caches.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterable, Iterator
from typing import Any, TypeVar

from pydantic import BaseModel

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


class ReplayWork:
    """Where the server's re-plays run: paced, few at a time, shared and kept.

    * Every run gets a :class:`Pacer`: no slice holds the loop longer than ``slice_seconds``
      (plus one engine call or one step's rendering), and a run takes at most ``share`` of
      the loop's time.
    * ``lanes`` runs of a kind at a time (rendered replays, states): with all the others
      waiting their turn, the loop runs at most that many slices between two looks at its
      timers and sockets.
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
    ) -> None:
        self.max_bytes = max_bytes
        self.max_states = max_states
        self.slice_seconds = slice_seconds
        self.share = share
        self._rendered: OrderedDict[Hashable, list[bytes]] = OrderedDict()
        self._rendered_bytes = 0
        self._states: OrderedDict[Hashable, BaseModel] = OrderedDict()
        self._pending: dict[Hashable, asyncio.Future[Any]] = {}
        self._lanes = {kind: asyncio.Semaphore(lanes) for kind in ("rendered", "state")}
        self.runs = 0  # re-plays actually run (not answered from a cache or a shared run)

    @property
    def rendered_bytes(self) -> int:
        return self._rendered_bytes

    async def rendered(
        self, key: Hashable, build: Callable[[Pacer], Awaitable[list[bytes]]]
    ) -> list[bytes]:
        """Pieces of a rendered answer for ``key`` (kept: only for things that never change)."""
        pieces = self._rendered.get(key)
        if pieces is not None:
            self._rendered.move_to_end(key)
            return pieces
        pieces = await self._shared(("rendered", key), "rendered", build)
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
        state = await self._shared(("state", key), "state", build)
        if self.max_states > 0:
            self._states[key] = state
            while len(self._states) > self.max_states:
                self._states.popitem(last=False)
        return state

    async def _shared(self, key: Hashable, lane: str, build: Callable[[Pacer], Awaitable[T]]) -> T:
        pending = self._pending.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._run(lane, build))
            self._pending[key] = pending

            def settled(future: asyncio.Future[Any]) -> None:
                self._pending.pop(key, None)
                if not future.cancelled():
                    future.exception()  # seen here even if every awaiter went away

            pending.add_done_callback(settled)
        result: T = await asyncio.shield(pending)
        return result

    async def _run(self, lane: str, build: Callable[[Pacer], Awaitable[T]]) -> T:
        async with self._lanes[lane]:
            self.runs += 1
            return await build(Pacer(self.slice_seconds, self.share))
