"""The one rule that decides a cancel vote (issue 34.6), asked by every path that changes a
vote or who may vote: the proposal, a vote, a resignation, a seat handed to a bot.

Who has a say is :func:`app.tables.snapshot.is_cancel_voter`: a person playing their own
seat. A resigned seat, a bot's seat and a seat a bot plays for its absent player neither
vote nor count. A cancel erases a game's result (and so a rated last place), so it takes
the yes of somebody besides the proposer: the proposal stands only while its proposer
still has a say and at least one other person does, and passes when all of them agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from app.db.models import GameTable, Seat, utcnow
from app.tables.outcomes import cancelled_result
from app.tables.snapshot import FINISHED, SeatInfo, is_cancel_voter

Decision = Literal["cancelled", "waiting", "refused"]


def cancel_decision(seats: Iterable[Seat | SeatInfo], vote: Mapping[str, Any]) -> Decision:
    """What the vote comes to now: ``refused`` when its proposer no longer has a say or
    nobody else does (it can never pass), ``cancelled`` when everyone with a say agreed,
    else ``waiting``."""
    voters = {s.player_id for s in seats if is_cancel_voter(s)}
    proposer = vote.get("by")
    if proposer not in voters or not voters - {proposer}:
        return "refused"
    return "cancelled" if voters <= set(vote.get("yes") or ()) else "waiting"


def settle_cancel(row: GameTable) -> Decision | None:
    """Apply :func:`cancel_decision` to the table's vote under way (None: there is none):
    a cancelled game is finished, a refused proposal dropped. The row is held by the caller."""
    vote = row.cancel_vote
    if not isinstance(vote, dict):
        return None
    decision = cancel_decision(row.seats, vote)
    if decision == "cancelled":
        finish(row, cancelled_result())
    elif decision == "refused":
        row.cancel_vote = None
    return decision


def finish(row: GameTable, result: dict[str, Any]) -> None:
    """End the running game with a result the table made (no new version)."""
    row.status = FINISHED
    row.result = result
    row.cancel_vote = None
    row.finished_at = row.updated_at = utcnow()
