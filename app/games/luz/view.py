"""What one seat (or a spectator) may see of a Luz game (rules §6).

Luz inverts the usual rule: a seat sees every hand *except its own*. For its own unplayed
cards a seat gets slot ids, colours and the "+" side only; a spectator gets that for every
hand. The undealt cards and the RNG never appear. Visibility is decided part by part here.

Slot ids ascend with value inside each colour (they are the canonical sorted positions,
whatever the ``high_end`` side), so "slot 6 is my highest green" is readable from the ids.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import Seat
from app.games.luz.data import UNDEALT, VALUES_BY_PLAYERS, Card, Colour, Side
from app.games.luz.events import DealRow, Play, Trick
from app.games.luz.rules import (
    LuzOptions,
    LuzState,
    Phase,
    to_act,
    trick_number,
    trick_winner,
    trump_of,
)


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SlotView(_View):
    slot: int
    colour: Colour
    card: Card | None = Field(description="the card face, or null when this viewer may not see it")


class HandView(_View):
    seat: Seat
    sorted_by: Seat = Field(description="the right neighbour, who sorted this hand (§5.2)")
    high_end: Side = Field(description='end of the hand where the "+" marker sits (higher values)')
    count: int
    values_visible: bool = Field(description="false for the viewer's own hand and for spectators")
    slots: list[SlotView] = Field(description="unplayed cards in ascending slot order")


class PlayerView(_View):
    seat: Seat
    bet: int | None = Field(description="tricks bet, null until this seat has bet")
    safety: bool
    tricks_won: int
    score: int
    is_first_player: bool
    has_chosen_high_end: bool = Field(
        description="manual_sort_direction only: this seat chose the side of the hand it sorted"
    )
    hand: HandView


class TrickView(_View):
    number: int
    leader: Seat
    led_colour: Colour | None
    plays: list[Play]
    winner: Seat | None = Field(description="set once the trick is complete")
    winning_seat: Seat | None = Field(description="who is winning the trick so far")


class DealScoreView(_View):
    deal: int
    rows: list[DealRow]


class LuzView(_View):
    game: Literal["luz"] = "luz"
    viewer: Seat | None = Field(description="the seat this view is for; null = spectator")
    n_players: int
    phase: Phase
    deal: int
    deals_total: int
    trick_no: int = Field(description="number of the trick being played (1-10)")
    first_player: Seat
    to_act: list[Seat]
    trump: Colour | None
    max_value: int = Field(description="values run 1..max_value in each colour (§3)")
    undealt_count: int
    options: LuzOptions
    players: list[PlayerView]
    current_trick: TrickView
    completed_tricks: list[TrickView] = Field(
        description="tricks of this deal, oldest first (only the last with strict_memory)"
    )
    hidden_tricks: int = Field(description="completed tricks hidden by strict_memory")
    deal_scores: list[DealScoreView]
    scores: list[int]


# The view is assembled as plain data and validated once, at the top: one pass of the
# compiled validator builds every nested model, where calling each model's constructor
# (some 40 slots, 4 hands, 4 players and up to 11 tricks per view) costs a validator call
# apiece. The result is the same models with the same values; ``extra="forbid"`` still
# rejects a misspelt key.


def _hand(state: LuzState, seat: Seat, visible: bool) -> dict[str, Any]:
    """``seat``'s hand, with its cards' values when ``visible`` (to every other seat)."""
    slots = [
        {"slot": i, "colour": c[0], "card": c if visible else None}
        for i, c in enumerate(state.hands[seat])
        if c is not None
    ]
    return {
        "seat": seat,
        "sorted_by": (seat - 1) % state.n_players,
        "high_end": state.high_end[seat],
        "count": len(slots),
        "values_visible": visible,
        "slots": slots,
    }


def _trick(state: LuzState, trick: Trick) -> dict[str, Any]:
    return {
        "number": trick.number,
        "leader": trick.leader,
        "led_colour": trick.plays[0].card[0],
        "plays": [_play(p) for p in trick.plays],
        "winner": trick.winner,
        "winning_seat": trick.winner,
    }


def view(state: LuzState, seat: Seat | None) -> LuzView:
    """Return the redacted picture of ``state`` for ``seat`` (None = spectator), per §6."""
    return LuzView.model_validate(_view_data(state, seat, {}))


def view_json(state: LuzState, seat: Seat | None, parts: dict[Any, Any]) -> dict[str, Any]:
    """:func:`view` as JSON data, the same as its ``model_dump(mode="json")`` (the data is
    built in JSON form, and the engine's own needs no validating again). The views of one
    state share, through ``parts``, what is the same in each: the tricks, the deal scores,
    and each hand in its two forms (values shown, values hidden)."""
    return _view_data(state, seat, parts)


# The JSON forms of the records a view holds, field by field: a model's dump costs several
# times as much, and test_view_json holds these to it.


def _play(play: Play) -> dict[str, Any]:
    return {"seat": play.seat, "slot": play.slot, "card": play.card}


def _row(row: DealRow) -> dict[str, Any]:
    return {"seat": row.seat, "bet": row.bet, "safety": row.safety, "won": row.won,
            "points": row.points, "total": row.total}  # fmt: skip


@lru_cache(maxsize=64)
def _options(options: LuzOptions) -> dict[str, Any]:
    # Shared by every view of a table: nobody changes a view's data once built.
    return options.model_dump(mode="json")


def _view_data(state: LuzState, seat: Seat | None, parts: dict[Any, Any]) -> dict[str, Any]:
    n = state.n_players
    common = parts.get("common")
    if common is None:
        common = parts["common"] = _common(state)
    players = []
    for s in range(n):
        visible = seat is not None and seat != s
        hand = parts.get((s, visible))
        if hand is None:
            hand = parts[(s, visible)] = _hand(state, s, visible)
        players.append({**common["players"][s], "hand": hand})
    return {
        "game": "luz",
        "viewer": seat,
        **common["top"],
        "players": players,
        **common["tricks"],
    }


def _common(state: LuzState) -> dict[str, Any]:
    """What every seat's view of ``state`` holds alike, in the order of LuzView's fields."""
    n = state.n_players
    plays = state.trick
    current = {
        "number": trick_number(state),
        "leader": state.leader,
        "led_colour": plays[0].card[0] if plays else None,
        "plays": [_play(p) for p in plays],
        "winner": None,
        "winning_seat": trick_winner(plays, trump_of(state.options)) if plays else None,
    }
    completed = [_trick(state, t) for t in state.tricks]
    hidden = 0
    if state.options.strict_memory and len(completed) > 1:
        hidden = len(completed) - 1
        completed = completed[-1:]
    top = {
        "n_players": n,
        "phase": state.phase,
        "deal": state.deal,
        "deals_total": 4,
        "trick_no": min(trick_number(state), 10),
        "first_player": state.first_player,
        "to_act": sorted(to_act(state)),
        "trump": trump_of(state.options),
        "max_value": VALUES_BY_PLAYERS[n],
        "undealt_count": UNDEALT,
        "options": _options(state.options),
    }
    players = [
        {
            "seat": s,
            "bet": bet.tricks if (bet := state.bets[s]) is not None else None,
            "safety": bet.safety if bet is not None else False,
            "tricks_won": state.tricks_won[s],
            "score": state.scores[s],
            "is_first_player": s == state.first_player,
            "has_chosen_high_end": state.high_end_chosen[s],
        }
        for s in range(n)
    ]
    tricks = {
        "current_trick": current,
        "completed_tricks": completed,
        "hidden_tricks": hidden,
        "deal_scores": [
            {"deal": i + 1, "rows": [_row(r) for r in rows]} for i, rows in enumerate(state.history)
        ],
        "scores": list(state.scores),
    }
    return {"top": top, "players": players, "tricks": tricks}
