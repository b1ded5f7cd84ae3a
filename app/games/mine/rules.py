"""MINE! rules engine: state, setup, placement, resolution, the dummy, the end (rules/mine.md).

Everything automatic (the dummy director of §7, auto-passes, the six resolution steps of §5,
the dummy's discards, clean-up, the next round) runs inside :func:`apply` until a seat must
decide again; :func:`to_act` therefore only ever names seats.
"""

from __future__ import annotations

import bisect
import functools
import itertools
from typing import Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from app.games.base import (
    Event,
    GameOver,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Opponent,
    Result,
    Rng,
    RulesError,
    Seat,
    Transition,
)
from app.games.mine import events as ev
from app.games.mine.actions import DiscardCard, MineAction, PassTurn, PlaceCard
from app.games.mine.data import (
    ATK,
    BASE_DRAW,
    DEF,
    DIE_CARD_IDS,
    DIE_CARDS,
    END_SCORE,
    EVENT_IDS,
    EXT,
    HAND_LIMIT,
    HIRING_DAY_DRAW,
    IS_EVENT,
    KIND,
    LOCATIONS,
    MAX_PLACED,
    MAX_SEATS,
    MIN_SEATS,
    N_COAL,
    PROFESSION_IDS,
    REC,
    ROUNDS,
    START_COAL,
    START_COAL_VARIANT,
    CardId,
    Location,
    card_name,
    starting_hand,
)
from app.games.trusted import assembled, maker, put, shared, trusted

Phase: TypeAlias = Literal["placement", "discard", "over"]


# --------------------------------------------------------------------------- models


class MineOptions(BaseModel):
    """Table options (§3): ``dummy`` auto/true/false, ``variant``, ``first_player``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dummy: Literal["auto"] | bool = "auto"
    variant: bool = False
    first_player: Literal["random"] | StrictInt = "random"


class Placement(BaseModel):
    """One card placed this round (in placement order)."""

    card: int
    location: Location
    victim: int | None = None


class Director(BaseModel):
    """A director's board, hand and pawn. ``seat`` is None for the dummy (§7)."""

    seat: int | None
    hand: list[int]
    stock: int
    score: int = 0
    placed: list[Placement] = Field(default_factory=list)
    passed: bool = False

    @property
    def is_dummy(self) -> bool:
        return self.seat is None

    @property
    def done(self) -> bool:
        """Passed, or placed its four cards (§5.2)."""
        return self.passed or len(self.placed) >= MAX_PLACED

    def at(self, location: Location) -> list[int]:
        """Cards placed at ``location``, in placement order."""
        return [p.card for p in self.placed if p.location == location]

    def victims(self) -> list[int]:
        """Victims of this director's raid stacks, in the order the stacks were opened."""
        out: list[int] = []
        for p in self.placed:
            if p.location == "shelter" and p.victim is not None and p.victim not in out:
                out.append(p.victim)
        return out

    def stack(self, victim: int) -> list[int]:
        """Cards of the stack against ``victim``, in placement order."""
        return [p.card for p in self.placed if p.location == "shelter" and p.victim == victim]


class RaidReport(BaseModel):
    raider: int
    victim: int
    attack: int
    defence: int
    outcome: Literal["failed", "cancelled", "succeeded"]
    claim: int
    taken: int


class RoundReport(BaseModel):
    """The public numbers of the last resolution (§8), kept for the view until the next one."""

    round: int
    firedamp: int = 0
    event_owners: dict[str, int] = Field(default_factory=dict)
    raids: list[RaidReport] = Field(default_factory=list)
    sale_limits: list[int] = Field(default_factory=list)
    sold: list[int] = Field(default_factory=list)
    extraction: list[int] = Field(default_factory=list)
    blasted: list[bool] = Field(default_factory=list)
    taken: list[int] = Field(default_factory=list)
    drawn: list[int] = Field(default_factory=list)
    discarded: list[int] = Field(default_factory=list)


class Roll(BaseModel):
    """One die roll of a roll-off (R7)."""

    director: int
    value: int


class FinalOutcome(BaseModel):
    """The settled order of every director (dummy included) and how ties were broken (§6)."""

    reason: Literal["score_21", "round_6"]
    order: list[int]
    rolls: list[list[Roll]] = Field(default_factory=list)
    tiebreak: str = ""


class MineState(BaseModel):
    """The complete game state (hidden parts included; see view.py for redaction)."""

    n_seats: int
    dummy: bool
    variant: bool
    rng: Rng
    directors: list[Director]
    round: int = 1
    die_holder: int = 0
    phase: Phase = "placement"
    turn: int | None = None
    supply: int = 0
    box: int = 0
    coal_created: int = 0
    draw_pile: list[int] = Field(default_factory=list)
    discard_pile: list[int] = Field(default_factory=list)
    die_pile: list[str] = Field(default_factory=list)
    die_card: str | None = None
    used_die_cards: list[str] = Field(default_factory=list)
    dummy_plan: list[Placement] = Field(default_factory=list)
    revealed_step: int = 0
    report: RoundReport | None = None
    final: FinalOutcome | None = None

    @property
    def n_directors(self) -> int:
        return len(self.directors)

    @property
    def dummy_index(self) -> int | None:
        return self.n_seats if self.dummy else None


# --------------------------------------------------------------------------- the private copy

# A fork builds its models without validating what the engine made itself (app/games/trusted.py).
_placement = maker(Placement)


_STATE_FIELDS = frozenset(MineState.model_fields)
_DIRECTOR_FIELDS = frozenset(Director.model_fields)
_PLACEMENT_FIELDS = frozenset(Placement.model_fields)
_REPORT_FIELDS = frozenset(RoundReport.model_fields)
_RNG_FIELDS = frozenset(Rng.model_fields)


