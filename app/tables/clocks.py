"""Turn clocks and abandonment: the time control a table is created with, and its arithmetic.

The clocks live in the table row (``game_tables.clocks``) and change in the same
transaction as the action that moves them, so they survive restarts: per seat,
the seconds left in its bank and the moment (epoch seconds) since which the seat
has been due to act. Nothing here knows a game; "due" is the engine's ``to_act``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import GameInfo
from app.tables.pace import BotPace


class ClockDriver(Protocol):
    """What the clock keeper drives (the table service's clocks and takeovers,
    app.tables.absence): no import of it, so they can use this module's clock arithmetic
    without a cycle."""

    changed: asyncio.Event

    async def clock_tick(self) -> int: ...

    async def clock_due(self) -> int: ...

    def seconds_to_due(self) -> float | None: ...

    async def mark_seen(
        self, connected: list[tuple[str, set[str]]], *, everyone: bool = ...
    ) -> None: ...


log = logging.getLogger("partida.clocks")

# After a timeout the bank never restarts below this, so the player gets to move again.
MIN_BANK_AFTER_TIMEOUT = 15.0


class TimeControl(BaseModel):
    """How long seats may think, and what happens to a seat whose player is gone."""

    # Strict: a client's table body (app.api.schemas.RequestBody) nests it.
    model_config = ConfigDict(strict=True, extra="forbid")

    clock: Literal["none", "realtime", "async"] = Field(
        default="none",
        description="none; realtime: a time bank per seat with an increment per move; "
        "async: a fixed time per move (hours or days)",
    )
    bank_seconds: int = Field(
        default=600, ge=1, le=86_400, description="realtime: each seat's bank at the start"
    )
    increment_seconds: int = Field(
        default=10, ge=0, le=3_600, description="realtime: added to the bank after each move"
    )
    move_seconds: int = Field(
        default=86_400, ge=1, le=30 * 86_400, description="async: time for each move"
    )
    on_timeout: Literal["bot_move", "bot_takeover"] = Field(
        default="bot_move",
        description="bot_move: a bot plays that one move; bot_takeover: a bot takes the seat "
        "until its player takes it back",
    )
    abandon: Literal["off", "vote", "auto"] = Field(
        default="vote",
        description="a seat whose player is away past grace_seconds may be handed to a bot: "
        "by a vote of the other players, automatically when it is due, or never",
    )
    grace_seconds: int = Field(
        default=120, ge=1, le=7 * 86_400, description="how long a player may be away"
    )
    bot_pace: BotPace = Field(
        default="normal",
        description="how long bots wait before each move, so people can follow them: "
        "fast (0.3 s), normal (the server's bot delay) or slow (1.5 s)",
    )
    takeover_level: str | None = Field(
        default=None,
        max_length=16,
        description="the level of the bot that plays a seat handed to a bot (a takeover, a "
        "resignation); one of the game's bot_levels, null for the game's default (normal)",
    )

    def bot_level(self, info: GameInfo) -> str:
        """The level of a bot that takes a player's seat at this table."""
        if self.takeover_level in info.bot_levels:
            return self.takeover_level
        return info.default_bot_level


def time_control_of(stored: dict[str, Any] | None) -> TimeControl:
    """Tables created before time controls existed have the defaults."""
    return TimeControl.model_validate(stored or {}, strict=False)


def start_clocks(tc: TimeControl, seat_count: int, due: set[int], now: float) -> dict[str, Any]:
    return {
        "bank": [float(tc.bank_seconds)] * seat_count,
        "due_since": [now if s in due else None for s in range(seat_count)],
    }


def after_move(
    tc: TimeControl,
    clocks: dict[str, Any],
    actor: int,
    due_before: set[int],
    due_after: set[int],
    now: float,
    *,
    timed_out: bool = False,
) -> dict[str, Any]:
    """The clocks after ``actor`` moved: the time it took leaves its bank, and whoever has
    become due starts counting now. A seat that stays due keeps counting (another seat's
    move in a simultaneous phase does not reset it); the actor restarts if still due."""
    bank = list(clocks["bank"])
    since = list(clocks["due_since"])
    for seat in range(len(bank)):
        was, now_due = seat in due_before, seat in due_after
        if seat == actor or (was and not now_due):
            if since[seat] is not None:
                bank[seat] = max(0.0, bank[seat] - (now - since[seat]))
            if seat == actor and not now_due:
                bank[seat] += tc.increment_seconds
            since[seat] = now if now_due else None
        elif now_due and not was:
            since[seat] = now
    if timed_out and tc.clock == "realtime":
        bank[actor] = max(bank[actor], MIN_BANK_AFTER_TIMEOUT)
    return {"bank": bank, "due_since": since}


def with_undo_point(after: dict[str, Any], before: dict[str, Any], version: int) -> dict[str, Any]:
    """The clocks after the move that made ``version``, carrying the clocks as they were
    before it: taking that move back restores them (``after_undo``). They live in the table
    row, written in the move's own transaction, so every instance and a restart see them;
    clients never do (``public_clocks`` reads only the running clocks)."""
    return {
        **after,
        "undo": {
            "version": version,
            "bank": list(before["bank"]),
            "due_since": list(before["due_since"]),
        },
    }


