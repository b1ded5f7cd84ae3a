"""Ginkgopolis rules engine (``shared/rules/ginkgopolis.md``).

The state is one pydantic model. A round is: the New Hand window (§6.1.0, simultaneous),
the secret selection (§6.1.1, simultaneous), then the sequential resolution (§6.2).
The resolution is driven by a small work queue stored in the state (``queue``): each
:class:`Step` is one automatic unit (gain items, apply bonuses, discard a card, resolve
one player's revealed selection, Hal's turn, end of round). The queue stops whenever a
seat must decide (an urbanization-card exploit item, a token move, or the simultaneous
refill contribution of §10, which may suspend an action in the middle of a tile gain
exactly as D5 demands) and resumes after the decision.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from typing import Literal, TypeAlias, TypedDict, TypeVar, cast

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from app.games.base import (
    Event,
    GameOver,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Opponent,
    Refusal,
    Result,
    Rng,
    RulesError,
    Seat,
    rank_by_score,
)
from app.games.trusted import maker, put, shared, trusted

from . import data as D
from .actions import (
    ActionModel,
    Contribute,
    ContributeDone,
    DraftPick,
    KeepHand,
    MoveToken,
    NewHand,
    Select,
    Take,
)
from .events import (
    ActionRevealed,
    BuildingUrbanized,
    BuiltUp,
    CardScore,
    CardsDrawn,
    CardsReceived,
    ChoiceCommitted,
    ContributionMade,
    ContributionsRevealed,
    DeckRebuilt,
    DistrictScore,
    DraftCompleted,
    DraftPicked,
    DraftPileReceived,
    DraftStarted,
    EndTriggered,
    GameEnded,
    GameSetUp,
    HalCardDrawn,
    HalSkipped,
    HandsPassed,
    ItemsGained,
    NeighbourBuilding,
    NewHandChosen,
    NewHandUsed,
    PlayerScored,
    ResourcesReturned,
    RoundStarted,
    SelectionMade,
    TilesReceived,
    TileSupplyExhausted,
    TokenMoved,
)

Cell: TypeAlias = tuple[int, int]
Phase: TypeAlias = Literal["draft", "new_hand", "select", "resolve", "contribute", "over"]
M = TypeVar("M", bound=BaseModel)
A = TypeVar("A", bound=ActionModel)
SIMULTANEOUS: frozenset[str] = frozenset({"draft", "new_hand", "select", "contribute"})


# --------------------------------------------------------------------------- models


class GinkgopolisOptions(BaseModel):
    """Table options (§16, D2, D12)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    characters: Literal["sets", "draft", "random"] = Field(
        default="sets",
        description="character distribution (§16): first-game sets, draft or random deal",
    )
    keep_token_order: bool = Field(
        default=False,
        description="moved tokens keep the A-L order (D2); `keepTokenOrder`, the spec's name, "
        "is accepted too",
        validation_alias=AliasChoices("keep_token_order", "keepTokenOrder"),
    )
    hidden_sp: bool = Field(default=False, description="hide other players' SP totals (D12)")


class Building(BaseModel):
    """A stack of tiles on one cell (§2); ``tiles`` bottom → top.

    The engine never changes a building in place but puts a changed copy in the city:
    the copy of the state that ``apply`` works on shares the buildings (see :func:`_fork`).
    """

    tiles: list[str]
    owner: int | None = None
    pending: bool = False

    @property
    def top(self) -> str:
        return self.tiles[-1]

    @property
    def height(self) -> int:
        return len(self.tiles)


class Selection(BaseModel):
    """A secret selection (§6.1.1); ``spent`` once its card reached the discard or a tableau."""

    card: str
    tile: str | None = None
    spent: bool = False


class PlayerState(BaseModel):
    """One player (or Hal, ``hal=True``, solo only)."""

    colour: str
    hal: bool = False
    supply: int = 0  # resources of this colour in the general supply
    resources: int = 0  # behind the screen
    tiles: list[str] = Field(default_factory=list)  # behind the screen, canonical order
    set_aside: list[str] = Field(default_factory=list)  # refill contribution before the reveal
    contribution_done: bool = True
    sp: int = 0
    tokens: int = 0  # New Hand tokens
    characters: list[str] = Field(default_factory=list)
    tableau: list[str] = Field(default_factory=list)  # building cards, acquisition order
    hand: list[str] = Field(default_factory=list)
    selection: Selection | None = None
    revealed: bool = False
    new_hand: bool | None = None  # declaration in the current window (None = owes one)
    draft_pile: list[str] = Field(default_factory=list)
    draft_kept: list[str] = Field(default_factory=list)
    draft_picked: bool = False


StepKind: TypeAlias = Literal[
    "resolve",
    "gain",
    "bonus",
    "discard",
    "tableau",
    "check_all",
    "discard_hand",
    "hal",
    "end_round",
]


class Step(BaseModel):
    """One queued automatic unit of the resolution."""

    kind: StepKind
    player: int = 0
    colour: str = ""
    amount: int = 0
    card: str = ""
    reason: str = ""
    # A gain from a building (exploit or neighbour): its cell, with its top tile in ``card``,
    # so the log can say which building gave what.
    cell: Cell | None = None


class Plan(TypedDict, total=False):
    """A queued step while ``apply`` runs the queue: the fields a :class:`Step` is given.

    The queue holds plans only inside :func:`_run`, which turns them back into the very
    Steps they name before ``apply`` returns (``Step(**plan)``); a dict costs a tenth of
    a validated model, and most steps are done as soon as they are queued.
    """

    kind: StepKind
    player: int
    colour: str
    amount: int
    card: str
    reason: str
    cell: Cell | None


class Decision(BaseModel):
    """A follow-up decision of the resolution (§19c)."""

    kind: Literal["take", "move_token"]
    seat: int
    player: int
    card: str = ""
    letter: str = ""
    site: Cell | None = None
    items: list[Literal["resource", "tile"]] = Field(default_factory=list)
    candidates: list[Cell] = Field(default_factory=list)


class FinalScore(BaseModel):
    player: int
    sp: int
    districts: int
    cards: int
    tokens: int
    total: int


class GinkgopolisState(BaseModel):
    n_players: int
    options: GinkgopolisOptions
    rng: Rng
    phase: Phase
    round: int = 0
    first_player: int = 0
    players: list[PlayerState]
    city: dict[str, Building]  # "x,y" -> building
    tokens: dict[str, Cell]  # letter -> cell
    supply: list[str]  # tile supply, index 0 = top
    removed_tiles: list[str]
    deck: list[str]  # index 0 = top
    discard: list[str]  # oldest first
    stacks: dict[str, list[int]]  # colour -> numbers of cards still in the colour stack
    refill_done: bool = False
    end_triggered: bool = False
    end_reasons: list[str] = Field(default_factory=list)
    queue: list[Step] = Field(default_factory=list)
    decision: Decision | None = None
    hal_card: str | None = None
    draft_round: int = 0
    final: list[FinalScore] | None = None

    @property
    def solo(self) -> bool:
        return self.n_players == 1


# Makers of the state's parts, as trusted() makes them but without its look-up per call.
_building = maker(Building)
_selection = maker(Selection)
_decision = maker(Decision)
_make_step = maker(Step)


# --------------------------------------------------------------------------- cell helpers


def key(cell: Cell) -> str:
    """The city dict key of a cell: ``key((1, -2)) == "1,-2"``."""
    return f"{cell[0]},{cell[1]}"


class _Keys(dict[Cell, str]):
    """:func:`key` of each cell, worked out once (a look-up costs a fraction of the format)."""

    def __missing__(self, cell: Cell) -> str:
        made = self[cell] = key(cell)
        return made


_KEY = _Keys()


@functools.lru_cache(maxsize=4096)
def cell_of(k: str) -> Cell:
    """Inverse of :func:`key` (cached: every view and scoring parses each city key)."""
    x, y = k.split(",")
    return (int(x), int(y))


def neighbours(cell: Cell) -> list[Cell]:
    """Orthogonal neighbours in the order N, E, S, W (§2)."""
    x, y = cell
    return [(x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)]


@functools.lru_cache(maxsize=4096)
def _neighbour_keys(k: str) -> tuple[str, ...]:
    """City keys of the orthogonal neighbours of the cell of key ``k``, N, E, S, W (§2)."""
    return tuple(key(c) for c in neighbours(cell_of(k)))


def reading_order(cells: Iterable[Cell]) -> list[Cell]:
    """Cells sorted y descending, then x ascending (§2, D22)."""
    return sorted(cells, key=lambda c: (-c[1], c[0]))


def canon(items: Iterable[str]) -> list[str]:
    """Items sorted in the canonical order of §14."""
    return sorted(items, key=_CANON_KEY)


_CANON_KEY = D.CANON_KEY.__getitem__

#: ``visible_to`` of a seat's private events (one frozenset per seat, shared: it is frozen).
_ONLY: tuple[frozenset[int], ...] = tuple(frozenset({p}) for p in range(len(D.PLAYER_COLOURS)))