def _chance(state: MineState) -> Rng:
    """The state's Rng, for drawing: a copy, since a fork shares it with the state that
    apply was given."""
    rng = state.rng
    own = assembled(Rng, rng.__dict__.copy(), rng.__pydantic_fields_set__)
    put(state, "rng", own)
    return own


def _whole_placements(placements: list[Placement]) -> list[Placement]:
    """A copy of the list; placements never change once made, so they are shared, but the
    dummy's plan makes them without a victim, which a dump and validation would mark as set."""
    out = placements.copy()
    for i, p in enumerate(out):
        if p.__pydantic_fields_set__ != _PLACEMENT_FIELDS:
            out[i] = assembled(Placement, p.__dict__.copy(), _PLACEMENT_FIELDS)
    return out


def fork(state: MineState) -> MineState:
    """The private copy :func:`apply` changes: what ``MineState.model_validate(
    state.model_dump())`` makes (every field of every model marked as set), copying only
    what the rules change in place (the piles, the hands, the boards) and sharing the rest:
    placements, the final outcome (nothing changes them once made), the round's report (a
    discard counts in a copy, :func:`_discard`) and the Rng (chance is drawn from a copy,
    :func:`_chance`). tests/unit/games/test_mine_speed.py holds it to the dump and
    validation it replaces."""
    fields = state.__dict__.copy()
    rng = fields["rng"]
    if rng.__pydantic_fields_set__ != _RNG_FIELDS:
        fields["rng"] = assembled(Rng, rng.__dict__.copy(), _RNG_FIELDS)
    directors = []
    whole = _PLACEMENT_FIELDS
    for director in state.directors:
        d = director.__dict__.copy()
        d["hand"] = d["hand"].copy()
        placed = d["placed"]
        for p in placed:
            if p.__pydantic_fields_set__ != whole:
                d["placed"] = _whole_placements(placed)
                break
        else:
            d["placed"] = placed.copy()
        directors.append(assembled(Director, d, _DIRECTOR_FIELDS))
    fields["directors"] = directors
    fields["draw_pile"] = fields["draw_pile"].copy()
    fields["discard_pile"] = fields["discard_pile"].copy()
    fields["die_pile"] = fields["die_pile"].copy()
    fields["used_die_cards"] = fields["used_die_cards"].copy()
    fields["dummy_plan"] = _whole_placements(fields["dummy_plan"])
    report = fields["report"]
    if report is not None and report.__pydantic_fields_set__ != _REPORT_FIELDS:
        fields["report"] = assembled(RoundReport, report.__dict__.copy(), _REPORT_FIELDS)
    return assembled(MineState, fields, _STATE_FIELDS)


# Events made without validation (app/games/trusted.py), the frequent ones shared (each
# takes its field values in the order named).
_cards_revealed = maker(ev.CardsRevealed)
_firedamp_counted = shared(ev.FiredampCounted, "firedamp")
_coal_sold = shared(
    ev.CoalSold,
    "director",
    "limit",
    "sold",
    "stock",
    "score",
    "base_limit",
    "big_order",
    "cage_breakdown",
)
_coal_extracted = shared(
    ev.CoalExtracted,
    "director",
    "base",
    "blasted",
    "extraction",
    "taken",
    "created",
    "from_box",
    "supply",
    "pit_builders",
    "firedamp",
    "safety_lamp",
    "protected",
    "rich_seam",
    "strike",
    "mine_max",
)
_cards_drawn = shared(ev.CardsDrawn, "director", "wanted", "count")
_cards_received = shared(ev.CardsReceived, "director", "cards", "visible_to")
_passed = shared(ev.PlacementPassed, "director", "reason")
_card_placed = shared(
    ev.CardPlaced, "director", "location", "victim", "stack_opened", "placed_count", "dummy"
)
_card_discarded = shared(ev.CardDiscarded, "director", "card", "automatic")
_revealed = shared(ev.RevealedCard, "director", "card")
_revealed_raid = shared(ev.RevealedCard, "director", "card", "victim")


# --------------------------------------------------------------------------- helpers


def director_label(state: MineState, d: int) -> str:
    """English label of a director used in error messages and tie-break text."""
    return "the dummy" if state.directors[d].is_dummy else f"seat {d}"


def turn_order(state: MineState) -> list[int]:
    """Directors from the die holder, clockwise (§5.2, §5.3)."""
    n = state.n_directors
    return [(state.die_holder + i) % n for i in range(n)]


def clockwise_from_left(n: int, d: int) -> list[int]:
    """The other directors in clockwise order from ``d``'s left."""
    return [(d + i) % n for i in range(1, n)]


def die_value(state: MineState) -> int:
    """The die shows the round number (§2.7)."""
    return state.round


def sale_max(state: MineState) -> int:
    """Base sale limit of the round: die value, or the die card's sale maximum (variant)."""
    if state.variant and state.die_card is not None:
        return DIE_CARDS[state.die_card].sale_max
    return die_value(state)


def mine_max(state: MineState) -> int | None:
    """Variant only: the die card's mine maximum of the round (None in the base game)."""
    if state.variant and state.die_card is not None:
        return DIE_CARDS[state.die_card].mine_max
    return None


def _ext_key(card: CardId) -> tuple[int, int, int]:
    return (EXT[card], ATK[card] + DEF[card] + EXT[card] + REC[card], -card)


def profession_count(hand: list[int]) -> int:
    """Profession cards in a hand (event cards do not count, §6 key 3)."""
    return sum(1 for c in hand if not IS_EVENT[c])


def options_resolved(options: MineOptions, n_players: int) -> bool:
    """Whether the dummy plays, given the option and the seat count (§3)."""
    if options.dummy == "auto":
        return n_players == 2
    return bool(options.dummy)


