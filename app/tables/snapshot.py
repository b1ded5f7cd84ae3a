"""A table as it stands at one version, the cache entry every part of the table service
reads: its seats, its parsed game state, and what is rendered from that version.
Plain data; the parts that load, change and show it live beside it in app/tables/."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from app.db.models import Seat
from app.games.base import Engine
from app.tables.clocks import TimeControl
from app.tables.outcomes import DEFAULT_ON_RESIGN

OPEN, PLAYING, FINISHED = "open", "playing", "finished"
STATUSES = (OPEN, PLAYING, FINISHED)

# Snapshot.undo: whether the seat that may take the last move back is known yet.
UNDO_UNKNOWN, UNDO_MOVER, UNDO_SETTLED = "unknown", "mover", "settled"


@dataclass(slots=True)
class SeatInfo:
    seat: int
    player_id: str | None
    player_name: str | None
    bot_level: str | None
    webhook_url: str | None = None
    takeover_votes: tuple[str, ...] = ()
    last_seen_at: datetime | None = None
    resigned_at: datetime | None = None

    @property
    def resigned(self) -> bool:
        """The player resigned: a bot plays the seat for good (app.tables.outcomes)."""
        return self.resigned_at is not None

    @property
    def taken_over(self) -> bool:
        """A bot plays for a player who is still seated (and may take the seat back)."""
        return self.player_id is not None and self.bot_level is not None and not self.resigned


@dataclass(slots=True)
class Renders:
    """What is built from one version of a table, once, for every socket and request that
    shows it; a new version (or new seats) starts with none (:meth:`Snapshot.renewed`)."""

    # Each seat's view and legal actions (None: a spectator's).
    pictures: dict[int | None, tuple[dict[str, Any] | None, list[dict[str, Any]]]] = field(
        default_factory=dict
    )
    # The parts the engine's views of this state share (Engine.view_json).
    view_parts: dict[Any, Any] = field(default_factory=dict)
    # Delta frames: the JSON Patch from a seat's view at an older version to this one.
    patches: dict[tuple[int | None, int], list[dict[str, Any]]] = field(default_factory=dict)
    # State frames as sent, encoded once for every socket that gets the same one (app.realtime.hub).
    frames: dict[tuple[Any, ...], bytes] = field(default_factory=dict)


@dataclass(slots=True)
class Snapshot:
    """One table as it stands at ``version``, with its parsed game state (the cache entry)."""

    id: str
    game: str
    engine: Engine
    options: dict[str, Any]
    status: str
    version: int
    seat_count: int
    seed: int
    owner_id: str
    owner_name: str
    seats: list[SeatInfo]
    state: BaseModel | None
    result: dict[str, Any] | None
    created_at: datetime
    private: bool = False
    invite_code: str = ""
    seed_secret: str = ""
    time_control: TimeControl = field(default_factory=TimeControl)
    clocks: dict[str, Any] | None = None
    on_resign: str = DEFAULT_ON_RESIGN
    cancel_vote: dict[str, Any] | None = None
    next_table: str | None = None
    # The state before the last action, kept for a quick undo: (its version, state).
    previous: tuple[int, BaseModel] | None = None
    # Who may take the last move back now, so that every picture tells its seat (``undoable``)
    # and no client offers a refused undo. ``undo`` is UNDO_UNKNOWN (not asked yet: the table
    # was loaded, not moved, here), UNDO_MOVER (``undo_seat`` made the last action; the rules
    # are not asked yet) or UNDO_SETTLED (``undo_seat`` may take it back; None: nobody).
    undo_seat: int | None = None
    undo: str = UNDO_UNKNOWN
    recent: OrderedDict[int, tuple[int | None, list[dict[str, Any]]]] = field(
        default_factory=OrderedDict
    )
    # What is built from this version for the sockets and requests that show it.
    renders: Renders = field(default_factory=Renders)

    def renewed(self, **changes: Any) -> Snapshot:
        """This snapshot with ``changes`` and nothing built from it yet: every change to a
        table goes through here, so that no picture, patch or frame of before outlives it."""
        return replace(self, renders=Renders(), **changes)

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for s in self.seats:
            if s.player_id == player_id:
                return s.seat
        return None

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat].bot_level is not None

    def to_act(self) -> list[int]:
        if self.status != PLAYING or self.state is None:
            return []
        return sorted(self.engine.to_act(self.state))


def may_undo(snap: Snapshot, seat: int | None) -> bool:
    """Whether ``seat`` may take the table's last move back now (what POST /undo accepts)."""
    return (
        snap.undo == UNDO_SETTLED
        and seat is not None
        and seat == snap.undo_seat
        and snap.status == PLAYING
        and not snap.seats[seat].taken_over
    )


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC (SQLite hands back naive datetimes; they were written in UTC)."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def is_cancel_voter(seat: Seat | SeatInfo) -> bool:
    """Who must agree to cancel a running game: every player seated and playing their own
    seat. A player who resigned has left the game; one whose seat a bot plays (away past
    the grace) votes after taking it back."""
    return seat.player_id is not None and seat.bot_level is None and seat.resigned_at is None


def public_cancel_vote(snap: Snapshot) -> dict[str, Any] | None:
    """The cancel vote under way, as the table object shows it (seats, not player ids)."""
    vote = snap.cancel_vote
    if snap.status != PLAYING or not isinstance(vote, dict):
        return None
    yes = set(vote.get("yes") or ())
    by = vote.get("by")
    name = next((s.player_name for s in snap.seats if s.player_id == by), snap.owner_name)
    voters = [s for s in snap.seats if is_cancel_voter(s)]
    return {
        "proposed_by": {"id": by, "name": name},
        "agreed": [s.seat for s in voters if s.player_id in yes],
        "waiting": [s.seat for s in voters if s.player_id not in yes],
    }


def new_id() -> str:
    return secrets.token_hex(8)


def as_utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def later(stored: datetime | None, moment: datetime) -> datetime:
    """``last_seen_at`` only moves forward: another instance's lease is never cut short."""
    return moment if stored is None or as_utc(stored) < moment else as_utc(stored)


def current_votes(stored: Any, absent_since: datetime | None) -> list[dict[str, Any]]:
    """The takeover votes cast during the seat's present absence: each vote records when it
    was cast, and one cast before the player was last seen (or acted) no longer counts, nor
    does a vote stored without its moment."""
    since = as_utc(absent_since).timestamp() if absent_since is not None else 0.0
    return [
        v
        for v in stored or ()
        if isinstance(v, dict) and isinstance(v.get("at"), int | float) and v["at"] >= since
    ]


def vote_ids(stored: Any, absent_since: datetime | None) -> tuple[str, ...]:
    return tuple(str(v["voter"]) for v in current_votes(stored, absent_since))