def after_undo(
    tc: TimeControl,
    clocks: dict[str, Any],
    undone_version: int,
    actor: int,
    due_before: set[int],
    due_after: set[int],
    now: float,
    moved_at: float,
) -> dict[str, Any]:
    """The clocks once the move that made ``undone_version`` is taken back: exactly as they
    were before it (realtime: the bank as it was, counting since the seat became due;
    async: the same deadline). The time that passed meanwhile still counts against the
    seat, so move + undo never gives it time.

    Clocks written before undo points existed have none: the move's increment is taken
    back and the seat counts from the move's moment (``moved_at``), never from now."""
    point = clocks.get("undo")
    if point is not None and point.get("version") == undone_version:
        return {"bank": list(point["bank"]), "due_since": list(point["due_since"])}
    restored = after_move(tc, clocks, actor, due_before, due_after, now)
    bank = clocks["bank"][actor]
    if clocks["due_since"][actor] is None:  # the move ended its turn: it got the increment
        bank = max(0.0, bank - tc.increment_seconds)
    restored["bank"][actor] = bank
    if restored["due_since"][actor] is not None:
        restored["due_since"][actor] = min(moved_at, now)
    return restored


def restart_seat(clocks: dict[str, Any], seat: int, due: bool, now: float) -> dict[str, Any]:
    """A player took the seat back from a bot: its clock starts afresh from now (in the
    undo point too, so a later undo does not take the restart away)."""
    bank = list(clocks["bank"])
    since = list(clocks["due_since"])
    bank[seat] = max(bank[seat], MIN_BANK_AFTER_TIMEOUT)
    since[seat] = now if due else None
    out: dict[str, Any] = {"bank": bank, "due_since": since}
    point = clocks.get("undo")
    if point is not None:
        before_bank = list(point["bank"])
        before_since = list(point["due_since"])
        before_bank[seat] = max(before_bank[seat], MIN_BANK_AFTER_TIMEOUT)
        if before_since[seat] is not None:
            before_since[seat] = now
        out["undo"] = {**point, "bank": before_bank, "due_since": before_since}
    return out


def deadline(tc: TimeControl, clocks: dict[str, Any] | None, seat: int) -> float | None:
    """When the seat runs out of time (epoch seconds), or None if its clock is not running."""
    if clocks is None or tc.clock == "none":
        return None
    since = clocks["due_since"][seat]
    if since is None:
        return None
    if tc.clock == "realtime":
        return float(since + clocks["bank"][seat])
    return float(since + tc.move_seconds)


def overdue(
    tc: TimeControl, clocks: dict[str, Any] | None, seats: list[int], now: float
) -> list[int]:
    """The seats among ``seats`` whose time has run out."""
    out = []
    for seat in seats:
        limit = deadline(tc, clocks, seat)
        if limit is not None and limit <= now:
            out.append(seat)
    return out


def public_clocks(
    tc: TimeControl, clocks: dict[str, Any] | None, now: float
) -> dict[str, Any] | None:
    """What clients see: per seat the seconds left (as of ``now``), whether it runs and the
    deadline, plus the server time so a client can count down without trusting its own clock."""
    if clocks is None or tc.clock == "none":
        return None
    seats = []
    for seat, since in enumerate(clocks["due_since"]):
        limit = deadline(tc, clocks, seat)
        if tc.clock == "realtime":
            left = clocks["bank"][seat] - (now - since if since is not None else 0.0)
        else:
            left = (limit - now) if limit is not None else float(tc.move_seconds)
        seats.append(
            {
                "seat": seat,
                "running": since is not None,
                "seconds_left": round(max(0.0, left), 1),
                "deadline": limit,
            }
        )
    return {"mode": tc.clock, "server_time": now, "seats": seats}


def presence_lease(touch_seconds: float) -> float:
    """How far ahead a heartbeat marks a connected player as seen: three heartbeats, and
    never less than two seconds beyond one, so a slow pass or a busy database does not
    make a connected player look away. It does not depend on any table's grace: a lease
    in the future means "connected somewhere", read the same way by every instance."""
    return max(3 * touch_seconds, presence_linger(touch_seconds))


def presence_linger(touch_seconds: float) -> float:
    """How long a player still counts as seen after their last socket on one instance
    closed: one heartbeat and a margin, time enough for another instance where they are
    still connected to renew the lease (one column cannot tell whose lease it holds)."""
    return touch_seconds + 2.0


async def presence_heartbeat(
    service: ClockDriver, connected: Callable[[], Iterable[tuple[str, set[str]]]], every: float
) -> None:
    """Renews the presence lease of every player connected to this process, on its own
    schedule (a long clock pass never delays it)."""
    while True:
        try:
            await service.mark_seen(list(connected()), everyone=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("presence heartbeat failed")
        await asyncio.sleep(every)


async def clock_keeper(
    service: ClockDriver,
    connected: Callable[[], Iterable[tuple[str, set[str]]]],
    tick: float,
    touch_every: float,
    rescan_every: float,
) -> None:
    """Runs for the life of the process: applies time-outs and automatic takeovers, and
    (beside it) records which players are connected here so every instance can tell who is
    away.

    It sleeps until a table falls due or one changes (never passes closer than ``tick``
    apart), and walks every playing table only every ``rescan_every`` seconds: quiet tables
    cost nothing in between."""
    heartbeat = asyncio.create_task(
        presence_heartbeat(service, connected, touch_every), name="presence-heartbeat"
    )
    loop = asyncio.get_running_loop()
    rescan_at = loop.time()
    try:
        while True:
            try:
                if loop.time() >= rescan_at:
                    rescan_at = loop.time() + rescan_every
                    await service.clock_tick()
                else:
                    await service.clock_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock keeper pass failed")
            await asyncio.sleep(tick)
            due = service.seconds_to_due()
            wait = rescan_at - loop.time()
            if due is not None:
                wait = min(wait, due)
            if wait > 0 and not service.changed.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(service.changed.wait(), wait)
    finally:
        heartbeat.cancel()