# The events of every action, by the fields each call site gives (see trusted.shared): a
# frozen event of plain values is looked up rather than made, and the same values make
# the same event. Events holding a list are made afresh, without the look-up of trusted().
_CARDS_DRAWN = shared(CardsDrawn, "player", "count")
_ROUND_STARTED = shared(RoundStarted, "round", "first_player")
_HANDS_PASSED = shared(HandsPassed, "first_player")
_HAL_CARD_DRAWN = shared(HalCardDrawn, "player")
_TOKEN_MOVED = shared(TokenMoved, "letter", "cell")
_ACTION_REVEALED = shared(ActionRevealed, "player", "card", "tile", "action")
_RESOURCES_RETURNED = shared(ResourcesReturned, "player", "count", "sp", "hal")
_CHOICE_COMMITTED = shared(ChoiceCommitted, "player", "step")
_CHOICE_COMMITTED_SELECT = shared(ChoiceCommitted, "player", "step", "tile_attached")
_SELECTION_MADE = shared(SelectionMade, "player", "card", "tile", "visible_to")
_NEW_HAND_CHOSEN = shared(NewHandChosen, "player", "use", "visible_to")
_CONTRIBUTION_MADE = shared(ContributionMade, "player", "tile", "visible_to")
_NEIGHBOUR = shared(NeighbourBuilding, "cell", "top", "height")
_BUILT_UP = shared(
    BuiltUp, "player", "cell", "tile", "card", "height", "sp_cost", "colour_cost", "hal"
)
# ItemsGained of _gain: resources, SP (with ``hal``) or tiles, from a building or not.
_GAINED_RESOURCES = shared(ItemsGained, "player", "resources", "reason")
_GAINED_RESOURCES_FROM = shared(ItemsGained, "player", "resources", "reason", "building", "cell")
_GAINED_SP = shared(ItemsGained, "player", "sp", "reason", "hal")
_GAINED_SP_FROM = shared(ItemsGained, "player", "sp", "reason", "hal", "building", "cell")
_GAINED_TILES = shared(ItemsGained, "player", "tiles", "reason")
_GAINED_TILES_FROM = shared(ItemsGained, "player", "tiles", "reason", "building", "cell")
_cards_received = maker(CardsReceived)
_tiles_received = maker(TilesReceived)
_draft_pile_received = maker(DraftPileReceived)
_building_urbanized = maker(BuildingUrbanized)


def building_of(s: GinkgopolisState, card: str) -> tuple[str, Building] | None:
    """The (non-pending) building whose top tile matches a building card (§7.1)."""
    for k, b in s.city.items():
        if b.tiles[-1] == card and not b.pending:
            return k, b
    return None


# --------------------------------------------------------------------------- setup


def validate_options(options: GinkgopolisOptions, n_players: int) -> None:
    """Raise InvalidOptions for a bad player count (1-5, §3) or, solo, an option with no effect.

    The solo game has no characters (§15), and Hal has no screen, so his SP are always
    shown (§15, D12): ``characters`` and ``hidden_sp`` would change nothing there, and a
    table that sets them would promise a game it does not get.
    """
    if not isinstance(options, GinkgopolisOptions):
        raise InvalidOptions(
            "options must be Ginkgopolis options", reason="ginkgopolis.not_options"
        )
    _check_player_count(n_players)
    if n_players == 1:
        if options.characters != "sets":
            raise InvalidOptions(
                f"option characters={options.characters!r} has no effect in the solo game: "
                "you get no characters (§15); leave it at 'sets'",
                reason="ginkgopolis.solo_characters",
                option="characters",
            )
        if options.hidden_sp:
            raise InvalidOptions(
                "option hidden_sp has no effect in the solo game: your SP are your own and "
                "Hal has no screen, so his SP are always shown (§15, D12); leave it off",
                reason="ginkgopolis.solo_hidden_sp",
                option="hidden_sp",
            )


def _check_player_count(n_players: int) -> None:
    if n_players not in D.PLAYER_COUNTS:
        raise InvalidOptions(
            f"Ginkgopolis is for 1 to 5 players (solo against Hal at 1), not {n_players} (§3)",
            reason="ginkgopolis.players",
            min=min(D.PLAYER_COUNTS),
            max=max(D.PLAYER_COUNTS),
            seats=n_players,
        )


def setup(n_players: int, seed: int, options: GinkgopolisOptions) -> GinkgopolisState:
    """The initial state of :func:`start`, without its events."""
    return start(n_players, seed, options)[0]


def start(
    n_players: int, seed: int, options: GinkgopolisOptions
) -> tuple[GinkgopolisState, list[Event]]:
    """Set up a game in the canonical order of §5/§14, drawing all chance from one seeded Rng.

    Returns the state and the events of the setup: each seat's starting items (its tiles
    in a private event), the deal, the game set up and round 1 begun (solo: your first
    cards). With a character draft the setup finishes only after the third pick, which
    returns these events then; ``start`` returns none.

    Only the player count is checked here, not :func:`validate_options`: a solo table
    stored before its options were refused must still replay, and solo they do nothing.
    """
    _check_player_count(n_players)
    rng = Rng.from_seed(seed)
    start_tiles = list(D.START_TILES)
    rng.shuffle(start_tiles)  # §14.1
    supply = list(D.SUPPLY_TILES)
    rng.shuffle(supply)  # §14.2
    deck = list(D.START_DECK)
    rng.shuffle(deck)  # §14.3
    chars: list[list[str]] = [[] for _ in range(n_players)]
    if n_players > 1:  # §14.4
        if options.characters == "sets":
            sets = list(D.SETS)
            rng.shuffle(sets)
            chars = [D.set_members(sets[p]) for p in range(n_players)]
        else:
            pool = list(D.CHARACTER_IDS)
            rng.shuffle(pool)
            per = D.DRAFT_DEAL if options.characters == "draft" else 3
            chars = [[pool[p + k * n_players] for k in range(per)] for p in range(n_players)]
    first = rng.below(n_players) if n_players > 1 else 0  # §14.5
    ev: list[Event] = []
    s = assemble(n_players, options, rng, start_tiles, supply, deck, chars, first, ev=ev)
    return s, ev


def assemble(
    n_players: int,
    options: GinkgopolisOptions,
    rng: Rng,
    start_tiles: list[str],
    supply: list[str],
    deck: list[str],
    characters: list[list[str]],
    first_player: int,
    *,
    ev: list[Event] | None = None,
) -> GinkgopolisState:
    """Build the initial state from the already drawn chance (§5 steps 1-10).

    ``characters`` is each seat's three characters, or in draft mode each seat's
    4-card draft pile. The events of the setup are appended to ``ev`` (see :func:`start`);
    the tests' builders, which want only the position, leave it out. Exposed so tests can
    build the exact set-ups of the examples.
    """
    params = D.PLAYER_COUNTS[n_players]
    solo = n_players == 1
    players = [
        PlayerState(
            colour=D.PLAYER_COLOURS[p],
            supply=params.resources,
            tokens=0 if solo else D.NEW_HAND_TOKENS,
        )
        for p in range(n_players)
    ]
    if solo:
        players.append(PlayerState(colour=D.HAL_COLOUR, hal=True, supply=params.resources))
    city = {
        key(cell): Building(tiles=[t]) for cell, t in zip(D.START_CELLS, start_tiles, strict=True)
    }
    removed = supply[: params.tiles_removed]
    supply = supply[params.tiles_removed :]
    discard = deck[: params.cards_discarded]
    deck = deck[params.cards_discarded :]
    s = GinkgopolisState(
        n_players=n_players,
        options=options,
        rng=rng,
        phase="select",
        first_player=first_player,
        players=players,
        city=city,
        tokens=dict(D.TOKEN_START),
        supply=supply,
        removed_tiles=removed,
        deck=deck,
        discard=discard,
        stacks={c: list(range(4, 21)) for c in D.COLOURS},
        refill_done=solo,  # solo: no refill, the first exhaustion ends the game (§10, §15)
    )
    if not solo and options.characters == "draft":
        for p in range(n_players):
            players[p].draft_pile = sorted(characters[p])
        s.phase = "draft"
        if ev is not None:
            # What the start decides is told now: the piles dealt (each to its seat only);
            # the starting items and the deal follow the last pick (_finish_setup).
            ev.append(
                trusted(
                    DraftStarted,
                    n_players=n_players,
                    first_player=first_player,
                    pile_size=D.DRAFT_DEAL,
                )
            )
            _tell_draft_piles(s, ev)
        return s
    for p in range(n_players):
        players[p].characters = sorted(characters[p])
    _finish_setup(s, [] if ev is None else ev)
    return s


def _tell_draft_piles(s: GinkgopolisState, ev: list[Event]) -> None:
    """Each seat's draft pile, to that seat only (§16.2)."""
    for p in range(s.n_players):
        pile = list(s.players[p].draft_pile)
        ev.append(
            _draft_pile_received(
                player=p, characters=pile, draft_round=s.draft_round + 1, visible_to=_ONLY[p]
            )
        )