# --------------------------------------------------------------------------- setup


def validate_options(options: MineOptions, n_players: int) -> None:
    """Raise InvalidOptions with a human reason (§3).

    >>> validate_options(MineOptions(dummy=True), 6)
    Traceback (most recent call last):
    ...
    app.games.base.InvalidOptions: the dummy director needs a free colour: it is allowed with 2-5 seats, not 6 (§3)
    """
    if not MIN_SEATS <= n_players <= MAX_SEATS:
        raise InvalidOptions(
            f"MINE! is played by 2 to 6 seats, not {n_players} (§3)",
            reason="mine.players",
            min=MIN_SEATS,
            max=MAX_SEATS,
            seats=n_players,
        )
    if options.dummy is True and n_players >= MAX_SEATS:
        raise InvalidOptions(
            f"the dummy director needs a free colour: it is allowed with 2-5 seats, "
            f"not {n_players} (§3)",
            reason="mine.dummy_seats",
            option="dummy",
            max=MAX_SEATS - 1,
            seats=n_players,
        )
    fp = options.first_player
    if fp != "random" and not (isinstance(fp, int) and 0 <= fp < n_players):
        raise InvalidOptions(
            f"first_player must be 'random' or a seat number 0-{n_players - 1}, not {fp!r} (§3)",
            reason="mine.first_player",
            option="first_player",
            seats=n_players,
        )


def setup(n_players: int, seed: int, options: MineOptions) -> MineState:
    """Return the initial state (§4): always ``start(...).state``."""
    state: MineState = start(n_players, seed, options).state
    return state


def start(n_players: int, seed: int, options: MineOptions) -> Transition:
    """Set the game up (§4), chance drawn in the order R1, R2, R3 (§9), and begin round 1.

    Round 1 begins through :func:`_start_round` and :func:`_advance`, the very code that begins
    every later round after clean-up, so its events (the round, its die holder, the variant's
    die card) are the same types with the same visibility: a log that follows the events names
    the first die holder and the round-1 die card like any other. The dummy's cards and plan
    are drawn there too, in secret (§7.2, §8): no event shows them, in any round.
    """
    validate_options(options, n_players)
    dummy = options_resolved(options, n_players)
    n_dir = n_players + (1 if dummy else 0)
    coal = START_COAL_VARIANT if options.variant else START_COAL
    rng = Rng.from_seed(seed)
    # R1: first die holder among the seats (the dummy never starts).
    fp = options.first_player
    first = rng.below(n_players) if fp == "random" else int(fp)
    directors = [
        Director(seat=k if k < n_players else None, hand=starting_hand(k), stock=coal)
        for k in range(n_dir)
    ]
    dealt = {c for d in directors for c in d.hand}
    # R2: the draw pile, ascending ids before the shuffle.
    pile = [c for c in sorted((*PROFESSION_IDS, *EVENT_IDS)) if c not in dealt]
    rng.shuffle(pile)
    die_pile: list[str] = []
    if options.variant:
        die_pile = list(DIE_CARD_IDS)
        rng.shuffle(die_pile)  # R3
    rest = N_COAL - coal * n_dir
    state = MineState(
        n_seats=n_players,
        dummy=dummy,
        variant=options.variant,
        rng=rng,
        directors=directors,
        round=1,
        die_holder=first,
        supply=0 if options.variant else rest,
        box=rest if options.variant else 0,
        draw_pile=pile,
        die_pile=die_pile,
    )
    events: list[Event] = []
    _start_round(state, events)
    _advance(state, events)
    return Transition(state, events)


# --------------------------------------------------------------------------- turn structure


def to_act(state: MineState) -> frozenset[Seat]:
    """The seat that must decide now (§10); empty when the game is over."""
    if state.phase == "placement" and state.turn is not None:
        seat = state.directors[state.turn].seat
        return frozenset() if seat is None else frozenset({seat})
    if state.phase == "discard":
        d = _first_over_limit(state)
        if d is not None:
            seat = state.directors[d].seat
            if seat is not None:
                return frozenset({seat})
    return frozenset()


def _first_over_limit(state: MineState) -> int | None:
    for d in turn_order(state):
        if len(state.directors[d].hand) > HAND_LIMIT:
            return d
    return None


def legal_actions(state: MineState, seat: Seat) -> list[MineAction]:
    """Every legal action of ``seat`` in the order of §10; empty if it is not to act.

    Exactly the actions :func:`action_problem` accepts, listed straight from the rules it
    checks rather than by asking it about every card, location and victim (a placement
    lists up to 40 actions; tests/unit/games/test_validation_shape.py holds the two to each
    other): a discard of any card in hand; an event card on Events; a profession card at
    the Looters' Shelter against any other director, or on the Watchtower, the Mine or
    Recruitment; a pass.
    """
    if seat not in to_act(state):
        return []
    d = state.directors[seat]
    if state.phase == "discard":
        return [_discard_action(c) for c in sorted(d.hand)]
    n = len(state.directors)
    out: list[MineAction] = []
    for c in sorted(d.hand):
        out.extend(_card_actions(c, seat, n))
    out.append(_PASS)
    return out


_PASS = PassTurn()


@functools.cache
def _card_actions(card: int, seat: int, n_directors: int) -> tuple[PlaceCard, ...]:
    """Every placement of ``card`` by director ``seat`` among ``n_directors``, in the order
    of §10: an event card on Events; a profession card at the Looters' Shelter against each
    other director (clockwise from the left), then the Watchtower, the Mine, Recruitment."""
    if IS_EVENT[card]:
        return (_place_action(card, "events", None),)
    return (
        *(_place_action(card, "shelter", v) for v in clockwise_from_left(n_directors, seat)),
        _place_action(card, "watchtower", None),
        _place_action(card, "mine", None),
        _place_action(card, "recruitment", None),
    )


