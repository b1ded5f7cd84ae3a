"""What one seat (or a spectator) may see of a MINE! game (rules/mine.md §8).

Public: scores, stocks, hand sizes, colour-card holdings, the supply (and box, created coal),
round, die, turn order, who passed, the die cards, every placement's owner, location and victim
(stack sizes), every revealed card until clean-up, the discard pile, the draw pile's size, every
number of the resolution. Private: a seat's own hand and its own face-down cards (that seat
only); the dummy's hand and unrevealed cards (nobody); draw-pile and die-pile order; the Rng.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from app.games.base import Seat
from app.games.mine.data import (
    COLOUR_IDS,
    COLOUR_NAMES,
    END_SCORE,
    HAND_LIMIT,
    LOCATION_STEP,
    MAX_PLACED,
    ROUNDS,
    Location,
)
from app.games.mine.rules import (
    MineState,
    Phase,
    RoundReport,
    clockwise_from_left,
    die_value,
    mine_max,
    sale_max,
    to_act,
    turn_order,
)


class PlacedCardView(BaseModel):
    """A placed card: owner's location and victim are public; ``card`` only when visible."""

    location: Location
    victim: int | None = None
    card: int | None = None
    revealed: bool = False


class StackView(BaseModel):
    """One raid stack: its victim (public, with the colour card) and its size."""

    victim: int
    colour: str
    size: int


class DirectorView(BaseModel):
    director: int
    seat: int | None
    is_dummy: bool
    colour: str
    #: The colour's neutral display name (§2.4), in English; clients translate ``colour``.
    colour_name: str
    score: int
    stock: int
    hand_size: int
    colour_cards: list[int]
    placed: list[PlacedCardView]
    placed_count: int
    stacks: list[StackView]
    passed: bool
    done: bool
    #: The dummy only: its chosen cards (§7.2) that it has not placed yet (faces hidden).
    pending_cards: int = 0
    hand: list[int] | None = None


class FinalView(BaseModel):
    reason: Literal["score_21", "round_6"]
    order: list[int]
    tiebreak: str


class MineView(BaseModel):
    """The redacted picture of a MINE! table for one seat (None = spectator)."""

    game: Literal["mine"] = "mine"
    you: int | None
    phase: Phase
    round: int
    rounds: int = ROUNDS
    end_score: int = END_SCORE
    die_value: int
    die_holder: int
    turn_order: list[int]
    turn: int | None
    to_act: list[int]
    n_seats: int
    dummy: int | None
    variant: bool
    directors: list[DirectorView]
    hand: list[int] | None
    must_discard: int
    supply: int
    box: int
    coal_created: int
    draw_pile_size: int
    discard_pile: list[int]
    die_card: str | None
    sale_limit: int
    mine_max: int | None
    used_die_cards: list[str]
    die_pile_size: int
    hand_limit: int = HAND_LIMIT
    max_placed: int = MAX_PLACED
    revealed_step: int
    last_round: RoundReport | None
    final: FinalView | None


def view(state: MineState, seat: Seat | None) -> MineView:
    """Return what ``seat`` may see (§8); ``None`` is a spectator."""
    n = state.n_directors
    directors: list[DirectorView] = []
    for i, d in enumerate(state.directors):
        mine = d.seat is not None and d.seat == seat
        placed: list[PlacedCardView] = []
        for p in d.placed:
            revealed = LOCATION_STEP[p.location] <= state.revealed_step
            placed.append(
                PlacedCardView(
                    location=p.location,
                    victim=p.victim,
                    card=p.card if (revealed or mine) else None,
                    revealed=revealed,
                )
            )
        victims = d.victims()
        stacks = [StackView(victim=v, colour=COLOUR_IDS[v], size=len(d.stack(v))) for v in victims]
        directors.append(
            DirectorView(
                director=i,
                seat=d.seat,
                is_dummy=d.is_dummy,
                colour=COLOUR_IDS[i],
                colour_name=COLOUR_NAMES["en"][i],
                score=d.score,
                stock=d.stock,
                hand_size=len(d.hand),
                colour_cards=[v for v in clockwise_from_left(n, i) if v not in victims],
                placed=placed,
                placed_count=len(d.placed),
                stacks=stacks,
                passed=d.passed,
                done=d.done,
                pending_cards=len(state.dummy_plan) if d.is_dummy else 0,
                hand=list(d.hand) if mine else None,
            )
        )
    own = state.directors[seat] if seat is not None and 0 <= seat < state.n_seats else None
    acting = to_act(state)
    must = 0
    if own is not None and state.phase == "discard" and seat in acting:
        must = len(own.hand) - HAND_LIMIT
    final = None
    if state.final is not None:
        final = FinalView(
            reason=state.final.reason,
            order=list(state.final.order),
            tiebreak=state.final.tiebreak,
        )
    return MineView(
        you=seat if own is not None else None,
        phase=state.phase,
        round=state.round,
        die_value=die_value(state),
        die_holder=state.die_holder,
        turn_order=turn_order(state),
        turn=state.turn if state.phase == "placement" else None,
        to_act=sorted(acting),
        n_seats=state.n_seats,
        dummy=state.dummy_index,
        variant=state.variant,
        directors=directors,
        hand=list(own.hand) if own is not None else None,
        must_discard=must,
        supply=state.supply,
        box=state.box,
        coal_created=state.coal_created,
        draw_pile_size=len(state.draw_pile),
        discard_pile=list(state.discard_pile),
        die_card=state.die_card,
        sale_limit=sale_max(state),
        mine_max=mine_max(state),
        used_die_cards=list(state.used_die_cards),
        die_pile_size=len(state.die_pile),
        revealed_step=state.revealed_step,
        last_round=RoundReport.model_validate(state.report.model_dump()) if state.report else None,
        final=final,
    )