def _finish_setup(s: GinkgopolisState, ev: list[Event]) -> None:
    """Starting items (§5.9) and the deal (§5.10), then the first round."""
    n = s.n_players
    if s.solo:
        res, tiles, sp = D.SOLO_START
        _take_start_items(s, 0, res, sp, tiles, ev)
    else:
        for p in _turn_order(s):
            r = sum(D.CHARACTERS[c].start_resources for c in s.players[p].characters)
            sp = sum(D.CHARACTERS[c].start_sp for c in s.players[p].characters)
            t = sum(D.CHARACTERS[c].start_tiles for c in s.players[p].characters)
            _take_start_items(s, p, r, sp, t, ev)
        # (player lists are replaced, never changed in place: copies of the state share them)
        hands = {p: list(s.players[p].hand) for p in _turn_order(s)}
        for _ in range(D.HAND_SIZE):
            for p in _turn_order(s):
                card = _draw_card(s, ev)
                if card is not None:
                    hands[p].append(card)
        # The deal as every later draw is logged: the count for all, the cards for their holder.
        for p in _turn_order(s):
            pl = s.players[p]
            pl.hand = canon(hands[p])
            ev.append(_CARDS_DRAWN(p, len(pl.hand)))
            ev.append(_cards_received(player=p, cards=list(pl.hand), visible_to=_ONLY[p]))
    ev.append(
        GameSetUp(
            n_players=n,
            first_player=s.first_player,
            characters={p: list(s.players[p].characters) for p in range(n)},
            supply_count=len(s.supply),
            deck_count=len(s.deck),
        )
    )
    _start_round(s, ev)


def _take_start_items(
    s: GinkgopolisState, p: int, res: int, sp: int, tiles: int, ev: list[Event]
) -> None:
    pl = s.players[p]
    moved = min(res, pl.supply)
    pl.supply -= moved
    pl.resources += moved
    pl.sp += sp
    drawn = [s.supply.pop(0) for _ in range(min(tiles, len(s.supply)))]
    pl.tiles = canon(pl.tiles + drawn)
    ev.append(
        trusted(ItemsGained, player=p, resources=moved, sp=sp, tiles=len(drawn), reason="start")
    )
    if drawn:
        ev.append(_tiles_received(player=p, tiles=drawn, visible_to=_ONLY[p]))


def _turn_order(s: GinkgopolisState) -> list[int]:
    n = s.n_players
    return [(s.first_player + i) % n for i in range(n)]


# --------------------------------------------------------------------------- cards and tiles


def _draw_card(s: GinkgopolisState, ev: list[Event]) -> str | None:
    """Draw the top card; rebuild the deck the moment it becomes empty (§9, D9)."""
    if not s.deck:
        _rebuild(s, ev)
        if not s.deck:
            return None
    card = s.deck.pop(0)
    if not s.deck:
        _rebuild(s, ev)
    return card


def _rebuild(s: GinkgopolisState, ev: list[Event]) -> None:
    """Deck rebuild (§9 steps 1-4)."""
    pending = canon(b.top for b in s.city.values() if b.pending)
    if pending:  # new lists: a fork of the state shares its stacks (see _fork)
        s.stacks = {c: list(v) for c, v in s.stacks.items()}
    for card in pending:
        s.stacks[D.colour_of(card)].remove(D.number_of(card))
        s.discard.append(card)
    for cell_key, b in s.city.items():
        if b.pending:  # buildings are shared with the input state: replace, never change
            s.city[cell_key] = _copied(b, pending=False)
    deck = s.discard
    s.rng = _copied(s.rng)  # a fork of the state shares its Rng (see _fork)
    s.rng.shuffle(deck)
    put(s, "discard", [])
    k = 0
    if D.PLAYER_COUNTS[s.n_players].cards_discarded:
        k = max(0, min(D.PLAYER_COUNTS[s.n_players].cards_discarded, len(deck) - 1))
    put(s, "discard", deck[:k])
    s.deck = deck[k:]
    ev.append(trusted(DeckRebuilt, pending_cards=pending, deck_count=len(s.deck), set_aside=k))


def _trigger_end(
    s: GinkgopolisState, reason: str, ev: list[Event], player: int | None = None
) -> None:
    if reason in s.end_reasons:
        return
    s.end_triggered = True
    s.end_reasons = [*s.end_reasons, reason]
    ev.append(trusted(EndTriggered, reason=reason, player=player))


def _after_tile_drawn(s: GinkgopolisState, ev: list[Event]) -> bool:
    """Handle an empty supply after a draw (§10); True if the action must pause for contributions."""
    if s.supply:
        return False
    if not s.refill_done:
        s.refill_done = True
        ev.append(trusted(TileSupplyExhausted, first=True))
        for pl in s.players:
            pl.set_aside = []
            pl.contribution_done = pl.hal or not pl.tiles
        if all(pl.contribution_done for pl in s.players):
            _finish_contributions(s, ev)
            return False
        put(s, "phase", "contribute")
        return True
    ev.append(trusted(TileSupplyExhausted, first=False))
    _trigger_end(s, "solo_exhaustion" if s.solo else "second_exhaustion", ev)
    return False


def _finish_contributions(s: GinkgopolisState, ev: list[Event]) -> None:
    """Reveal every contribution, 1 SP per tile, shuffle them into the supply (§10 steps 2-4)."""
    revealed: dict[int, list[str]] = {}
    pool: list[str] = []
    for p, pl in enumerate(s.players):
        if pl.set_aside:
            revealed[p] = canon(pl.set_aside)
            pool.extend(pl.set_aside)
            pl.sp += len(pl.set_aside)
        pl.set_aside = []
        pl.contribution_done = True
    pool = canon(pool)
    s.rng = _copied(s.rng)  # a fork of the state shares its Rng (see _fork)
    s.rng.shuffle(pool)
    s.supply = pool
    ev.append(ContributionsRevealed(tiles=revealed, supply_count=len(pool)))
    for p, tiles in revealed.items():
        ev.append(ItemsGained(player=p, sp=len(tiles), reason="refill"))
    put(s, "phase", "resolve")
    if not s.supply:
        ev.append(TileSupplyExhausted(first=False))
        _trigger_end(s, "second_exhaustion", ev)


# --------------------------------------------------------------------------- selection checks (§7.0)


def selection_problem(s: GinkgopolisState, p: int, card: str, tile: str | None) -> Refusal | None:
    """Why a selection is illegal at selection time (§7.0), or None if it is legal."""
    pl = s.players[p]
    if card not in pl.hand:
        return Refusal(f"you do not hold card {card} (§6.1.1)", "ginkgopolis.card_not_held")
    if tile is None:
        return None
    if tile not in pl.tiles:
        return Refusal(f"tile {tile} is not behind your screen (§7.0)", "ginkgopolis.tile_not_held")
    if D.is_urbanization(card):
        if pl.resources < 1:
            return Refusal(
                f"cannot urbanize with {card} + {tile}: you have no resource behind your screen (§7.0)",
                "ginkgopolis.no_resource",
            )
        return None
    found = building_of(s, card)
    if found is None:
        return Refusal(f"card {card} designates no building (§7.1)", "ginkgopolis.no_building")
    _, b = found
    return _build_up_problem(pl, p, b, card, tile)


def _build_up_price(top: str, height: int, tile: str) -> tuple[int, int]:
    """SP and resources it costs to build ``tile`` on a building of ``height`` topped by
    ``top``: the number difference in SP; the new height, + 1 for a colour change (§7.3)."""
    sp_cost = max(0, D.NUMBER[top] - D.NUMBER[tile])
    need = height + 1 + (1 if D.COLOUR[tile] != D.COLOUR[top] else 0)
    return sp_cost, need


def _resources_for(pl: PlayerState, p: int, b: Building) -> int:
    """Resources player ``p`` can put on ``b``: those behind its screen, plus those on ``b``
    if it owns it, since they come back first (§7.3, §7.0)."""
    return pl.resources + (b.height if b.owner == p else 0)


def _build_up_problem(pl: PlayerState, p: int, b: Building, card: str, tile: str) -> Refusal | None:
    cost, need = _build_up_price(b.top, b.height, tile)
    have = _resources_for(pl, p, b)
    if pl.sp < cost:
        return Refusal(
            f"cannot build {tile} on {card}: the number cost is {cost} SP and you have {pl.sp} (§7.3 step 4, §7.0)",
            "ginkgopolis.build_sp",
            cost=cost,
            have=pl.sp,
        )
    if have < need:
        return Refusal(
            f"cannot build {tile} on {card}: it needs {need} resources (new height"
            f"{' + colour cost' if need > b.height + 1 else ''}) and you have {have} (§7.3, §7.0)",
            "ginkgopolis.build_resources",
            need=need,
            have=have,
        )
    return None


def selection_actions(s: GinkgopolisState, p: int) -> list[Select]:
    """All legal selections in the order of §19c."""
    pl = s.players[p]
    hand = canon(pl.hand)
    tiles = pl.tiles
    sp = pl.sp
    # the buildings the hand's building cards designate (§7.1), if any: one pass
    wanted = {card for card in hand if card[:2] != "U-"}
    tops: dict[str, Building] = {}
    if wanted:
        for building in s.city.values():
            top = building.tiles[-1]
            if top in wanted and not building.pending:
                tops[top] = building
    out: list[Select] = []
    for card in hand:
        with_tile = _SELECTS[card]
        out.append(with_tile[None])
        if card[:2] == "U-":  # D.is_urbanization
            if pl.resources >= 1:
                out.extend(map(with_tile.__getitem__, tiles))
            continue
        b = tops.get(card)
        if b is None:
            continue
        # The prices of _build_up_price, what depends only on the building worked out once:
        # the SP cost is max(0, top number - tile number), the resources the new height
        # (+ 1 for a colour change), here as the resources to spare beyond the new height.
        height = len(b.tiles)
        spare = pl.resources + (height if b.owner == p else 0) - height - 1  # _resources_for
        if spare < 0:
            continue
        number, colour = D.NUMBER[card], D.COLOUR[card]
        out.extend(
            [
                with_tile[t]
                for t in tiles
                if sp >= max(0, number - D.NUMBER[t]) and spare >= (D.COLOUR[t] != colour)
            ]
        )
    return out