@functools.cache
def _discard_action(card: int) -> DiscardCard:
    return DiscardCard(card=card)


@functools.cache
def _place_action(card: int, location: Location, victim: int | None) -> PlaceCard:
    """Shared immutable action objects (frozen models), so legal_actions stays cheap."""
    return PlaceCard(card=card, location=location, victim=victim)


def action_problem(state: MineState, seat: Seat, action: MineAction) -> RulesError | None:
    """Why ``seat`` may not take ``action`` now, as the error :func:`apply` raises; None if
    it may. The one legality check of MINE!: :func:`legal_actions` lists what it accepts."""
    if state.phase == "over":
        return GameOver("the game is over; no action is accepted (§6)")
    actors = to_act(state)
    if seat not in actors:
        return NotYourTurn(f"seat {seat} is not to act now; waiting for {sorted(actors)}")
    if state.phase == "placement" and isinstance(action, DiscardCard):
        return IllegalAction(
            f"cannot discard card {action.card}: discards happen only at the hand-limit check "
            "after recruitment (§5.9.4)",
            "mine.discard_not_now",
        )
    if state.phase == "discard" and not isinstance(action, DiscardCard):
        return IllegalAction(
            f"cannot {action.type} now: you hold more than {HAND_LIMIT} cards and must discard "
            "one card (§5.9.4)",
            "mine.must_discard",
            limit=HAND_LIMIT,
        )
    if isinstance(action, PlaceCard):
        return _place_problem(state, seat, action)
    if isinstance(action, DiscardCard):
        if action.card not in state.directors[seat].hand:
            return IllegalAction(
                f"cannot discard card {action.card}: it is not in your hand (§5.9.4)",
                "mine.not_in_hand",
            )
        return None
    if isinstance(action, PassTurn):
        return None
    return IllegalAction(f"unknown action {action!r}", "mine.not_an_action")


def apply(state: MineState, seat: Seat, action: MineAction) -> Transition:
    """Apply one seat's action and every automatic step after it.

    Raises what :func:`action_problem` finds (GameOver, NotYourTurn or IllegalAction, naming
    the rule); never mutates ``state``.
    """
    problem = action_problem(state, seat, action)
    if problem is not None:
        raise problem
    s = fork(state)
    events: list[Event] = []
    if isinstance(action, PlaceCard):
        _place(
            s,
            seat,
            _placement(card=action.card, location=action.location, victim=action.victim),
            events,
        )
    elif isinstance(action, PassTurn):
        s.directors[seat].passed = True
        events.append(_passed(seat, "chose"))
        put(s, "turn", (seat + 1) % s.n_directors)
    else:
        _discard(s, seat, action.card, events, automatic=False)
    _advance(s, events)
    return Transition(s, events)


@functools.lru_cache(maxsize=256)
def _what(card: int) -> str:
    """A card as an error message names it: by name when it is one of the game's (kept per
    card: every placement is checked, and naming the card costs more than the check)."""
    if card in PROFESSION_IDS or card in EVENT_IDS:
        return card_name(card)
    return f"card {card}"


def _place_problem(state: MineState, seat: int, a: PlaceCard) -> IllegalAction | None:
    """Why card ``a.card`` cannot go where ``a`` puts it (§2.3, §5.2), or None."""
    d = state.directors[seat]
    what = _what(a.card)
    where = a.location
    if a.card not in d.hand:
        return IllegalAction(
            f"cannot place {what}: it is not in your hand (§5.2)", "mine.not_in_hand"
        )
    if d.done:  # pragma: no cover - done directors are never to act
        return IllegalAction(
            f"cannot place {what}: you have placed {MAX_PLACED} cards (§5.2)",
            "mine.placed_enough",
            max=MAX_PLACED,
        )
    if where == "expedition":
        return IllegalAction(
            f"cannot place {what} on Expedition: nothing is ever placed there, it holds your "
            "coal stock (§2.3, §5.2)",
            "mine.expedition",
        )
    if IS_EVENT[a.card] and where != "events":
        return IllegalAction(
            f"cannot place {what} on {where}: event cards go on Events only (§2.3, §5.2)",
            "mine.event_elsewhere",
        )
    if not IS_EVENT[a.card] and where == "events":
        return IllegalAction(
            f"cannot place {what} on Events: only event cards go there (§2.3, §5.2)",
            "mine.not_an_event",
        )
    if where == "shelter":
        if a.victim is None:
            return IllegalAction(
                f"cannot place {what} at the Looters' Shelter without a victim: name the "
                "director raided (§5.2)",
                "mine.no_victim",
            )
        if a.victim == seat:
            return IllegalAction(
                f"cannot raid yourself with {what}: a victim is another director (§5.2)",
                "mine.raid_yourself",
            )
        if not 0 <= a.victim < state.n_directors:
            return IllegalAction(
                f"cannot raid director {a.victim} with {what}: there are directors "
                f"0-{state.n_directors - 1} (§5.2)",
                "mine.no_such_victim",
            )
    elif a.victim is not None:
        return IllegalAction(
            f"cannot name victim {a.victim} for {what} on {where}: only a card at the "
            "Looters' Shelter names a victim (§5.2)",
            "mine.victim_elsewhere",
        )
    return None


