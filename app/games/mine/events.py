"""MINE! events (past tense). Public unless ``visible_to`` says otherwise (rules/mine.md §8).

Directors are named by number (seats 0…N-1, the dummy N when present); ``dummy`` flags on
events say when the dummy acted so a log line can name it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import Event
from app.games.mine.data import Location


class RevealedCard(BaseModel):
    """A card turned face up at its resolution step."""

    model_config = ConfigDict(frozen=True)

    director: int
    card: int
    victim: int | None = None


class RoundStarted(Event):
    """A round began: the die shows ``round``; in the variant a die card was revealed (§5.1)."""

    type: Literal["round_started"] = "round_started"
    round: int
    die_holder: int
    die_card: str | None = None
    mine_max: int | None = None
    sale_max: int | None = None


class CardPlaced(Event):
    """A director placed a card face down (owner, location and victim are public, §5.2)."""

    type: Literal["card_placed"] = "card_placed"
    director: int
    location: Location
    victim: int | None = None
    stack_opened: bool = False
    placed_count: int
    dummy: bool = False


class OwnCardPlaced(Event):
    """Private echo to the placing seat: which card it put face down."""

    type: Literal["own_card_placed"] = "own_card_placed"
    director: int
    card: int
    location: Location


class PlacementPassed(Event):
    """A director passed for the rest of the placement phase (§5.2)."""

    type: Literal["placement_passed"] = "placement_passed"
    director: int
    reason: Literal["chose", "empty_hand", "dummy_plan_done"] = "chose"


class CardsRevealed(Event):
    """Every card of one location was revealed, directors in turn order (§5.3)."""

    type: Literal["cards_revealed"] = "cards_revealed"
    location: Location
    cards: tuple[RevealedCard, ...]


class FiredampCounted(Event):
    """Step 1: the number F of Firedamp cards revealed this round (§5.4)."""

    type: Literal["firedamp_counted"] = "firedamp_counted"
    firedamp: int


class RaidSettled(Event):
    """A raid stack was settled (§5.5): failed, cancelled by Gendarmes or successful.

    The fields after ``taken`` let the log explain the raid step by step; they are public
    (the stack and the watchtower were revealed at steps 2 and 3, stocks are public) and have
    defaults so that events stored before they existed still parse.
    """

    type: Literal["raid_settled"] = "raid_settled"
    raider: int
    victim: int
    attack: int
    defence: int
    outcome: Literal["failed", "cancelled", "succeeded"]
    claim: int
    taken: int
    #: The raider's stack against the victim and the victim's Watchtower cards.
    cards: tuple[int, ...] = ()
    guards: tuple[int, ...] = ()
    #: The victim's stock at the start of step 2 (L[v]: only that can be looted).
    stock: int | None = None
    #: Coal still left of L[v] when this raid's group was served (stronger raids go first).
    available: int | None = None
    #: Other raiders with the same attack against this victim (they share, §5.5).
    tied_with: tuple[int, ...] = ()


class StocksLooted(Event):
    """All raids applied together: each director's stock before and after (§5.5.3)."""

    type: Literal["stocks_looted"] = "stocks_looted"
    before: tuple[int, ...]
    after: tuple[int, ...]


class CoalSold(Event):
    """Step 4: a director sold coal at the Expedition (§5.6)."""

    type: Literal["coal_sold"] = "coal_sold"
    director: int
    limit: int
    sold: int
    stock: int
    score: int
    #: How the limit came about: die value (or die card) and the events that changed it.
    base_limit: int | None = None
    big_order: bool = False
    cage_breakdown: bool = False