# --------------------------------------------------------------------------- tokens (§7.2, D2, D3)


def token_candidates(s: GinkgopolisState, site: Cell, letter: str) -> list[Cell]:
    """Cells the token ``letter`` (already lifted off the board) may move to (§19c)."""
    occupied = set(s.city)
    occupied.update([_KEY[c] for lt, c in s.tokens.items() if lt != letter])
    cands = [c for c in neighbours(site) if _KEY[c] not in occupied]
    if not cands:
        edge: set[Cell] = set()
        for k in s.city:
            for c in neighbours(cell_of(k)):
                if _KEY[c] not in occupied:
                    edge.add(c)
        cands = reading_order(edge)
    if s.options.keep_token_order:
        kept = [c for c in cands if _order_kept(s.tokens, letter, c)]
        if kept:
            return kept
    return cands


def _order_kept(tokens: dict[str, Cell], letter: str, cell: Cell) -> bool:
    """D2: sorting tokens by atan2(x, y) (then distance) yields a rotation of A…L."""
    placed = {lt: c for lt, c in tokens.items() if lt != letter}
    placed[letter] = cell
    order = sorted(
        placed,
        key=lambda lt: (
            math.atan2(placed[lt][0], placed[lt][1]),
            placed[lt][0] ** 2 + placed[lt][1] ** 2,
        ),
    )
    start = order.index("A")
    n = len(order)
    return (
        all(order[(start + i) % n] == D.LETTERS[i] for i in range(n))
        if n == len(D.LETTERS)
        else True
    )


def _move_token(s: GinkgopolisState, letter: str, cell: Cell, ev: list[Event]) -> None:
    s.tokens[letter] = cell
    put(s, "tokens", {lt: s.tokens[lt] for lt in D.LETTERS if lt in s.tokens})
    ev.append(_TOKEN_MOVED(letter, cell))


# --------------------------------------------------------------------------- rounds


def _start_round(s: GinkgopolisState, ev: list[Event]) -> None:
    """Begin a round: solo draw (§15.1), then the New Hand window or the selection."""
    put(s, "round", s.round + 1)
    for pl in s.players:
        _put(pl, selection=None, revealed=False, new_hand=None)
    ev.append(_ROUND_STARTED(s.round, s.first_player))
    if s.solo:
        you = s.players[0]
        hand = list(you.hand)
        for _ in range(D.SOLO_HAND):
            card = _draw_card(s, ev)
            if card is not None:
                hand.append(card)
        you.hand = canon(hand)
        ev.append(_CARDS_DRAWN(0, len(you.hand)))
        ev.append(_cards_received(player=0, cards=list(you.hand), visible_to=_ONLY[0]))
        hal_card = _draw_card(s, ev)
        put(s, "hal_card", hal_card)
        if hal_card is not None:
            # Face down: the deck shrinks for everybody, the card is nobody's to see (§15.1).
            ev.append(_HAL_CARD_DRAWN(len(s.players) - 1))
        put(s, "phase", "select")
        return
    if any(pl.tokens > 0 for pl in s.players):
        put(s, "phase", "new_hand")
        return
    put(s, "phase", "select")


def _process_new_hands(s: GinkgopolisState, ev: list[Event]) -> None:
    """Process declarations in turn order (§6.1.0, D6)."""
    for p in _turn_order(s):
        pl = s.players[p]
        if pl.new_hand:
            pl.tokens -= 1
            s.discard.extend(canon(pl.hand))
            pl.hand = []
            ev.append(trusted(NewHandUsed, player=p, tokens_left=pl.tokens))
            hand = []
            for _ in range(D.HAND_SIZE):
                card = _draw_card(s, ev)
                if card is not None:
                    hand.append(card)
            pl.hand = canon(hand)
            ev.append(_CARDS_DRAWN(p, len(pl.hand)))
            ev.append(_cards_received(player=p, cards=list(pl.hand), visible_to=_ONLY[p]))
    for pl in s.players:
        put(pl, "new_hand", None)
    put(s, "phase", "select")


def _begin_resolution(s: GinkgopolisState) -> None:
    put(s, "phase", "resolve")
    plans: list[Plan]
    if s.solo:
        plans = [
            {"kind": "resolve", "player": 0},
            {"kind": "discard_hand", "player": 0},
            {"kind": "hal"},
        ]
    else:
        plans = [{"kind": "resolve", "player": p} for p in _turn_order(s)]
    plans.append({"kind": "end_round"})
    put(s, "queue", _queued(plans))


def _end_round(s: GinkgopolisState, ev: list[Event]) -> None:
    """§6.3: final scoring if the end is triggered, else pass, move the first player, refill."""
    if s.end_triggered:
        _final_scoring(s, ev)
        return
    if not s.solo:
        n = s.n_players
        players = s.players
        hands = [players[p].hand for p in range(n)]
        # (put: a field assigned as pydantic assigns it, without its checks; see trusted.put)
        for p in range(n):
            put(players[p], "hand", hands[(p - 1) % n])
        put(s, "first_player", (s.first_player + 1) % n)
        ev.append(_HANDS_PASSED(s.first_player))
        for p in _turn_order(s):
            card = _draw_card(s, ev)
            pl = players[p]
            if card is not None:
                hand = canon([*pl.hand, card])
                ev.append(_CARDS_DRAWN(p, 1))
            else:
                hand = canon(pl.hand)
            put(pl, "hand", hand)
            ev.append(_cards_received(player=p, cards=list(hand), visible_to=_ONLY[p]))
    _start_round(s, ev)


# --------------------------------------------------------------------------- the work queue


def _queued(plans: list[Plan]) -> list[Step]:
    """Plans where the state's queue holds Steps: only :func:`_run` reads them, and it
    leaves Steps behind (see :class:`Plan`)."""
    return cast("list[Step]", plans)


def _plan(step: Step | Plan) -> Plan:
    """The plan of a queued step: what it was given, so that ``Step(**plan)`` is it again."""
    if isinstance(step, dict):
        return step
    known = _PLAN_OF.get(id(step))
    if known is not None and known[0] is step:
        return known[1]
    values = step.__dict__
    return cast("Plan", {k: values[k] for k in step.__pydantic_fields_set__})


def _run(s: GinkgopolisState, ev: list[Event]) -> None:
    """Process queued steps until a seat must decide or the round is over."""
    # (the queue through __dict__, which mypy reads as Any: typing.cast is a call, this runs
    # at every action)
    queue: list[Step | Plan] = s.__dict__["queue"]
    while s.phase == "resolve" and s.decision is None and queue:
        _do_step(s, _plan(queue.pop(0)), ev)
    # what waits for the decision is stored as the Steps it stands for
    queue[:] = [_step_of(step) if isinstance(step, dict) else step for step in queue]


#: The Step of each plan a paused resolution left, by the plan's items, and the plan of each
#: such Step, by its id (the Step is kept here, so the id stays its own): the queue waits for
#: each decision as Steps and goes on as plans, and most of its steps (a player's turn, the
#: end of the round) wait for many. The engine never changes a Step in place, so states may
#: share them (as a fork of the state does).
_STEP_OF: dict[tuple[tuple[str, object], ...], Step] = {}
_PLAN_OF: dict[int, tuple[Step, Plan]] = {}


def _step_of(plan: Plan) -> Step:
    """``Step(**plan)``, the one made for the same plan before if there was one."""
    items = tuple(plan.items())
    step = _STEP_OF.get(items)
    if step is None:
        step = _make_step(**plan)
        if len(_STEP_OF) >= 4096:
            _STEP_OF.clear()
            _PLAN_OF.clear()
        _STEP_OF[items] = step
        _PLAN_OF[id(step)] = (step, cast("Plan", dict(plan)))
    return step


def _push(s: GinkgopolisState, steps: list[Plan]) -> None:
    queue: list[Step | Plan] = s.__dict__["queue"]  # (see _run)
    queue[0:0] = steps


def _do_step(s: GinkgopolisState, step: Plan, ev: list[Event]) -> None:
    kind = step["kind"]
    if kind == "gain":
        _gain(s, step, ev)
    elif kind == "resolve":
        _resolve(s, step.get("player", 0), ev)
    elif kind == "bonus":
        _bonus(s, step.get("player", 0), step.get("reason", ""), ev)
    elif kind == "discard":
        card = step.get("card", "")
        s.discard.append(card)
        _mark_spent(s, step.get("player", 0), card)
    elif kind == "tableau":
        p, card = step.get("player", 0), step.get("card", "")
        pl = s.players[p]
        put(pl, "tableau", [*pl.tableau, card])
        _mark_spent(s, p, card)
    elif kind == "check_all":
        p = step.get("player", 0)
        pl = s.players[p]
        if not pl.hal and pl.supply == 0 and pl.resources == 0:
            _trigger_end(s, "all_resources", ev, p)
    elif kind == "discard_hand":
        pl = s.players[step.get("player", 0)]
        s.discard.extend(canon(pl.hand))
        pl.hand = []
    elif kind == "hal":
        _hal_turn(s, ev)
    elif kind == "end_round":
        _end_round(s, ev)