def _place(state: MineState, d: int, p: Placement, events: list[Event]) -> None:
    director = state.directors[d]
    if not director.is_dummy:  # the dummy's cards already left its hand (§7.2)
        director.hand.remove(p.card)
    opened = p.location == "shelter" and p.victim not in director.victims()
    director.placed.append(p)
    events.append(
        _card_placed(d, p.location, p.victim, opened, len(director.placed), director.is_dummy)
    )
    # No private echo (OwnCardPlaced) of the card: the seat's own view already shows it face
    # up, and a placement whose only event is this public one can be taken back (undoable).
    put(state, "turn", (d + 1) % state.n_directors)


def _discard(state: MineState, d: int, card: int, events: list[Event], *, automatic: bool) -> None:
    state.directors[d].hand.remove(card)
    state.discard_pile.append(card)
    report = state.report
    if report is not None:
        # A fork shares the report with the state apply was given: the count changes in a copy.
        discarded = report.discarded.copy()
        discarded[d] += 1
        changed = {**report.__dict__, "discarded": discarded}
        put(state, "report", assembled(RoundReport, changed, report.__pydantic_fields_set__))
    events.append(_card_discarded(d, card, automatic))


def _advance(state: MineState, events: list[Event]) -> None:
    """Run every automatic step until a seat must decide or the game is over."""
    while True:
        if state.phase == "placement" and state.turn is not None:
            if all(d.done for d in state.directors):
                _resolve(state, events)
                continue
            d = state.turn
            director = state.directors[d]
            if director.done:
                put(state, "turn", (d + 1) % state.n_directors)
                continue
            if director.is_dummy:
                if state.dummy_plan:
                    _place(state, d, state.dummy_plan.pop(0), events)
                else:
                    put(director, "passed", True)
                    events.append(_passed(d, "dummy_plan_done"))
                    put(state, "turn", (d + 1) % state.n_directors)
                continue
            if not director.hand:
                put(director, "passed", True)
                events.append(_passed(d, "empty_hand"))
                put(state, "turn", (d + 1) % state.n_directors)
                continue
            return
        if state.phase == "discard":
            over = _first_over_limit(state)
            if over is None:
                _clean_up(state, events)
                continue
            director = state.directors[over]
            if director.is_dummy:
                # §7.5: lowest EXT, then lowest total, then highest id.
                card = min(director.hand, key=_ext_key)
                _discard(state, over, card, events, automatic=True)
                continue
            return
        return


# --------------------------------------------------------------------------- rounds


def _start_round(state: MineState, events: list[Event]) -> None:
    """§5.1 and the start of §5.2: variant die card, the dummy's cards and plan (R4, R5)."""
    for d in state.directors:
        put(d, "placed", [])
        put(d, "passed", False)
    put(state, "revealed_step", 0)
    put(state, "phase", "placement")
    put(state, "turn", state.die_holder)
    if state.variant and state.die_pile:
        put(state, "die_card", state.die_pile.pop(0))
    card = DIE_CARDS[state.die_card] if state.variant and state.die_card else None
    events.append(
        trusted(
            ev.RoundStarted,
            round=state.round,
            die_holder=state.die_holder,
            die_card=state.die_card if state.variant else None,
            mine_max=card.mine_max if card else None,
            sale_max=card.sale_max if card else None,
        )
    )
    dn = state.dummy_index
    put(state, "dummy_plan", [] if dn is None else _dummy_plan(state, dn))


def _best(cards: list[int], values: tuple[int, ...]) -> int:
    """`best(X)` of §7.3: highest X; ties → lower EXT; then → lower id."""
    return min(cards, key=lambda c: (-values[c], EXT[c], c))


def _dummy_plan(state: MineState, dn: int) -> list[Placement]:
    """The four cards of the dummy (director ``dn``) and their plan (§7.2-7.4), drawing R4
    then R5."""
    dummy = state.directors[dn]
    hand = sorted(dummy.hand)
    if len(hand) > MAX_PLACED:
        _chance(state).shuffle(hand)  # R4
        chosen, rest = hand[:MAX_PLACED], hand[MAX_PLACED:]
    else:
        chosen, rest = hand, []
    put(dummy, "hand", sorted(rest))
    c = list(chosen)
    order = clockwise_from_left(state.n_directors, dn)
    o = [v for v in order if state.directors[v].stock >= 1]
    plan: list[Placement] = []

    def take(values: tuple[int, ...]) -> int:
        card = _best(c, values)
        c.remove(card)
        return card

    if state.round < ROUNDS:
        if dummy.stock >= 1 and c:
            plan.append(_placement(card=take(DEF), location="watchtower"))
        if o and c:
            victim = o[0] if len(o) == 1 else o[_chance(state).below(len(o))]  # R5
            plan.append(_placement(card=take(ATK), location="shelter", victim=victim))
        if c:
            plan.append(_placement(card=take(REC), location="recruitment"))
        plan.extend(_placement(card=card, location="mine") for card in sorted(c))
        c.clear()
    else:
        if dummy.stock >= 1:
            for _ in range(2):
                if c:
                    plan.append(_placement(card=take(DEF), location="watchtower"))
        if o:
            ranked = sorted(o, key=lambda v: (-state.directors[v].stock, order.index(v)))
            i = 0
            while c:
                plan.append(
                    _placement(card=take(ATK), location="shelter", victim=ranked[i % len(ranked)])
                )
                i += 1
        else:
            plan.extend(_placement(card=card, location="mine") for card in sorted(c))
            c.clear()
    return plan


def _stacks(director: Director) -> dict[int, list[int]]:
    """``director.stack(v)`` of every victim ``v`` it raids, read in one pass."""
    out: dict[int, list[int]] = {}
    for p in director.placed:
        if p.location == "shelter" and p.victim is not None:
            out.setdefault(p.victim, []).append(p.card)
    return out