def view_json(state: MineState, seat: Seat | None, parts: dict[Any, Any]) -> dict[str, Any]:
    """:func:`view` as JSON data, the same as its ``model_dump(mode="json")``, built in that
    form (tests/unit/games/test_view_json.py holds the two to each other). The views of one
    state share, through ``parts``, all but what a seat sees of its own: its hand and the
    faces of the cards it placed."""
    common = parts.get("common")
    if common is None:
        common = parts["common"] = _common(state)
    top, public, bottom = common
    you: int | None = None
    directors = public
    hand: list[int] | None = None
    must = 0
    if seat is not None and 0 <= seat < state.n_seats:
        own = parts.get(seat)
        if own is None:
            own = parts[seat] = _own_director(state, seat, public[seat])
        directors = [*public[:seat], own, *public[seat + 1 :]]
        you = seat
        held = state.directors[seat].hand
        hand = list(held)
        if state.phase == "discard" and seat in top["to_act"]:
            must = len(held) - HAND_LIMIT
    return {
        "game": "mine",
        "you": you,
        **top,
        "directors": directors,
        "hand": hand,
        "must_discard": must,
        **bottom,
    }


def _common(
    state: MineState,
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """What every view of ``state`` holds alike, in the order of MineView's fields: the
    fields before ``directors``, each director as others see it, the fields after
    ``must_discard``."""
    n = state.n_directors
    step = state.revealed_step
    pending = len(state.dummy_plan)
    public: list[dict[str, Any]] = []
    for i, d in enumerate(state.directors):
        placed = []
        for p in d.placed:
            revealed = LOCATION_STEP[p.location] <= step
            placed.append(
                {
                    "location": p.location,
                    "victim": p.victim,
                    "card": p.card if revealed else None,
                    "revealed": revealed,
                }
            )
        victims = d.victims()
        dummy = d.seat is None
        public.append(
            {
                "director": i,
                "seat": d.seat,
                "is_dummy": dummy,
                "colour": COLOUR_IDS[i],
                "colour_name": COLOUR_NAMES["en"][i],
                "score": d.score,
                "stock": d.stock,
                "hand_size": len(d.hand),
                "colour_cards": [v for v in clockwise_from_left(n, i) if v not in victims],
                "placed": placed,
                "placed_count": len(d.placed),
                "stacks": [
                    {"victim": v, "colour": COLOUR_IDS[v], "size": len(d.stack(v))} for v in victims
                ],
                "passed": d.passed,
                "done": d.done,
                "pending_cards": pending if dummy else 0,
                "hand": None,
            }
        )
    top = {
        "phase": state.phase,
        "round": state.round,
        "rounds": ROUNDS,
        "end_score": END_SCORE,
        "die_value": die_value(state),
        "die_holder": state.die_holder,
        "turn_order": turn_order(state),
        "turn": state.turn if state.phase == "placement" else None,
        "to_act": sorted(to_act(state)),
        "n_seats": state.n_seats,
        "dummy": state.dummy_index,
        "variant": state.variant,
    }
    report = state.report
    final = state.final
    bottom = {
        "supply": state.supply,
        "box": state.box,
        "coal_created": state.coal_created,
        "draw_pile_size": len(state.draw_pile),
        "discard_pile": list(state.discard_pile),
        "die_card": state.die_card,
        "sale_limit": sale_max(state),
        "mine_max": mine_max(state),
        "used_die_cards": list(state.used_die_cards),
        "die_pile_size": len(state.die_pile),
        "hand_limit": HAND_LIMIT,
        "max_placed": MAX_PLACED,
        "revealed_step": step,
        "last_round": None if report is None else _report(report),
        "final": None
        if final is None
        else {"reason": final.reason, "order": list(final.order), "tiebreak": final.tiebreak},
    }
    return top, public, bottom


def _own_director(state: MineState, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    """Director ``seat`` as its own seat sees it: the faces of its placed cards, its hand."""
    d = state.directors[seat]
    step = state.revealed_step
    placed = [
        {
            "location": p.location,
            "victim": p.victim,
            "card": p.card,
            "revealed": LOCATION_STEP[p.location] <= step,
        }
        for p in d.placed
    ]
    return {**public, "placed": placed, "hand": list(d.hand)}


def _report(report: RoundReport) -> dict[str, Any]:
    """``report.model_dump(mode="json")``, field by field."""
    return {
        "round": report.round,
        "firedamp": report.firedamp,
        "event_owners": dict(report.event_owners),
        "raids": [
            {
                "raider": r.raider,
                "victim": r.victim,
                "attack": r.attack,
                "defence": r.defence,
                "outcome": r.outcome,
                "claim": r.claim,
                "taken": r.taken,
            }
            for r in report.raids
        ],
        "sale_limits": list(report.sale_limits),
        "sold": list(report.sold),
        "extraction": list(report.extraction),
        "blasted": list(report.blasted),
        "taken": list(report.taken),
        "drawn": list(report.drawn),
        "discarded": list(report.discarded),
    }


__all__ = ["MineView", "view", "view_json"]