def _mark_spent(s: GinkgopolisState, p: int, card: str) -> None:
    pl = s.players[p]
    sel = pl.selection
    if sel is not None and sel.card == card:
        # a copy, not a change: a fork of the state shares the selections (see _fork)
        put(pl, "selection", _copied(sel, spent=True))


def _gain(s: GinkgopolisState, step: Plan, ev: list[Event]) -> None:
    """Gain ``amount`` items of a building colour (§19b gainItems); tiles one at a time."""
    p = step.get("player", 0)
    pl = s.players[p]
    amount = step.get("amount", 0)
    reason = step.get("reason", "")
    cell = step.get("cell")
    building = step.get("card") or None
    colour = step.get("colour", "")
    if colour == "R":
        moved = min(amount, pl.supply)
        _put(pl, supply=pl.supply - moved, resources=pl.resources + moved)
        ev.append(
            _GAINED_RESOURCES(p, moved, reason)
            if cell is None
            else _GAINED_RESOURCES_FROM(p, moved, reason, building, cell)
        )
        return
    if colour == "Y":
        put(pl, "sp", pl.sp + amount)
        # (Hal's neighbour SP come this way too: his "items" are SP, §15 step 3)
        ev.append(
            _GAINED_SP(p, amount, reason, pl.hal)
            if cell is None
            else _GAINED_SP_FROM(p, amount, reason, pl.hal, building, cell)
        )
        return
    drawn: list[str] = []
    paused = False
    remaining = amount
    tiles = list(pl.tiles)  # a new list, the input state's is shared (see _fork)
    put(pl, "tiles", tiles)
    while remaining > 0 and s.supply:
        tile = s.supply.pop(0)
        drawn.append(tile)
        remaining -= 1
        tiles.append(tile)
        if _after_tile_drawn(s, ev):
            paused = True
            break
    put(pl, "tiles", canon(tiles))
    # Tile identities reach only the drawer; the count is public (§13).
    if drawn:
        ev.append(
            _GAINED_TILES(p, len(drawn), reason)
            if cell is None
            else _GAINED_TILES_FROM(p, len(drawn), reason, building, cell)
        )
        ev.append(_tiles_received(player=p, tiles=drawn, visible_to=_ONLY[p]))
    if paused and remaining > 0:
        _push(s, [{**step, "amount": remaining}])


#: Each tableau card's permanent bonus as the gains it queues: (trigger, colour, amount,
#: reason).
_BONUS_GAINS: dict[str, tuple[tuple[str, str, int, str], ...]] = {
    card: tuple(
        (bonus[0], {"resource": "R", "sp": "Y", "tile": "B"}[item], n, f"bonus {card}")
        for item, n in bonus[1]
    )
    if bonus is not None
    else ()
    for card, bonus in D.BONUS.items()
}


def _bonus(s: GinkgopolisState, p: int, trigger: str, ev: list[Event]) -> None:
    """Expand the permanent bonuses of ``trigger`` into gain steps (§8; characters by ID, then cards)."""
    pl = s.players[p]
    if pl.hal:
        return
    steps: list[Plan] = []
    for card in [*pl.characters, *pl.tableau]:
        for when, colour, amount, reason in _BONUS_GAINS[card]:
            if when == trigger:
                steps.append(
                    {
                        "kind": "gain",
                        "player": p,
                        "colour": colour,
                        "amount": amount,
                        "reason": reason,
                    }
                )
    _push(s, steps)


def _resolve(s: GinkgopolisState, p: int, ev: list[Event]) -> None:
    """Reveal and resolve one player's selection (§6.2, §7)."""
    pl = s.players[p]
    sel = pl.selection
    if sel is None:
        raise RuntimeError(f"player {p} has no selection to resolve: every seat selects first")
    put(pl, "revealed", True)
    card, tile = sel.card, sel.tile
    if tile is not None and selection_problem_at_resolution(s, p, card, tile) is not None:
        # §7.0 fallback; unreachable with validated selections.
        pl.tiles = canon([*pl.tiles, tile])
        tile = None
        pl.selection = Selection(card=card, tile=None)
    if tile is None:
        ev.append(_ACTION_REVEALED(p, card, None, "exploit"))
        _exploit(s, p, card, ev)
    elif D.is_urbanization(card):
        ev.append(_ACTION_REVEALED(p, card, tile, "urbanize"))
        _urbanize(s, p, card, tile, ev)
    else:
        ev.append(_ACTION_REVEALED(p, card, tile, "build_up"))
        _build_up(s, p, card, tile, ev)


def selection_problem_at_resolution(
    s: GinkgopolisState, p: int, card: str, tile: str
) -> str | None:
    pl = s.players[p]
    if D.is_urbanization(card):
        return None if pl.resources >= 1 and D.letter_of(card) in s.tokens else "no resource"
    found = building_of(s, card)
    if found is None:
        return "no building"
    return _build_up_problem(pl, p, found[1], card, tile)


def _exploit(s: GinkgopolisState, p: int, card: str, ev: list[Event]) -> None:
    """§7.1."""
    tail: list[Plan] = [
        {"kind": "bonus", "player": p, "reason": "exploit"},
        {"kind": "discard", "player": p, "card": card},
    ]
    if D.is_urbanization(card):
        items: list[Literal["resource", "tile"]] = []
        if s.players[p].supply > 0:
            items.append("resource")
        if s.supply:
            items.append("tile")
        if len(items) == 2:
            _push(s, tail)
            put(s, "decision", _decision(kind="take", seat=p, player=p, card=card, items=items))
            return
        if items:
            colour = "R" if items[0] == "resource" else "B"
            tail.insert(
                0, {"kind": "gain", "player": p, "colour": colour, "amount": 1, "reason": card}
            )
        _push(s, tail)
        return
    found = building_of(s, card)
    if found is not None:
        k, b = found
        top = b.tiles[-1]
        tail.insert(
            0,
            {
                "kind": "gain",
                "player": p,
                "colour": D.colour_of(top),
                "amount": len(b.tiles),
                "reason": card,
                "card": top,
                "cell": cell_of(k),
            },
        )
    _push(s, tail)


def _place_new_building(
    s: GinkgopolisState, p: int, letter: str, tile: str, ev: list[Event]
) -> Cell:
    site = s.tokens.pop(letter)
    s.city[_KEY[site]] = _building(tiles=[tile], owner=p, pending=True)
    pl = s.players[p]
    if pl.hal:
        put(pl, "supply", pl.supply - 1)
    else:
        put(pl, "resources", pl.resources - 1)
    city = s.city
    around = [
        _NEIGHBOUR(c, b.tiles[-1], len(b.tiles))
        for c in neighbours(site)
        if (b := city.get(_KEY[c])) is not None
    ]
    ev.append(
        _building_urbanized(
            player=p,
            cell=site,
            tile=tile,
            letter=letter,
            hal=pl.hal,
            neighbours=around,
        )
    )
    return site


def _ask_token_move(
    s: GinkgopolisState, p: int, card: str, letter: str, site: Cell, ev: list[Event]
) -> None:
    cands = token_candidates(s, site, letter)
    if len(cands) == 1:
        _move_token(s, letter, cands[0], ev)
        return
    # The card rides along so the board can show what was played while seat 0 chooses:
    # Hal's card is in no hand nor selection by then (§15 step 3).
    s.decision = _decision(
        kind="move_token",
        seat=0 if s.solo else p,
        player=p,
        card=card,
        letter=letter,
        site=site,
        candidates=cands,
    )


def _urbanize(s: GinkgopolisState, p: int, card: str, tile: str, ev: list[Event]) -> None:
    """§7.2."""
    letter = D.letter_of(card)
    site = _place_new_building(s, p, letter, tile, ev)
    steps: list[Plan] = []
    city = s.city
    for c in neighbours(site):
        b = city.get(_KEY[c])
        if b is not None:
            top = b.tiles[-1]
            steps.append(
                {
                    "kind": "gain",
                    "player": p,
                    "colour": D.colour_of(top),
                    "amount": len(b.tiles),
                    "reason": "neighbour",
                    "card": top,
                    "cell": c,
                }
            )
    steps += [
        {"kind": "bonus", "player": p, "reason": "urbanize"},
        {"kind": "discard", "player": p, "card": card},
        {"kind": "check_all", "player": p},
    ]
    _push(s, steps)
    _ask_token_move(s, p, card, letter, site, ev)


def _cover(
    s: GinkgopolisState, p: int, cell_key: str, card: str, tile: str, pay: bool, ev: list[Event]
) -> None:
    """§7.3 steps 2-7 (Hal: ``pay=False``, D13)."""
    b = s.city[cell_key]
    pl = s.players[p]
    h = b.height
    owner = b.owner
    if owner is not None:
        o = s.players[owner]
        gained = h if owner != p else 0
        if o.hal:
            _put(o, supply=o.supply + h, sp=o.sp + gained)
        else:
            _put(o, resources=o.resources + h, sp=o.sp + gained)
        ev.append(_RESOURCES_RETURNED(owner, h, gained, o.hal))
    top = b.tiles[-1]
    sp_cost = max(0, D.NUMBER[top] - D.NUMBER[tile]) if pay else 0
    colour_cost = (1 if D.COLOUR[tile] != D.COLOUR[top] else 0) if pay else 0
    # Buildings are shared with the input state of apply (see _fork): replace, never change.
    s.city[cell_key] = _copied(b, tiles=[*b.tiles, tile], owner=p, pending=True)
    if pl.hal:
        _put(pl, sp=pl.sp - sp_cost, supply=pl.supply - (h + 1))
    else:
        _put(
            pl,
            sp=pl.sp - sp_cost,
            resources=pl.resources - (colour_cost + h + 1),
            supply=pl.supply + colour_cost,
        )
    ev.append(_BUILT_UP(p, cell_of(cell_key), tile, card, h + 1, sp_cost, colour_cost, pl.hal))