def _boards(state: MineState) -> list[dict[str, list[int]]]:
    """Each director's cards by location in placement order (``Director.at`` of every
    location), read in one pass: the placements stay as they are through the resolution."""
    out = []
    for d in state.directors:
        board: dict[str, list[int]] = {loc: [] for loc in LOCATIONS}
        for p in d.placed:
            board[p.location].append(p.card)
        out.append(board)
    return out


def _owners(boards: list[dict[str, list[int]]]) -> dict[str, int]:
    """Owner of each revealed non-firedamp event kind (§5.4)."""
    out: dict[str, int] = {}
    for i, board in enumerate(boards):
        for card in board["events"]:
            if KIND[card] != "firedamp":
                out[KIND[card]] = i
    return out


def _reveal(
    state: MineState,
    location: Location,
    boards: list[dict[str, list[int]]],
    events: list[Event],
) -> None:
    cards: list[ev.RevealedCard] = []
    n = len(state.directors)
    for d in turn_order(state):
        director = state.directors[d]
        if location == "shelter":
            stacks = _stacks(director)
            if stacks:
                for v in clockwise_from_left(n, d):
                    cards.extend(_revealed_raid(d, c, v) for c in stacks.get(v, ()))
        else:
            cards.extend(_revealed(d, c) for c in boards[d][location])
    events.append(_cards_revealed(location=location, cards=tuple(cards)))


def _resolve(state: MineState, events: list[Event]) -> None:
    """The resolution steps 1-6 of §5.3-5.9 (draws included; discards follow)."""
    n = state.n_directors
    order = turn_order(state)
    report = trusted(
        RoundReport,
        round=state.round,
        sale_limits=[0] * n,
        sold=[0] * n,
        extraction=[0] * n,
        blasted=[False] * n,
        taken=[0] * n,
        drawn=[0] * n,
        discarded=[0] * n,
    )
    put(state, "report", report)
    put(state, "turn", None)
    # Step 1 - Events (§5.4).
    put(state, "revealed_step", 1)
    boards = _boards(state)
    _reveal(state, "events", boards, events)
    firedamp = sum(1 for board in boards for c in board["events"] if KIND[c] == "firedamp")
    owners = _owners(boards)
    put(report, "firedamp", firedamp)
    put(report, "event_owners", owners)
    events.append(_firedamp_counted(firedamp))
    # Steps 2 and 3 - raids against the watchtowers (§5.5).
    put(state, "revealed_step", 3)
    _reveal(state, "shelter", boards, events)
    _reveal(state, "watchtower", boards, events)
    _settle_raids(state, report, owners, boards, events)
    # Step 4 - Expedition (§5.6).
    put(state, "revealed_step", 4)
    base_limit = sale_max(state)
    for d in order:
        director = state.directors[d]
        limit = base_limit
        big_order = owners.get("big_order") == d
        cage_breakdown = owners.get("cage_breakdown") not in (None, d)
        if big_order:
            limit += 2
        if cage_breakdown:
            limit -= 1
        limit = max(0, limit)
        sold = min(director.stock, limit)
        put(director, "stock", director.stock - sold)
        put(director, "score", director.score + sold)
        put(state, "supply", state.supply + sold)
        report.sale_limits[d] = limit
        report.sold[d] = sold
        events.append(
            _coal_sold(
                d,
                limit,
                sold,
                director.stock,
                director.score,
                base_limit,
                big_order,
                cage_breakdown,
            )
        )
    # End check (§5.7).
    if any(d.score >= END_SCORE for d in state.directors):
        _finish(state, "score_21", events)
        return
    # Step 5 - Mine (§5.8).
    put(state, "revealed_step", 5)
    _reveal(state, "mine", boards, events)
    cap = mine_max(state)
    for d in order:
        director = state.directors[d]
        mine = boards[d]["mine"]
        base = sum(EXT[c] for c in mine)
        pit_builders = sum(1 for c in mine if KIND[c] == "pit_builder")
        # §5.8 step 2 (revised Safety Lamp, §2.6): each pit builder at the Mine protects
        # against one firedamp card, two with the owner's Safety Lamp; blasted when F ≥ 1 and
        # they protect against fewer than F.
        lamp = owners.get("safety_lamp") == d
        protected = pit_builders * (2 if lamp else 1)
        blasted = firedamp >= 1 and protected < firedamp
        extraction = 0
        if not blasted:
            extraction = base
            if owners.get("rich_seam") == d and mine:
                extraction += 2
            if owners.get("strike") not in (None, d):
                extraction //= 2
            if cap is not None:
                extraction = min(extraction, cap)
        taken = min(extraction, state.supply)
        put(state, "supply", state.supply - taken)
        from_box = created = 0
        if director.is_dummy and taken < extraction:
            # §5.8 dummy exception: full extraction, from the box (variant), then created.
            short = extraction - taken
            from_box = min(short, state.box)
            put(state, "box", state.box - from_box)
            created = short - from_box
            put(state, "coal_created", state.coal_created + created)
            taken = extraction
        put(director, "stock", director.stock + taken)
        report.extraction[d] = extraction
        report.blasted[d] = blasted
        report.taken[d] = taken
        events.append(
            _coal_extracted(
                d,
                base,
                blasted,
                extraction,
                taken,
                created,
                from_box,
                state.supply,
                pit_builders,
                firedamp,
                lamp,
                protected,
                owners.get("rich_seam") == d and bool(mine) and not blasted,
                owners.get("strike") not in (None, d) and not blasted,
                cap if not blasted else None,
            )
        )
    # Step 6 - Recruitment (§5.9 1-3).
    put(state, "revealed_step", 6)
    _reveal(state, "recruitment", boards, events)
    for d in order:
        director = state.directors[d]
        # §5.9.1 (revised Decision): the base 2 is for every director, with or without a
        # card at Recruitment; the cards there add their REC, Hiring Day 2 more.
        wanted = BASE_DRAW + sum(REC[c] for c in boards[d]["recruitment"])
        if owners.get("hiring_day") == d:
            wanted += HIRING_DAY_DRAW
        got = _draw(state, d, wanted, events)
        report.drawn[d] = len(got)
        events.append(_cards_drawn(d, wanted, len(got)))
        if director.seat is not None and got:
            events.append(_cards_received(d, tuple(got), frozenset({director.seat})))
    put(state, "phase", "discard")