class CoalExtracted(Event):
    """Step 5: a director's extraction and what it took (§5.8)."""

    type: Literal["coal_extracted"] = "coal_extracted"
    director: int
    base: int
    blasted: bool
    extraction: int
    taken: int
    created: int = 0
    from_box: int = 0
    supply: int
    #: How the extraction came about (§5.8 steps 2-5); defaults for events stored earlier.
    pit_builders: int | None = None
    firedamp: int = 0
    #: The director owns Safety Lamp: each of its pit builders at the Mine protects against
    #: two firedamp cards this round (§2.6, revised).
    safety_lamp: bool = False
    #: Firedamp cards its pit builders protect against (one each, two each with Safety Lamp);
    #: blasted when ``firedamp`` ≥ 1 and this is smaller (§5.8 step 2). None in older events.
    protected: int | None = None
    rich_seam: bool = False
    strike: bool = False
    mine_max: int | None = None


class DrawPileReshuffled(Event):
    """The discard pile was shuffled into a new draw pile (R6, §5.9.2)."""

    type: Literal["draw_pile_reshuffled"] = "draw_pile_reshuffled"
    cards: int


class CardsDrawn(Event):
    """Step 6: a director drew ``count`` cards (the count is public, §8)."""

    type: Literal["cards_drawn"] = "cards_drawn"
    director: int
    wanted: int
    count: int


class CardsReceived(Event):
    """Private to the drawer: the identity of the cards it drew (§8)."""

    type: Literal["cards_received"] = "cards_received"
    director: int
    cards: tuple[int, ...]


class DummyEventReplaced(Event):
    """The dummy drew an event card; it went face up on the discard pile (§5.9.3)."""

    type: Literal["dummy_event_replaced"] = "dummy_event_replaced"
    director: int
    card: int


class CardDiscarded(Event):
    """A card was discarded face up for the hand limit (§5.9.4, §7.5)."""

    type: Literal["card_discarded"] = "card_discarded"
    director: int
    card: int
    automatic: bool = False


class RoundCleanedUp(Event):
    """Clean-up (§5.10): placed cards discarded, colour cards back, the die passed."""

    type: Literal["round_cleaned_up"] = "round_cleaned_up"
    round: int
    discarded: tuple[int, ...]
    next_die_holder: int | None = None


class DieRoll(BaseModel):
    """One roll of a final roll-off (§6 key 4)."""

    model_config = ConfigDict(frozen=True)

    director: int
    value: int


class GameEnded(Event):
    """The game ended (§6): final order of all directors and the tie-break text.

    ``stocks``, ``professions`` and ``rolls`` are the tie-break keys, so the log can show how
    the order came about. ``professions`` (profession cards in hand) is given only for
    directors tied with another on score and stock (None otherwise): the only ones the
    ranking had to look at, so the end shows no more of a hand than the tie-break needed.
    """

    type: Literal["game_ended"] = "game_ended"
    reason: Literal["score_21", "round_6"]
    ranking: tuple[int, ...]
    scores: tuple[int, ...]
    tiebreak: str = ""
    round: int | None = None
    dummy: int | None = None
    stocks: tuple[int, ...] = ()
    professions: tuple[int | None, ...] = ()
    rolls: tuple[tuple[DieRoll, ...], ...] = ()


MineEvent = (
    RoundStarted
    | CardPlaced
    | OwnCardPlaced
    | PlacementPassed
    | CardsRevealed
    | FiredampCounted
    | RaidSettled
    | StocksLooted
    | CoalSold
    | CoalExtracted
    | DrawPileReshuffled
    | CardsDrawn
    | CardsReceived
    | DummyEventReplaced
    | CardDiscarded
    | RoundCleanedUp
    | GameEnded
)

#: The discriminated union of every MINE! event (``ENGINE.Event``, base.parse_event).
EventUnion = Annotated[MineEvent, Field(discriminator="type")]

ALL_EVENT_TYPES: tuple[type[Event], ...] = (
    RoundStarted,
    CardPlaced,
    OwnCardPlaced,
    PlacementPassed,
    CardsRevealed,
    FiredampCounted,
    RaidSettled,
    StocksLooted,
    CoalSold,
    CoalExtracted,
    DrawPileReshuffled,
    CardsDrawn,
    CardsReceived,
    DummyEventReplaced,
    CardDiscarded,
    RoundCleanedUp,
    GameEnded,
)