def _build_up(s: GinkgopolisState, p: int, card: str, tile: str, ev: list[Event]) -> None:
    """§7.3."""
    found = building_of(s, card)
    if found is None:
        raise RuntimeError(f"card {card} designates no building: _resolve checked it")
    _cover(s, p, found[0], card, tile, True, ev)
    _push(
        s,
        [
            {"kind": "bonus", "player": p, "reason": "build_up"},
            {"kind": "tableau", "player": p, "card": card},
            {"kind": "check_all", "player": p},
        ],
    )


def _hal_turn(s: GinkgopolisState, ev: list[Event]) -> None:
    """§15 step 3: Hal reveals his card and always builds (D13, D21)."""
    hal = 1
    pl = s.players[hal]
    card = s.hal_card
    put(s, "hal_card", None)
    if card is None:
        return
    if D.is_urbanization(card):
        need, have = 1, pl.supply
        target = None
    else:
        found = building_of(s, card)
        if found is None:
            s.discard.append(card)
            return
        target = found
        b = found[1]
        need = b.height + 1
        have = pl.supply + (b.height if b.owner == hal else 0)
    if have < need:
        ev.append(trusted(HalSkipped, card=card, reason="cannot_pay"))
        s.discard.append(card)
        _trigger_end(s, "hal_cannot_pay", ev)
        return
    if not s.supply:
        ev.append(trusted(HalSkipped, card=card, reason="no_tile"))
        s.discard.append(card)
        return
    tile = s.supply.pop(0)
    _after_tile_drawn(s, ev)
    if target is None:
        ev.append(
            trusted(ActionRevealed, player=hal, card=card, tile=tile, action="urbanize", hal=True)
        )
        letter = D.letter_of(card)
        site = _place_new_building(s, hal, letter, tile, ev)
        # Hal urbanizes in the order of §7.2 steps 5-8: the token moves first (seat 0 may
        # have to choose the cell), then Hal scores his neighbours, then his card is
        # discarded. Queued behind the token move, so that while seat 0 chooses, Hal's SP
        # and the discard pile are still those from before the scoring.
        sp = sum(nb.height for c in neighbours(site) if (nb := s.city.get(_KEY[c])) is not None)
        _push(
            s,
            [
                {"kind": "gain", "player": hal, "colour": "Y", "amount": sp, "reason": "neighbour"},
                {"kind": "discard", "player": hal, "card": card},
            ],
        )
        _ask_token_move(s, hal, card, letter, site, ev)
    else:
        ev.append(
            trusted(ActionRevealed, player=hal, card=card, tile=tile, action="build_up", hal=True)
        )
        _cover(s, hal, target[0], card, tile, False, ev)
        put(pl, "tableau", [*pl.tableau, card])


# --------------------------------------------------------------------------- scoring (§12)


class _ReadingOrder(dict[str, tuple[int, int]]):
    """The reading-order sort key of each city key (y descending, then x), worked out once."""

    def __missing__(self, k: str) -> tuple[int, int]:
        x, y = cell_of(k)
        self[k] = order = (-y, x)
        return order


_reading_key = _ReadingOrder().__getitem__


def districts(city: dict[str, Building]) -> list[list[str]]:
    """Maximal same-top-colour orthogonal groups of >= 2 buildings (§12.1.1), cells in reading order."""
    colours = {k: b.tiles[-1][0] for k, b in city.items()}
    seen: set[str] = set()
    out: list[list[str]] = []
    for k in sorted(colours, key=_reading_key):
        if k in seen:
            continue
        colour = colours[k]
        group = [k]
        seen.add(k)
        i = 0
        while i < len(group):
            for nk in _neighbour_keys(group[i]):
                if nk not in seen and colours.get(nk) == colour:
                    seen.add(nk)
                    group.append(nk)
            i += 1
        if len(group) >= 2:
            out.append(sorted(group, key=_reading_key))
    return out


def district_at(city: dict[str, Building], k: str) -> list[str]:
    """The cells of the same-top-colour group that holds cell ``k`` (a district when it has
    two or more, §12.1.1), in reading order, as :func:`districts` lists it: the one group
    that a change at ``k`` alone can make of the cells around it."""
    colour = city[k].tiles[-1][0]
    group = [k]
    seen = {k}
    i = 0
    while i < len(group):
        for nk in _neighbour_keys(group[i]):
            if nk not in seen and (b := city.get(nk)) is not None and b.tiles[-1][0] == colour:
                seen.add(nk)
                group.append(nk)
        i += 1
    return sorted(group, key=_reading_key)


def score_district(city: dict[str, Building], group: list[str]) -> dict[int, int]:
    """SP per owner for one district (§12.1 steps 2-5, D19 tie-breaks)."""
    r, ranked = _district_ranking(city, group)
    total = sum(r.values())
    alone = len(ranked) == 1
    return {o: _district_points(place, r[o], total, alone) for place, o in enumerate(ranked[:2], 1)}


def _district_ranking(
    city: dict[str, Building], group: list[str]
) -> tuple[dict[int, int], list[int]]:
    """Each owner's resources in one district (r_p) and the owners ranked (§12.1, D19)."""
    r: dict[int, int] = {}
    tallest: dict[int, tuple[int, int]] = {}
    for k in group:
        b = city[k]
        if b.owner is None:
            continue
        r[b.owner] = r.get(b.owner, 0) + len(b.tiles)
        cand = (len(b.tiles), D.NUMBER[b.tiles[-1]])
        if b.owner not in tallest or cand > tallest[b.owner]:
            tallest[b.owner] = cand
    ranked = sorted(r, key=lambda o: (r[o], *tallest[o]), reverse=True)
    return r, ranked


def _district_points(place: int, resources: int, total: int, alone: bool) -> int:
    """Rank 1 scores T, rank 2 its own r_p; alone, both rewards: 2 × r_p (§12.1 steps 4-5)."""
    return {1: total + (resources if alone else 0), 2: resources}.get(place, 0)


def district_detail(city: dict[str, Building], group: list[str]) -> dict[int, DistrictScore]:
    """Each participating owner's place and points in one district (§12.1, D19), for the log."""
    r, ranked = _district_ranking(city, group)
    if not r:
        return {}
    total = sum(r.values())
    alone = len(ranked) == 1
    colour = city[group[0]].tiles[-1][0]
    out: dict[int, DistrictScore] = {}
    for place, o in enumerate(ranked, start=1):
        out[o] = trusted(
            DistrictScore,
            colour=colour,
            buildings=len(group),
            resources=r[o],
            total=total,
            place=place,
            alone=alone,
            points=_district_points(place, r[o], total, alone),
        )
    return out


def district_scores(
    city: dict[str, Building], n_owners: int, groups: list[list[str]] | None = None
) -> list[int]:
    """Total district SP per owner index (``groups``: the :func:`districts` of the city,
    when they are known already)."""
    out = [0] * n_owners
    for group in districts(city) if groups is None else groups:
        for o, v in score_district(city, group).items():
            out[o] += v
    return out


def end_card_score(card: str, owner: int, city: dict[str, Building], tableau: list[str]) -> int:
    """SP of one end-game card (§4.2, §12.2, D7); ``tableau`` = characters + building cards."""
    bc = D.BUILDING_CARDS[card]
    if bc.kind != "end":
        return 0
    if bc.rule == "flat":
        return bc.per
    if bc.rule == "owned_colour":
        return bc.per * sum(
            1 for b in city.values() if b.owner == owner and b.top[0] == bc.target_colour
        )
    if bc.rule == "owned_height":
        return bc.per * sum(
            1
            for b in city.values()
            if b.owner == owner and bc.min_height <= b.height <= bc.max_height
        )
    if bc.rule == "tableau_trigger":
        return bc.per * sum(
            1 for c in tableau if (bn := D.bonus_of(c)) is not None and bn[0] == bc.target_trigger
        )
    if bc.rule == "tableau_colour":
        return bc.per * sum(1 for c in tableau if D.card_colour(c) == bc.target_colour)
    return 0


def end_cards_total(pl: PlayerState, owner: int, city: dict[str, Building]) -> int:
    tab = [*pl.characters, *pl.tableau]
    return sum(end_card_score(c, owner, city, tab) for c in pl.tableau)


def compute_scores(s: GinkgopolisState, groups: list[list[str]] | None = None) -> list[FinalScore]:
    """Final scores of every player (Hal included) (§12); ``groups`` as for
    :func:`district_scores`."""
    dist = district_scores(s.city, len(s.players), groups)
    out: list[FinalScore] = []
    for p, pl in enumerate(s.players):
        cards = end_cards_total(pl, p, s.city)
        tokens = pl.tokens * D.NEW_HAND_VALUE
        out.append(
            trusted(
                FinalScore,
                player=p,
                sp=pl.sp,
                districts=dist[p],
                cards=cards,
                tokens=tokens,
                total=pl.sp + dist[p] + cards + tokens,
            )
        )
    return out