def _settle_raids(
    state: MineState,
    report: RoundReport,
    owners: dict[str, int],
    boards: list[dict[str, list[int]]],
    events: list[Event],
) -> None:
    """§5.5: snapshot L, full DEF against each stack, strongest first, ⌊R/k⌋ for ties."""
    n = state.n_directors
    snapshot = [d.stock for d in state.directors]
    gains = [0] * n
    rest = list(snapshot)
    raids = [_stacks(d) for d in state.directors]
    for v in turn_order(state):
        stacks: list[tuple[int, int]] = []
        for r in clockwise_from_left(n, v):
            cards = raids[r].get(v)
            if cards:
                stacks.append((r, sum(ATK[c] for c in cards)))
        if not stacks:
            continue
        guards = tuple(boards[v]["watchtower"])
        defence = sum(DEF[c] for c in guards)
        reports: dict[int, RaidReport] = {}
        available: dict[int, int] = {}
        tied: dict[int, tuple[int, ...]] = {}
        if owners.get("gendarmes") == v:
            for r, atk in stacks:
                reports[r] = trusted(
                    RaidReport,
                    raider=r,
                    victim=v,
                    attack=atk,
                    defence=defence,
                    outcome="cancelled",
                    claim=0,
                    taken=0,
                )
        else:
            remaining = snapshot[v]
            winners: dict[int, list[int]] = {}
            for r, atk in stacks:
                if atk > defence:
                    winners.setdefault(atk, []).append(r)
                else:
                    reports[r] = trusted(
                        RaidReport,
                        raider=r,
                        victim=v,
                        attack=atk,
                        defence=defence,
                        outcome="failed",
                        claim=0,
                        taken=0,
                    )
            for atk in sorted(winners, reverse=True):
                group = winners[atk]
                claim = atk - defence
                k = len(group)
                each = claim if k * claim <= remaining else remaining // k
                for r in group:
                    available[r] = remaining
                    tied[r] = tuple(x for x in group if x != r)
                remaining -= k * each
                for r in group:
                    gains[r] += each
                    reports[r] = trusted(
                        RaidReport,
                        raider=r,
                        victim=v,
                        attack=atk,
                        defence=defence,
                        outcome="succeeded",
                        claim=claim,
                        taken=each,
                    )
            rest[v] = remaining
        for r, _ in stacks:
            rep = reports[r]
            report.raids.append(rep)
            events.append(
                trusted(
                    ev.RaidSettled,
                    **rep.model_dump(),
                    cards=tuple(raids[r][v]),
                    guards=guards,
                    stock=snapshot[v],
                    available=available.get(r),
                    tied_with=tied.get(r, ()),
                )
            )
    for i, d in enumerate(state.directors):
        put(d, "stock", rest[i] + gains[i])
    after = tuple(d.stock for d in state.directors)
    if after != tuple(snapshot):
        events.append(trusted(ev.StocksLooted, before=tuple(snapshot), after=after))


def _draw(state: MineState, d: int, wanted: int, events: list[Event]) -> list[int]:
    """Draw ``wanted`` cards one at a time, reshuffling the discard pile when needed (§5.9)."""
    director = state.directors[d]
    got: list[int] = []
    while len(got) < wanted:
        if director.is_dummy and not any(
            not IS_EVENT[c] for c in (*state.draw_pile, *state.discard_pile)
        ):
            break
        if not state.draw_pile:
            if not state.discard_pile:
                break
            pile = state.discard_pile
            put(state, "discard_pile", [])
            _chance(state).shuffle(pile)  # R6
            put(state, "draw_pile", pile)
            events.append(trusted(ev.DrawPileReshuffled, cards=len(pile)))
        card = state.draw_pile.pop(0)
        if director.is_dummy and IS_EVENT[card]:
            state.discard_pile.append(card)
            events.append(trusted(ev.DummyEventReplaced, director=d, card=card))
            continue
        bisect.insort(director.hand, card)
        got.append(card)
    return got


def _clean_up(state: MineState, events: list[Event]) -> None:
    """§5.10: placed cards to the discard pile in the fixed order, die card aside, die passes."""
    discarded: list[int] = []
    n = state.n_directors
    for d in turn_order(state):
        director = state.directors[d]
        discarded.extend(director.at("events"))
        stacks = _stacks(director)
        if stacks:
            for v in clockwise_from_left(n, d):
                discarded.extend(stacks.get(v, ()))
        for loc in ("watchtower", "mine", "recruitment"):
            discarded.extend(director.at(loc))
        put(director, "placed", [])
        put(director, "passed", False)
    state.discard_pile.extend(discarded)
    if state.variant and state.die_card is not None:
        state.used_die_cards.append(state.die_card)
        put(state, "die_card", None)
    put(state, "revealed_step", 0)
    if state.round >= ROUNDS:
        events.append(trusted(ev.RoundCleanedUp, round=state.round, discarded=tuple(discarded)))
        _finish(state, "round_6", events)
        return
    put(state, "die_holder", (state.die_holder + 1) % n)
    events.append(
        trusted(
            ev.RoundCleanedUp,
            round=state.round,
            discarded=tuple(discarded),
            next_die_holder=state.die_holder,
        )
    )
    put(state, "round", state.round + 1)
    _start_round(state, events)