def card_lines(pl: PlayerState, owner: int, city: dict[str, Building]) -> list[CardScore]:
    """Each end-game card of a tableau with what it counted (§12.2), in tableau order."""
    tab = [*pl.characters, *pl.tableau]
    out: list[CardScore] = []
    for card in pl.tableau:
        bc = D.BUILDING_CARDS[card]
        if bc.kind != "end":
            continue
        points = end_card_score(card, owner, city, tab)
        count = 1 if bc.rule == "flat" else points // bc.per
        out.append(trusted(CardScore, card=card, count=count, per=bc.per, points=points))
    return out


def _final_scoring(s: GinkgopolisState, ev: list[Event]) -> None:
    cells = districts(s.city)
    s.final = compute_scores(s, cells)
    put(s, "phase", "over")
    put(s, "queue", [])
    groups = [district_detail(s.city, g) for g in cells]
    for f in s.final:
        pl = s.players[f.player]
        ev.append(
            trusted(
                PlayerScored,
                player=f.player,
                sp=f.sp,
                districts=f.districts,
                cards=f.cards,
                tokens=f.tokens,
                total=f.total,
                hal=pl.hal,
                district_lines=[g[f.player] for g in groups if f.player in g],
                card_lines=card_lines(pl, f.player, s.city),
                new_hand_tokens=pl.tokens,
            )
        )
    if s.solo:
        you, hal = s.final[0].total, s.final[1].total
        ev.append(GameEnded(winners=[0] if you > hal else [], hal_won=you <= hal))
    else:
        best = max(f.total for f in s.final)
        ev.append(GameEnded(winners=[f.player for f in s.final if f.total == best]))


def automatic_opponents(s: GinkgopolisState) -> list[Opponent]:
    """Hal in the solo game (§15), with his SP so far; nobody in a game of two or more."""
    if not s.solo:
        return []
    return [Opponent(id="hal", name="Hal", score=s.players[1].sp, place=1)]


def result(s: GinkgopolisState) -> Result | None:
    """Final result (§12.3): shared victory on ties (D11); solo: beat Hal strictly (§15)."""
    if s.phase != "over" or s.final is None:
        return None
    if s.solo:
        you, hal = s.final[0].total, s.final[1].total
        won = you > hal
        return Result(
            scores={0: you},
            ranking=[0],
            places={0: 1 if won else 2},
            tiebreak="solo: you win only with strictly more SP than Hal (§15)",
            details={"hal": hal, "beat_hal": won, "breakdown": [f.model_dump() for f in s.final]},
            others=[Opponent(id="hal", name="Hal", score=hal, place=2 if won else 1)],
        )
    scores = {f.player: f.total for f in s.final}
    ranking, places = rank_by_score(scores)
    return Result(
        scores=scores,
        ranking=ranking,
        places=places,
        tiebreak="no tie-breaker: tied players share the place (§12.3, D11)",
        details={"breakdown": [f.model_dump() for f in s.final]},
    )


# --------------------------------------------------------------------------- protocol


def to_act(s: GinkgopolisState) -> frozenset[Seat]:
    """Seats that owe a decision now (§19c)."""
    if s.phase == "over":
        return frozenset()
    seats = range(s.n_players)
    pls = s.players
    # (lists, not generators, into frozenset: this runs several times per action)
    if s.phase == "draft":
        return frozenset([p for p in seats if not pls[p].draft_picked])
    if s.phase == "new_hand":
        return frozenset([p for p in seats if pls[p].new_hand is None and pls[p].tokens > 0])
    if s.phase == "select":
        return frozenset([p for p in seats if pls[p].selection is None])
    if s.phase == "contribute":
        return frozenset([p for p in seats if not pls[p].contribution_done])
    if s.decision is not None:
        return frozenset({s.decision.seat})
    return frozenset()


def _owes(s: GinkgopolisState, seat: Seat) -> bool:
    """``seat in to_act(s)``, without building the set of every seat that owes one."""
    phase = s.phase
    if phase == "resolve":
        return s.decision is not None and s.decision.seat == seat
    if phase == "over" or seat not in range(s.n_players):
        return False
    pl = s.players[seat]
    if phase == "select":
        return pl.selection is None
    if phase == "new_hand":
        return pl.new_hand is None and pl.tokens > 0
    if phase == "draft":
        return not pl.draft_picked
    return not pl.contribution_done  # contribute


@functools.lru_cache(maxsize=16384)
def _listed(kind: type[A], **fields: object) -> A:
    """The one shared instance of a legal action: actions are frozen values, and building
    a fresh validated model for every listing was most of the cost of legal_actions."""
    return trusted(kind, **fields)


class _SelectsOf(dict[str | None, Select]):
    """:func:`_listed` for the most listed action: the selections of one card, by tile
    (None: the card alone), each made on its first listing."""

    def __init__(self, card: str) -> None:
        super().__init__()
        self.card = card

    def __missing__(self, tile: str | None) -> Select:
        made = self[tile] = trusted(Select, card=self.card, tile=tile)
        return made


class _Selects(dict[str, _SelectsOf]):
    def __missing__(self, card: str) -> _SelectsOf:
        made = self[card] = _SelectsOf(card)
        return made


#: ``_SELECTS[card][tile]`` is the listed ``Select(card=card, tile=tile)``.
_SELECTS = _Selects()


def legal_actions(s: GinkgopolisState, seat: Seat) -> list[ActionModel]:
    """Every legal action of ``seat`` now, in the order of §19c.

    Exactly the actions :func:`action_problem` accepts, listed straight from the rules it
    checks (a selection by the prices of :func:`selection_problem`, worked out once per
    building) rather than by asking it about every card and tile;
    tests/unit/games/test_validation_shape.py holds the two to each other.
    """
    if not _owes(s, seat):
        return []
    pl = s.players[seat]
    if s.phase == "draft":
        return [_listed(DraftPick, character=c) for c in sorted(pl.draft_pile)]
    if s.phase == "new_hand":
        return [_listed(KeepHand), _listed(NewHand)]
    if s.phase == "select":
        return list(selection_actions(s, seat))
    if s.phase == "contribute":
        return [*(_listed(Contribute, tile=t) for t in pl.tiles), _listed(ContributeDone)]
    d = _pending(s)
    if d.kind == "take":
        return [_listed(Take, item=i) for i in d.items]
    return [_listed(MoveToken, cell=c) for c in d.candidates]


def _put(model: BaseModel, **values: object) -> None:
    """``model.name = value`` for each of ``values``, as pydantic assigns a field (into
    ``__dict__``, the name marked as set) with one call rather than two per field."""
    model.__dict__.update(values)
    model.__pydantic_fields_set__.update(values)


def _copied(model: M, **changes: object) -> M:
    """``model.model_copy(update=changes)`` without pydantic's generic copy machinery.

    The result is the same (a shallow copy, ``changes`` applied unvalidated, their names
    added to the fields set); the state models have no extra or private attributes, so the
    copy is only their ``__dict__``. ``apply`` copies a state, its players and selections
    on every call, which made pydantic's ``model_copy`` the largest cost of a game.
    """
    new = _new(model.__class__)
    d = model.__dict__.copy()
    d.update(changes)
    _set_dict(new, d)
    _set_fields_set(new, model.__pydantic_fields_set__ | changes.keys())
    _set_extra(new, None)
    _set_private(new, None)
    return new


_new = object.__new__
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__

#: The fields of a player that a copy of the state used to replace by copies, and so
#: marks as set (as ``model_copy`` does).
_PLAYER_COPIED: frozenset[str] = frozenset(
    {
        "tiles",
        "set_aside",
        "characters",
        "tableau",
        "hand",
        "selection",
        "draft_pile",
        "draft_kept",
    }
)


def _fork_player(pl: PlayerState) -> PlayerState:
    """A copy of a player that shares its lists and its selection: the engine never changes
    them in place but gives the player new ones (``pl.hand = [...]``)."""
    new = _new(PlayerState)
    _set_dict(new, pl.__dict__.copy())
    _set_fields_set(new, pl.__pydantic_fields_set__ | _PLAYER_COPIED)
    _set_extra(new, None)
    _set_private(new, None)
    return new


def _fork(s: GinkgopolisState) -> GinkgopolisState:
    """The copy of the state that ``apply`` changes: everything the engine changes in place
    is copied, the rest is shared with ``s``.

    Shared: the buildings of the city (a building that changes is replaced in the city
    dict, see :func:`_cover` and :func:`_rebuild`), the lists and selections of the
    players (replaced too, see :func:`_fork_player`), the Rng (replaced by a copy before
    it draws), the stacks, the removed tiles, the end reasons, the queued steps, the
    decision and the final scores. Copying all of them made the cost of apply grow with
    the city and was a large part of it.
    """
    return _copied(
        s,
        rng=s.rng,
        players=[_fork_player(pl) for pl in s.players],
        city=dict(s.city),
        tokens=dict(s.tokens),
        supply=list(s.supply),
        removed_tiles=s.removed_tiles,
        deck=list(s.deck),
        discard=list(s.discard),
        stacks=s.stacks,
        end_reasons=s.end_reasons,
        queue=list(s.queue),
        decision=s.decision,
        final=None if s.final is None else list(s.final),
    )


def clone(s: GinkgopolisState) -> GinkgopolisState:
    """An independent copy of the state: the mutable parts a caller may change in place
    are copied, which :func:`_fork` shares (the Rng, the stacks, the players' selections).

    The players' lists are shared (see :func:`_fork_player`): give a player new ones.
    """
    copy = _fork(s)
    copy.rng = _copied(s.rng)
    copy.stacks = {c: list(v) for c, v in s.stacks.items()}
    copy.removed_tiles = list(s.removed_tiles)
    copy.end_reasons = list(s.end_reasons)
    for pl in copy.players:
        if pl.selection is not None:
            pl.selection = _copied(pl.selection)
    return copy


#: The fields :func:`clone` replaces by copies (and so marks as set, as model_copy does).
_CLONED_FIELDS: frozenset[str] = frozenset(
    {
        "rng",
        "players",
        "city",
        "tokens",
        "supply",
        "removed_tiles",
        "deck",
        "discard",
        "stacks",
        "end_reasons",
        "queue",
        "decision",
        "final",
    }
)


def _choice_copy(s: GinkgopolisState, seat: Seat) -> GinkgopolisState:
    """The copy of ``s`` that one simultaneous choice (draft pick, New Hand declaration,
    selection, refill contribution) works on.

    Such a choice changes only the chooser's player, so only that player is copied and
    everything else is shared with ``s``; once the last choice is in, ``apply`` takes a
    full :func:`_fork` before the step goes on. Most actions are such choices.
    """
    players = list(s.players)
    players[seat] = _fork_player(players[seat])
    copy = _copied(s, players=players)
    # the same fields set as a clone leaves, so that no trace of the sharing remains
    copy.__pydantic_fields_set__.update(_CLONED_FIELDS)
    return copy


def _pending(s: GinkgopolisState) -> Decision:
    """The decision the resolution waits for: there is one whenever :func:`to_act` names a
    seat outside the simultaneous steps."""
    if s.decision is None:
        raise RuntimeError(f"no decision is pending in phase {s.phase}")
    return s.decision


def action_problem(s: GinkgopolisState, seat: Seat, action: ActionModel) -> RulesError | None:
    """Why ``seat`` may not take ``action`` now, as the error :func:`apply` raises; None if
    it may. The one legality check of Ginkgopolis: :func:`legal_actions` lists what it
    accepts."""
    if s.phase == "over":
        return GameOver("the game is over (§12)")
    if not _owes(s, seat):
        return NotYourTurn(f"seat {seat} has no decision to take now (phase {s.phase}, §19c)")
    pl = s.players[seat]
    if s.phase == "draft":
        if not isinstance(action, DraftPick):
            return IllegalAction(
                f"cannot {action.type} now: pick a character from your draft pile (§16.2)",
                "ginkgopolis.phase_draft",
            )
        if action.character not in pl.draft_pile:
            return IllegalAction(
                f"cannot draft {action.character}: it is not in the pile you hold (§16.2)",
                "ginkgopolis.not_in_pile",
            )
        return None
    if s.phase == "new_hand":
        if not isinstance(action, KeepHand | NewHand):
            return IllegalAction(
                f"cannot {action.type} now: first declare keep_hand or new_hand (§6.1.0)",
                "ginkgopolis.phase_new_hand",
            )
        return None
    if s.phase == "select":
        if not isinstance(action, Select):
            return IllegalAction(
                f"cannot {action.type} now: select a card and optionally a tile (§6.1.1)",
                "ginkgopolis.phase_select",
            )
        problem = selection_problem(s, seat, action.card, action.tile)
        if problem is not None:
            return IllegalAction(
                f"cannot select {action.card}{' + ' + action.tile if action.tile else ''}: {problem}",
                problem.reason,
                **problem.params,
            )
        return None
    if s.phase == "contribute":
        if isinstance(action, Contribute):
            if action.tile not in pl.tiles:
                return IllegalAction(
                    f"cannot contribute {action.tile}: it is not behind your screen (§10)",
                    "ginkgopolis.tile_not_held",
                )
            return None
        if isinstance(action, ContributeDone):
            return None
        return IllegalAction(
            f"cannot {action.type} now: contribute tiles to the refill or finish (§10)",
            "ginkgopolis.phase_contribute",
        )
    d = _pending(s)
    if d.kind == "take":
        if not isinstance(action, Take):
            return IllegalAction(
                f"cannot {action.type} now: choose the item of your {d.card} exploit (§7.1)",
                "ginkgopolis.phase_take",
            )
        if action.item not in d.items:
            return IllegalAction(
                f"cannot take a {action.item}: its supply is empty (§7.1, D15)",
                "ginkgopolis.supply_empty",
            )
        return None
    if not isinstance(action, MoveToken):
        return IllegalAction(
            f"cannot {action.type} now: move token {d.letter} (§7.2 step 5)",
            "ginkgopolis.phase_move_token",
            letter=d.letter,
        )
    cell = (action.cell[0], action.cell[1])
    if cell not in d.candidates:
        return IllegalAction(
            f"cannot move token {d.letter} to {list(cell)}: the candidates are "
            f"{[list(c) for c in d.candidates]} (§7.2 step 5, D2, D3)",
            "ginkgopolis.token_cell",
            letter=d.letter,
        )
    return None


def apply(
    s0: GinkgopolisState, seat: Seat, action: ActionModel
) -> tuple[GinkgopolisState, list[Event]]:
    """Apply one action to a copy of the state; raise what :func:`action_problem` finds (a
    RulesError naming the rule) if it is illegal.

    Once it is legal, the type of the action says the step: each belongs to one.
    """
    problem = action_problem(s0, seat, action)
    if problem is not None:
        raise problem
    ev: list[Event] = []
    if isinstance(action, Take | MoveToken):
        s = _fork(s0)
        _apply_decision(s, action, ev)
        _run(s, ev)
        return s, ev
    s = _choice_copy(s0, seat)
    pl = s.players[seat]
    # (the player's lists are shared with s0's player: replaced, never changed in place)
    if isinstance(action, DraftPick):
        pl.draft_pile = _without(pl.draft_pile, action.character)
        pl.draft_kept = [*pl.draft_kept, action.character]
        pl.draft_picked = True
        ev.append(
            trusted(DraftPicked, player=seat, character=action.character, visible_to=_ONLY[seat])
        )
        ev.append(_CHOICE_COMMITTED(seat, "draft"))
        if not to_act(s):
            s = _fork(s)
            _pass_draft_piles(s, ev)
    elif isinstance(action, KeepHand | NewHand):
        put(pl, "new_hand", isinstance(action, NewHand))
        ev.append(_NEW_HAND_CHOSEN(seat, pl.new_hand, _ONLY[seat]))
        ev.append(_CHOICE_COMMITTED(seat, "new_hand"))
        if not to_act(s):
            s = _fork(s)
            _process_new_hands(s, ev)
    elif isinstance(action, Select):
        _put(
            pl,
            selection=_selection(card=action.card, tile=action.tile),
            hand=_without(pl.hand, action.card),
        )
        if action.tile is not None:
            put(pl, "tiles", _without(pl.tiles, action.tile))
        ev.append(_SELECTION_MADE(seat, action.card, action.tile, _ONLY[seat]))
        ev.append(_CHOICE_COMMITTED_SELECT(seat, "select", action.tile is not None))
        if not to_act(s):
            s = _fork(s)
            _begin_resolution(s)
            _run(s, ev)
    else:  # a refill contribution
        if isinstance(action, Contribute):
            pl.tiles = _without(pl.tiles, action.tile)
            pl.set_aside = [*pl.set_aside, action.tile]
            ev.append(_CONTRIBUTION_MADE(seat, action.tile, _ONLY[seat]))
            if not pl.tiles:
                pl.contribution_done = True
        else:
            pl.contribution_done = True
        if pl.contribution_done:
            ev.append(_CHOICE_COMMITTED(seat, "contribute"))
        if not to_act(s):
            s = _fork(s)
            _finish_contributions(s, ev)
            _run(s, ev)
    return s, ev


def _without(items: list[str], item: str) -> list[str]:
    """A copy of ``items`` less the first ``item`` (as ``list.remove`` leaves it)."""
    out = list(items)
    out.remove(item)
    return out


def _pass_draft_piles(s: GinkgopolisState, ev: list[Event]) -> None:
    """Everyone has picked: pass the piles, or after the third pick finish the setup (§16.2)."""
    n = s.n_players
    s.draft_round += 1
    piles = [s.players[p].draft_pile for p in range(n)]
    for p in range(n):
        q = s.players[p]
        q.draft_picked = False
        q.draft_pile = sorted(piles[(p - 1) % n]) if s.draft_round < 3 else []
    if s.draft_round < 3:
        _tell_draft_piles(s, ev)
        return
    for p in range(n):
        q = s.players[p]
        q.characters = sorted(q.draft_kept)
        q.draft_kept = []
    ev.append(DraftCompleted(characters={p: list(s.players[p].characters) for p in range(n)}))
    _finish_setup(s, ev)


def _apply_decision(s: GinkgopolisState, action: Take | MoveToken, ev: list[Event]) -> None:
    d = _pending(s)
    put(s, "decision", None)
    if isinstance(action, Take):
        colour = "R" if action.item == "resource" else "B"
        _push(
            s,
            [{"kind": "gain", "player": d.player, "colour": colour, "amount": 1, "reason": d.card}],
        )
        return
    _move_token(s, d.letter, (action.cell[0], action.cell[1]), ev)


def max_length(n_players: int) -> int:
    """A generous bound on the number of actions (the rules have no round limit)."""
    return 3000 * max(1, n_players)