# --------------------------------------------------------------------------- the end


def _keys(state: MineState, d: int) -> tuple[int, int, int]:
    director = state.directors[d]
    return (director.score, director.stock, profession_count(director.hand))


def _finish(state: MineState, reason: Literal["score_21", "round_6"], events: list[Event]) -> None:
    """Rank every director (§6), rolling off the remaining ties with R7, and end the game."""
    n = state.n_directors
    order_from_holder = turn_order(state)
    ranked = sorted(range(n), key=lambda d: (tuple(-k for k in _keys(state, d)), d))
    rolls: list[list[Roll]] = []
    final: list[int] = []
    i = 0
    while i < n:
        j = i
        while j + 1 < n and _keys(state, ranked[j + 1]) == _keys(state, ranked[i]):
            j += 1
        group = ranked[i : j + 1]
        if len(group) == 1:
            final.append(group[0])
        else:
            final.extend(_roll_off(state, group, order_from_holder, rolls))
        i = j + 1
    state.final = FinalOutcome(
        reason=reason, order=final, rolls=rolls, tiebreak=_tiebreak_text(state, final, rolls)
    )
    put(state, "phase", "over")
    put(state, "turn", None)
    tied = _tied_professions(state)
    events.append(
        ev.GameEnded(
            reason=reason,
            ranking=tuple(final),
            scores=tuple(d.score for d in state.directors),
            tiebreak=state.final.tiebreak,
            round=state.round,
            dummy=state.dummy_index,
            stocks=tuple(d.stock for d in state.directors),
            professions=tuple(tied.get(d) for d in range(n)),
            rolls=tuple(
                tuple(ev.DieRoll(director=r.director, value=r.value) for r in group)
                for group in rolls
            ),
        )
    )


def _tied_professions(state: MineState) -> dict[int, int]:
    """Profession cards in hand (§6 key 3) of the directors tied with another on score and
    stock: the only hands the ranking had to look at, so the end shows no more of them."""
    n = state.n_directors
    keys = [(d.score, d.stock) for d in state.directors]
    return {
        d: profession_count(state.directors[d].hand)
        for d in range(n)
        if any(keys[o] == keys[d] for o in range(n) if o != d)
    }


def _roll_off(
    state: MineState, group: list[int], order: list[int], rolls: list[list[Roll]]
) -> list[int]:
    """§6 key 4: everyone in the group rolls once in turn order; equal rolls re-roll at once."""
    members = [d for d in order if d in group]
    rng = _chance(state)
    this = [Roll(director=d, value=rng.between(1, 6)) for d in members]  # R7
    rolls.append(this)
    value = {r.director: r.value for r in this}
    out: list[int] = []
    for face in sorted({r.value for r in this}, reverse=True):
        sub = [d for d in members if value[d] == face]
        out.extend(sub if len(sub) == 1 else _roll_off(state, sub, order, rolls))
    return out


def _tiebreak_text(state: MineState, final: list[int], rolls: list[list[Roll]]) -> str:
    """Which key separated each adjacent pair tied on score (and the rolls made)."""
    parts: list[str] = []
    for a, b in itertools.pairwise(final):
        ka, kb = _keys(state, a), _keys(state, b)
        if ka[0] != kb[0]:
            continue
        la, lb = director_label(state, a), director_label(state, b)
        if ka[1] != kb[1]:
            parts.append(f"{la} over {lb} by stock ({ka[1]}-{kb[1]})")
        elif ka[2] != kb[2]:
            parts.append(f"{la} over {lb} by profession cards in hand ({ka[2]}-{kb[2]})")
        else:
            seq = []
            for group in rolls:
                vals = {r.director: r.value for r in group}
                if a in vals and b in vals:
                    seq.append(f"{vals[a]}-{vals[b]}")
            parts.append(f"{la} over {lb} by dice ({', then '.join(seq)})")
    return "; ".join(parts)


def automatic_opponents(state: MineState) -> list[Opponent]:
    """The dummy director when it plays (§7), with its score so far."""
    dn = state.dummy_index
    if dn is None:
        return []
    return [Opponent(id="dummy", name="Dummy director", score=state.directors[dn].score, place=1)]


def result(state: MineState) -> Result | None:
    """Scores of the seats, their ranking (dummy left out) and the dummy in ``details`` (§6)."""
    if state.final is None:
        return None
    order = state.final.order
    place = {d: i + 1 for i, d in enumerate(order)}
    seats = [d for d in order if state.directors[d].seat is not None]
    details: dict[str, object] = {
        "reason": state.final.reason,
        "rolls": [[r.model_dump() for r in g] for g in state.final.rolls],
        "stocks": {d: state.directors[d].stock for d in range(state.n_seats)},
        # Keyed by director (the dummy is director n_seats), as in the game_ended event.
        "professions": _tied_professions(state),
    }
    dn = state.dummy_index
    others: list[Opponent] = []
    if dn is not None:
        dummy = state.directors[dn]
        details["dummy"] = {"score": dummy.score, "stock": dummy.stock, "place": place[dn]}
        others.append(
            Opponent(id="dummy", name="Dummy director", score=dummy.score, place=place[dn])
        )
    return Result(
        scores={d: state.directors[d].score for d in range(state.n_seats)},
        ranking=seats,
        tiebreak=state.final.tiebreak,
        places={d: place[d] for d in seats},
        details=details,
        others=others,
    )


def max_length(n_players: int) -> int:
    """Bound on seat actions (§10): 6 rounds x 6 directors x (4 + 1 + 20) < 1000."""
    return ROUNDS * MAX_SEATS * (MAX_PLACED + 1 + 20)
