"""The rules of Glück Auf (Coal Baron): state, setup, legality and apply.

Section numbers (§) refer to ``shared/rules/gluckauf.md``. The engine contract of
§11a splits every multi-part choice into single actions, so a turn is a
placement followed by zero or more sub-decisions (substitute coal, draw-5 keep /
end / return, mining steps); everything else (delivery, money, orders, refill,
shift end, scorings, new starting player, final scoring) runs inside ``apply``.

Legality has one source of truth, :func:`action_problem`: ``apply`` raises what it
finds, and :func:`legal_actions` lists exactly the actions it accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, Literal, TypeAlias, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field

from app.games.base import (
    Event,
    GameOver,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Refusal,
    Result,
    Rng,
    RulesError,
    Seat,
    rank_by_score,
)
from app.games.trusted import copy, maker, put, shared

from . import events as ev
from .actions import (
    AddCube,
    AnyAction,
    ChooseCoal,
    ChooseEnd,
    DraftOrder,
    GluckaufAction,
    KeepItem,
    LoadCube,
    MoveCage,
    PlaceStoredCube,
    PlaceWorker,
    ReturnItem,
    StartTwoForOne,
    StopMining,
    StoreCube,
    UnloadCube,
)
from .data import (
    CAGE_CAPACITY,
    COLOURS,
    CUBES_PER_COLOUR,
    DRAW_SIZE,
    LEVEL_OF,
    ORDER_SPACES,
    ORDERS,
    ORDERS_PER_PLAYER_IN_DRAFT,
    PARAMS,
    PRINTED_CARTS,
    SHIFTS,
    SPACE_BY_ID,
    SPACES,
    STARTING_PLAYER_SPACES,
    TILE_SPACES,
    TILES,
    TRANSPORT_NAMES,
    Colour,
    Space,
    SpaceId,
    Transport,
    categories_for_shift,
    open_spaces,
)

Phase: TypeAlias = Literal[
    "draft",
    "place",
    "choose_coal",
    "keep",
    "choose_end",
    "return",
    "mining",
    "two_for_one",
    "over",
]


# --------------------------------------------------------------------------- state


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GluckaufOptions(_Model):
    """Table options (§11a): fixed starting player, public delivered piles."""

    starting_player: int | None = Field(
        default=None, description="Seat that starts shift 1; null = drawn at random (§11 step 3)."
    )
    delivered_visible: bool = Field(
        default=False, description="Show every delivered pile to everyone (§10)."
    )


class OwnedTile(_Model):
    """A tunnel tile in a pit; ``carts`` holds each cart's cube (None = empty)."""

    tile: int
    carts: list[Colour | None]


class Outstanding(_Model):
    """An outstanding order; ``spots[i]`` lists the cubes on spot i ([] = empty, 2 = two-for-one)."""

    card: int
    spots: list[list[Colour]]


def _full_printed_carts() -> list[Colour | None]:
    """The printed carts at setup: each holds one cube of its level's colour (§4 step 5)."""
    return [c.colour for c in PRINTED_CARTS]


class PlayerState(_Model):
    supply: int
    canteen: int = 0
    money: int
    vp: int = 0
    cage_level: int = 0
    cage: list[Colour] = Field(default_factory=list)
    storage: list[Colour] = Field(default_factory=list)
    printed: list[Colour | None] = Field(default_factory=lambda: _full_printed_carts())
    tiles: list[OwnedTile] = Field(default_factory=list)
    orders: list[Outstanding] = Field(default_factory=list)
    delivered: list[int] = Field(default_factory=list)


class Occupant(_Model):
    seat: int
    count: int


class DrawState(_Model):
    """A pending draw-5 (§7.2 / §7.8). ``placed`` = returned items chosen so far, upper first."""

    kind: Literal["tile", "order"]
    drawn: list[int]
    kept: int | None = None
    kept_chosen: bool = False
    end: Literal["top", "bottom"] | None = None
    placed: list[int] = Field(default_factory=list)


class ShortageState(_Model):
    """Carts of a just-bought tile still waiting for a substitute cube (§7.1 step 4)."""

    tile_index: int
    carts: list[int]
    then: Literal["end_turn", "draw"]


class MiningState(_Model):
    space: SpaceId
    budget: int
    tfo_order: int | None = None
    tfo_colour: Colour | None = None
    tfo_cubes: list[Colour] = Field(default_factory=list)


class FinalScore(_Model):
    money_vp: int
    money_left: int
    coal_vp: int
    order_penalty: int
    imbalance_penalty: int
    total: int


class GluckaufState(_Model):
    n_players: int
    options: GluckaufOptions
    rng: Rng
    phase: Phase
    shift: int = 1
    start_player: int
    active: int
    stack: list[int]
    deck: list[int]
    factory: dict[str, int | None]
    order_spaces: dict[str, int | None]
    occupants: dict[str, Occupant] = Field(default_factory=dict)
    bank: list[int]
    coal: dict[Colour, int]
    display: list[int] = Field(default_factory=list)
    draft_picks: int = 0
    players: list[PlayerState]
    draw: DrawState | None = None
    shortage: ShortageState | None = None
    mining: MiningState | None = None
    final: list[FinalScore] | None = None
    tiebreak: str = ""
    turns: int = 0


# --------------------------------------------------------------------------- options / setup


def validate_options(options: GluckaufOptions, n_players: int) -> None:
    """Raise InvalidOptions with a human reason if ``options``/``n_players`` are invalid."""
    if n_players not in PARAMS:
        raise InvalidOptions(
            f"Glück Auf is for 2 to 4 players, not {n_players} (§2)",
            reason="gluckauf.players",
            min=min(PARAMS),
            max=max(PARAMS),
            seats=n_players,
        )
    sp = options.starting_player
    if sp is not None and not 0 <= sp < n_players:
        raise InvalidOptions(
            f"starting_player must be a seat 0..{n_players - 1} or null, got {sp} (§11a)",
            reason="gluckauf.starting_player",
            option="starting_player",
            seats=n_players,
        )


def setup(n_players: int, seed: int, options: GluckaufOptions) -> GluckaufState:
    """Return the state after setup (§4), ready for the opening draft.

    Always ``start(n_players, seed, options)[0]``.
    """
    return start(n_players, seed, options)[0]


def start(n_players: int, seed: int, options: GluckaufOptions) -> tuple[GluckaufState, list[Event]]:
    """Return the state after setup (§4) and the public events that announce it.

    The three random events run in the order of §11: tile shuffle, order shuffle,
    starting player (skipped when the option fixes it). What they put face up is
    announced with the events a later turn uses for the same thing, all public (§10):

    - ``FactoryLaidOut``: the tile laid on each open factory space from the top of the
      stack (§4 step 3), by space in ascending id order;
    - ``StartingPlayerDrawn``: the starting player of shift 1 (§4 step 6), ``drawn``
      (§11 step 3) or fixed by the host's option, not the factory count of §8.2. It is
      announced when fixed too, so the log always says who starts;
    - ``DraftDisplayLaidOut``: the order cards of the draft display (§4 step 7).

    The order spaces stay empty until the end of the draft, whose ``OrderSpacesFilled``
    announces them (§4 step 9).
    """
    params = PARAMS[n_players]
    rng = Rng.from_seed(seed)
    stack = list(range(len(TILES)))
    rng.shuffle(stack)
    deck = list(range(len(ORDERS)))
    rng.shuffle(deck)
    # Step 3 of §11 is skipped when the host fixes the starting player.
    starter = rng.below(n_players) if options.starting_player is None else options.starting_player
    usable = {s.id for s in open_spaces(n_players)}
    factory: dict[str, int | None] = {}
    for sid in TILE_SPACES:
        if sid in usable:
            factory[sid] = stack.pop(0)
    order_spaces: dict[str, int | None] = {sid: None for sid in ORDER_SPACES if sid in usable}
    display = deck[: params.draft_cards]
    del deck[: params.draft_cards]
    events: list[Event] = [
        ev.FactoryLaidOut(tiles={sid: tile for sid, tile in factory.items() if tile is not None}),
        ev.StartingPlayerDrawn(seat=starter, drawn=options.starting_player is None),
        ev.DraftDisplayLaidOut(cards=sorted(display)),
    ]
    coal: dict[Colour, int] = {c: CUBES_PER_COLOUR - n_players for c in COLOURS}
    # Made as validation would make them from these values, all fresh and of the fields' types
    # (see trusted.py): validating the whole table took a fifth of a game's setup.
    players = [_PLAYER(supply=params.workers, money=params.money) for _ in range(n_players)]
    state = _STATE(
        n_players=n_players,
        options=options,
        rng=rng,
        phase="draft",
        start_player=starter,
        active=(starter - 1) % n_players,
        stack=stack,
        deck=deck,
        factory=factory,
        order_spaces=order_spaces,
        bank=[0] * n_players,
        coal=coal,
        display=sorted(display),
        players=players,
    )
    return state, events


_PLAYER = maker(PlayerState)
_STATE = maker(GluckaufState)


def max_length(n_players: int) -> int:
    """§11a: ``3n + 3 * (W * n) * 16`` (W = workers per player)."""
    w = PARAMS[n_players].workers if n_players in PARAMS else 18
    return 3 * n_players + SHIFTS * (w * n_players) * 16


# --------------------------------------------------------------------------- queries


_NOBODY: frozenset[Seat] = frozenset()
_ONE_SEAT: tuple[frozenset[Seat], ...] = tuple(frozenset({seat}) for seat in range(max(PARAMS)))


def to_act(state: GluckaufState) -> frozenset[Seat]:
    """Exactly one seat while the game runs (the drafter or the active player, §11a)."""
    if state.phase == "over":
        return _NOBODY
    active = state.active
    return _ONE_SEAT[active] if 0 <= active < len(_ONE_SEAT) else frozenset({active})


def workers_needed(state: GluckaufState, space: str) -> int:
    """Workers a placement on ``space`` takes: 1 on BANK or an empty space, else n + 1 (§6)."""
    if space == "BANK":
        return 1
    occ = state.occupants.get(space)
    return 1 if occ is None else occ.count + 1


def is_complete(order: Outstanding) -> bool:
    return all(order.spots)


def space_requirement(state: GluckaufState, seat: Seat, space: str) -> Refusal | None:
    """Return why ``space`` cannot be fully performed by ``seat`` (§6.3), or None if it can."""
    sp = SPACE_BY_ID.get(space)
    if sp is None:
        return Refusal(f"{space} is not a worker space (§3.5)", "gluckauf.no_space")
    if not sp.open_for(state.n_players):
        return Refusal(
            f"{space} is covered by a lock tile with {state.n_players} players (§3.5)",
            "gluckauf.space_locked",
            players=state.n_players,
        )
    return _open_space_requirement(state, state.players[seat], sp)


def _deliverable(p: PlayerState) -> set[Transport]:
    """The transports of the complete orders of ``p``: those a delivery can take (§7.4)."""
    return {ORDERS[o.card].transport for o in p.orders if is_complete(o)}


def _open_space_requirement(
    state: GluckaufState, p: PlayerState, sp: Space, deliverable: set[Transport] | None = None
) -> Refusal | None:
    """:func:`space_requirement` for a space known to be open.

    ``deliverable`` is :func:`_deliverable` of ``p``; legal_actions, which asks about every
    open space, works it out once rather than once per delivery space.
    """
    space, group = sp.id, sp.group
    if group == "factory":
        if space == "FACT-DRAW":
            if not state.stack:
                return Refusal("the tile stack is empty (§6.3)", "gluckauf.stack_empty")
        else:
            tile = state.factory.get(space)
            if tile is None:
                return Refusal(
                    f"{space} holds no tile (the stack is exhausted, §7.9)", "gluckauf.no_tile"
                )
            cost = TILES[tile].cost
            if p.money < cost:
                return Refusal(
                    f"the tile on {space} costs {cost} Marks and you have {p.money} (§6.3)",
                    "gluckauf.tile_cost",
                    cost=cost,
                    money=p.money,
                )
    elif group == "order":
        if space == "ORDER-DRAW":
            if not state.deck:
                return Refusal("the order deck is empty (§6.3)", "gluckauf.deck_empty")
        elif state.order_spaces.get(space) is None:
            return Refusal(
                f"{space} holds no order card (the deck is exhausted, §7.9)", "gluckauf.no_order"
            )
    elif group == "delivery" and sp.transport not in (
        _deliverable(p) if deliverable is None else deliverable
    ):
        name = TRANSPORT_NAMES[sp.transport] if sp.transport else "?"
        return Refusal(
            f"you have no complete {name} order to deliver (§6.3, §7.4)", "gluckauf.no_delivery"
        )
    need = workers_needed(state, space)
    if p.supply < need:
        return Refusal(
            f"{space} needs {need} workers and you have {p.supply} in supply (§6.1)",
            "gluckauf.workers",
            need=need,
            have=p.supply,
        )
    return None


def _carts_at_level(p: PlayerState, level: int) -> list[Colour | None]:
    contents: list[Colour | None] = [p.printed[level - 1]]
    for owned in p.tiles:
        if TILES[owned.tile].level == level:
            contents.extend(owned.carts)
    return contents


def _sorted_orders(p: PlayerState) -> list[Outstanding]:
    return sorted(p.orders, key=_CARD)


_CARD = attrgetter("card")


def _empty_spot_colours(order: Outstanding) -> set[Colour]:
    spots = ORDERS[order.card].spots
    return {spots[i] for i, cubes in enumerate(order.spots) if not cubes}


# Legal-action lists are made of these ready-made actions, one per possible action: they are
# frozen, so a list may share them, and validating a new model for every listed action cost
# more than the rules that decide which ones are listed.
_DRAFT_ORDER = [DraftOrder(card=card) for card in range(len(ORDERS))]
_PLACE_WORKER = {sp.id: PlaceWorker(space=sp.id) for sp in SPACES}
_CHOOSE_COAL = {c: ChooseCoal(colour=c) for c in COLOURS}
_KEEP_ITEM = [KeepItem(item=item) for item in range(max(len(TILES), len(ORDERS)))]
_KEEP_NOTHING = KeepItem(item=None)
_CHOOSE_END = [ChooseEnd(end="top"), ChooseEnd(end="bottom")]
_RETURN_ITEM = [ReturnItem(item=item) for item in range(max(len(TILES), len(ORDERS)))]
_MOVE_CAGE = [MoveCage(level=level) for level in range(5)]
_LOAD_CUBE = {c: LoadCube(colour=c) for c in COLOURS}
_UNLOAD_CUBE = {
    (card, c): UnloadCube(order=card, colour=c) for card in range(len(ORDERS)) for c in COLOURS
}
_STORE_CUBE = {c: StoreCube(colour=c) for c in COLOURS}
_PLACE_STORED_CUBE = {
    (card, c): PlaceStoredCube(order=card, colour=c) for card in range(len(ORDERS)) for c in COLOURS
}
_START_TWO_FOR_ONE = {
    (card, c): StartTwoForOne(order=card, colour=c) for card in range(len(ORDERS)) for c in COLOURS
}
_ADD_CUBE = {
    (source, c): AddCube(source=source, colour=c) for source in ("cage", "storage") for c in COLOURS
}
_STOP_MINING = StopMining()


# What a placement on each open space depends on besides the workers it takes (§6.3): the kind
# of the space, and for a delivery space its transport. One entry per open space, in listing
# order, made once per player count: legal_actions asks about every open space at every turn.
_ANY, _BANK, _TILE, _TILE_DRAW, _ORDER, _ORDER_DRAW, _DELIVERY = range(7)
Placement: TypeAlias = tuple[PlaceWorker, str, int, "Transport | None"]


def _placement_kind(sp: Space) -> int:
    if sp.id == "BANK":
        return _BANK
    if sp.group == "factory":
        return _TILE_DRAW if sp.id == "FACT-DRAW" else _TILE
    if sp.group == "order":
        return _ORDER_DRAW if sp.id == "ORDER-DRAW" else _ORDER
    return _DELIVERY if sp.group == "delivery" else _ANY


_PLACEMENTS: dict[int, tuple[Placement, ...]] = {
    n: tuple(
        (_PLACE_WORKER[sp.id], sp.id, _placement_kind(sp), sp.transport) for sp in open_spaces(n)
    )
    for n in PARAMS
}
_PLACEMENT_BY_SPACE: dict[int, dict[str, Placement]] = {
    n: {entry[1]: entry for entry in entries} for n, entries in _PLACEMENTS.items()
}
_TILE_COST: tuple[int, ...] = tuple(t.cost for t in TILES)
_TILE_LEVEL: tuple[int, ...] = tuple(t.level for t in TILES)


def _placeable(state: GluckaufState, p: PlayerState, entry: Placement) -> bool:
    """Whether ``p`` may place on the open space of ``entry``: :func:`_open_space_requirement`
    is None, answered without wording a refusal."""
    _, space, kind, transport = entry
    if kind != _BANK:
        occ = state.occupants.get(space)
        if (1 if occ is None else occ.count + 1) > p.supply:
            return False
    else:
        return p.supply >= 1
    if kind == _TILE:
        tile = state.factory.get(space)
        return tile is not None and _TILE_COST[tile] <= p.money
    if kind == _TILE_DRAW:
        return bool(state.stack)
    if kind == _ORDER_DRAW:
        return bool(state.deck)
    if kind == _ORDER:
        return state.order_spaces.get(space) is not None
    if kind == _DELIVERY:
        return transport in _deliverable(p)
    return True


def legal_actions(state: GluckaufState, seat: Seat) -> list[AnyAction]:
    """Every action ``seat`` may take now, in the order of §11a; empty if not to act.

    Exactly the actions :func:`action_problem` accepts, listed straight from the rules it
    checks (a placement as :func:`_placeable` answers it) rather than by asking it about
    every action of the phase; tests/unit/games/test_validation_shape.py holds the two to
    each other.
    """
    if state.phase == "over" or seat != state.active:
        return []
    phase = state.phase
    p = state.players[seat]
    if phase == "place":
        return _placements(state, p)
    if phase == "mining":
        return _mining_actions(_under_way(state.mining, "the mining action"), p)
    if phase == "draft":
        return [_DRAFT_ORDER[c] for c in sorted(state.display)]
    if phase == "choose_coal":
        return [_CHOOSE_COAL[c] for c in COLOURS if state.coal[c] > 0]
    if phase == "keep":
        d = _under_way(state.draw, "the draw-5")
        if d.kind == "tile":
            items = [t for t in sorted(d.drawn) if TILES[t].cost <= p.money]
        else:
            items = sorted(d.drawn)
        out: list[AnyAction] = [_KEEP_ITEM[i] for i in items]
        out.append(_KEEP_NOTHING)
        return out
    if phase == "choose_end":
        return list(_CHOOSE_END)
    if phase == "return":
        return [_RETURN_ITEM[i] for i in _unplaced(state)]
    outs: list[AnyAction] = []  # two_for_one
    if p.cage_level == 0:
        outs.extend(_ADD_CUBE["cage", c] for c in COLOURS if c in p.cage)
    outs.extend(_ADD_CUBE["storage", c] for c in COLOURS if c in p.storage)
    return outs


def _placements(state: GluckaufState, p: PlayerState) -> list[AnyAction]:
    """The legal placements: :func:`_placeable` for every open space, as a set of spaces.

    This is the most frequent question of a game. Each space is a bit: the open spaces that
    need only workers start set, the others are set when their tile, card, pile or complete
    order is there, and the occupied spaces the seat has too few workers to oust are cleared.
    The listing of each set of spaces is made once.
    """
    supply = p.supply
    if supply < 1:
        return []  # every space takes at least one worker
    n = state.n_players
    mask = _PLAIN_MASK[n]
    money = p.money
    for space, tile in state.factory.items():
        if tile is not None and _TILE_COST[tile] <= money:
            mask |= _TILE_SPACE_BIT.get(space, 0)
    for space, card in state.order_spaces.items():
        if card is not None:
            mask |= _ORDER_SPACE_BIT.get(space, 0)
    if state.stack:
        mask |= _TILE_DRAW_BIT
    if state.deck:
        mask |= _ORDER_DRAW_BIT
    for o in p.orders:
        if all(o.spots):
            mask |= _DELIVERY_BIT[_ORDER_TRANSPORT[o.card]]
    for space, occ in state.occupants.items():
        if occ.count >= supply:
            mask &= ~_OUSTABLE_BIT.get(space, 0)
    mask &= _OPEN_MASK[n]
    # The listing of the first spaces and of the rest, each made once for each set of spaces.
    first = _FIRST_LISTS.get(mask & _FIRST_MASK)
    if first is None:
        first = _FIRST_LISTS[mask & _FIRST_MASK] = _listing(mask & _FIRST_MASK)
    rest = _REST_LISTS.get(mask & ~_FIRST_MASK)
    if rest is None:
        rest = _REST_LISTS[mask & ~_FIRST_MASK] = _listing(mask & ~_FIRST_MASK)
    return [*first, *rest]


def _listing(mask: int) -> tuple[PlaceWorker, ...]:
    """The placements on the spaces of ``mask``, in the row order of table 3.5."""
    return tuple(action for bit, action in _BITS_AND_ACTIONS if mask & bit)


# Bits of the spaces for _placements (one per space, in the row order of table 3.5).
_SPACE_BIT: dict[str, int] = {sp.id: 1 << i for i, sp in enumerate(SPACES)}
_OPEN_MASK: dict[int, int] = {n: sum(_SPACE_BIT[sp.id] for sp in open_spaces(n)) for n in PARAMS}
_PLAIN_MASK: dict[int, int] = {
    n: sum(_SPACE_BIT[sp.id] for sp in open_spaces(n) if _placement_kind(sp) in (_ANY, _BANK))
    for n in PARAMS
}
_TILE_SPACE_BIT: dict[str, int] = {
    sp.id: _SPACE_BIT[sp.id] for sp in SPACES if _placement_kind(sp) == _TILE
}
_ORDER_SPACE_BIT: dict[str, int] = {
    sp.id: _SPACE_BIT[sp.id] for sp in SPACES if _placement_kind(sp) == _ORDER
}
_TILE_DRAW_BIT = _SPACE_BIT["FACT-DRAW"]
_ORDER_DRAW_BIT = _SPACE_BIT["ORDER-DRAW"]
_DELIVERY_BIT: dict[Transport | None, int] = {
    sp.transport: _SPACE_BIT[sp.id] for sp in SPACES if _placement_kind(sp) == _DELIVERY
}
# Every space but the bank can be made to need more workers by its occupant (§6).
_OUSTABLE_BIT: dict[str, int] = {
    sp.id: _SPACE_BIT[sp.id] for sp in SPACES if _placement_kind(sp) != _BANK
}
_ORDER_TRANSPORT: tuple[Transport, ...] = tuple(o.transport for o in ORDERS)
_BITS_AND_ACTIONS: tuple[tuple[int, PlaceWorker], ...] = tuple(
    (_SPACE_BIT[sp.id], _PLACE_WORKER[sp.id]) for sp in SPACES
)
# The first 13 spaces (the factory and the mines) and the other 14: at most 8,192 and 16,384
# listings, where the sets of all 27 spaces seen in games run to many thousands.
_FIRST_MASK = (1 << 13) - 1
_FIRST_LISTS: dict[int, tuple[PlaceWorker, ...]] = {}
_REST_LISTS: dict[int, tuple[PlaceWorker, ...]] = {}


# The cage moves from each level: to every other level (§7.3, decision 21).
_CAGE_MOVES: tuple[tuple[AnyAction, ...], ...] = tuple(
    tuple(_MOVE_CAGE[lv] for lv in range(5) if lv != level) for level in range(5)
)


def _mining_actions(m: MiningState, p: PlayerState) -> list[AnyAction]:
    level = p.cage_level
    cage, storage = p.cage, p.storage
    out: list[AnyAction] = list(_CAGE_MOVES[level])
    if level != 0 and len(cage) < CAGE_CAPACITY:
        # Load a colour found in a cart on the cage's level, if the cage has room (§7.3):
        # _colours_at_level, written out as the most frequent step of a mining action.
        present: set[Colour | None] = {p.printed[level - 1]}
        for owned in p.tiles:
            if _TILE_LEVEL[owned.tile] == level:
                present.update(owned.carts)
        for c in COLOURS:
            if c in present:
                out.append(_LOAD_CUBE[c])
        unload = False
        reachable = len(storage)
    else:
        unload = level == 0 and bool(cage)
        reachable = len(storage) + (len(cage) if level == 0 else 0)
    two_for_one = m.budget >= 2 and reachable >= 2  # _two_for_one_possible
    if not (unload or storage or two_for_one):
        # Nothing to put on an order (nor two cubes for a two-for-one): moves, loads and stop.
        out.append(_STOP_MINING)
        return out
    empties = [(o.card, _empty_spot_colours(o)) for o in _sorted_orders(p)]
    if unload:
        for card, cols in empties:
            out.extend([_UNLOAD_CUBE[card, c] for c in COLOURS if c in cols and c in cage])
        out.extend([_STORE_CUBE[c] for c in COLOURS if c in cage])
    if storage:
        for card, cols in empties:
            out.extend([_PLACE_STORED_CUBE[card, c] for c in COLOURS if c in cols and c in storage])
    if two_for_one:
        for card, cols in empties:
            out.extend([_START_TWO_FOR_ONE[card, c] for c in COLOURS if c in cols])
    out.append(_STOP_MINING)
    return out


def _colours_at_level(p: PlayerState, level: int) -> set[Colour | None]:
    """The contents of the carts on ``level`` (None = an empty cart), as a set."""
    present: set[Colour | None] = {p.printed[level - 1]}
    for owned in p.tiles:
        if _TILE_LEVEL[owned.tile] == level:
            present.update(owned.carts)
    return present


def _two_for_one_possible(m: MiningState, p: PlayerState) -> bool:
    """A two-for-one needs 2 steps left and 2 cubes within reach: those in storage, and those
    in the cage while it is at the surface (§7.3)."""
    reachable = len(p.storage) + (len(p.cage) if p.cage_level == 0 else 0)
    return m.budget >= 2 and reachable >= 2


T = TypeVar("T")


def _under_way(part: T | None, what: str) -> T:
    """The part of a turn under way (a draw-5, a shortage, a mining action, ...) that the
    phase says is there; ``what`` names it should the state ever lack it."""
    if part is None:
        raise RuntimeError(f"{what} is missing from the state although the phase needs it")
    return part


def _unplaced(state: GluckaufState) -> list[int]:
    d = _under_way(state.draw, "the draw-5")
    kept, placed = d.kept, d.placed
    unplaced = [i for i in d.drawn if i != kept and i not in placed]
    unplaced.sort()
    return unplaced


# --------------------------------------------------------------------------- apply

# Every member of the discriminated union, for the isinstance guard in ``apply``.
_ACTION_TYPES: tuple[type, ...] = get_args(get_args(GluckaufAction)[0])


def apply(state: GluckaufState, seat: Seat, action: AnyAction) -> tuple[GluckaufState, list[Event]]:
    """Return the next state and the events; raise what :func:`action_problem` finds (a
    RulesError naming the rule) if the action is illegal.

    The new state starts as a shallow copy of ``state`` that shares every list, dict and
    part with it; the rules copy each part before they change it (:func:`_own`, :func:`_pit`,
    ...), so ``state`` is never changed and the new state is what a deep copy changed in place
    would have become. A deep copy of the whole table, and later a copy of everything an action
    might change, took most of the time of an action.
    """
    # The quick yes of action_problem and the handler in one look-up by the exact type: a
    # legal action, nearly every one, takes no other step before the rules change the state.
    fast = _FAST.get(type(action))
    if fast is None or seat != state.active or not fast[0](state, state.players[seat], action):
        problem = action_problem(state, seat, action)
        if problem is not None:
            raise problem
    s = copy(state)
    events: list[Event] = []
    if fast is None:
        _dispatch(s, seat, action, events)
    else:
        fast[1](s, seat, action, events)
    return s, events


M = TypeVar("M", bound=BaseModel)


def _copy(model: M, **fresh: Any) -> M:
    """A shallow copy of ``model`` with the fields in ``fresh`` replaced by new containers
    (put straight into ``__dict__``: like a change in place, they are not marked as set)."""
    new = copy(model)
    new.__dict__.update(fresh)
    return new


def _own(model: BaseModel, name: str) -> Any:
    """The list or dict in field ``name`` of ``model``, replaced by a copy the action may change.

    Call it once per field and action, before any change: the container it replaces may be
    shared with the state ``apply`` was given.
    """
    fresh = model.__dict__[name] = model.__dict__[name].copy()
    return fresh


def _pit(s: GluckaufState, seat: Seat) -> PlayerState:
    """The acting seat's PlayerState, copied so the action may change its numbers; its lists
    are still shared (:func:`_own` them). Call it once per action, before any change."""
    players = s.__dict__["players"] = s.players.copy()
    p = players[seat] = copy(players[seat])
    return p


def _own_draw(s: GluckaufState) -> DrawState:
    """The pending draw-5, copied with its list of returned items."""
    d = _under_way(s.draw, "the draw-5")
    d = s.__dict__["draw"] = _copy(d, placed=d.placed.copy())
    return d


def _own_tile(p: PlayerState, index: int) -> OwnedTile:
    """The tile ``p.tiles[index]``, made safe to change (``p.tiles`` must be owned)."""
    owned = p.tiles[index] = _copy(p.tiles[index], carts=list(p.tiles[index].carts))
    return owned


def _own_order(p: PlayerState, index: int) -> Outstanding:
    """The order ``p.orders[index]``, made safe to change (``p.orders`` must be owned)."""
    order = p.orders[index] = _copy(p.orders[index], spots=list(p.orders[index].spots))
    return order


# The models apply makes, built from values the rules made (see trusted.py).
_OCCUPANT = maker(Occupant)
_OWNED_TILE = maker(OwnedTile)
_OUTSTANDING = maker(Outstanding)
_DRAW_STATE = maker(DrawState)
_SHORTAGE_STATE = maker(ShortageState)
_MINING_STATE = maker(MiningState)
_ORDER_DRAFTED = shared(ev.OrderDrafted, "seat", "card")
_ORDER_SPACES_FILLED = maker(ev.OrderSpacesFilled)
_WORKER_PLACED = shared(ev.WorkerPlaced, "seat", "space", "count", "ousted_seat", "ousted_count")
_WORKER_PLACED_ALONE = shared(ev.WorkerPlaced, "seat", "space", "count")
_TILE_BOUGHT = maker(ev.TileBought)
_COAL_SUBSTITUTED = shared(ev.CoalSubstituted, "seat", "tile", "colour")
_ITEMS_DRAWN = shared(ev.ItemsDrawn, "seat", "kind", "count")
_ITEMS_SEEN = maker(ev.ItemsSeen)
_ITEM_KEPT = shared(ev.ItemKept, "seat", "kind", "item")
_ITEMS_RETURNED = shared(ev.ItemsReturned, "seat", "kind", "count", "end")
_ITEMS_RETURNED_PRIVATELY = maker(ev.ItemsReturnedPrivately)
_MONEY_GAINED = shared(ev.MoneyGained, "seat", "amount")
_ORDER_TAKEN = shared(ev.OrderTaken, "seat", "space", "card")
_MINING_STARTED = shared(ev.MiningStarted, "seat", "steps")
_CAGE_MOVED = shared(ev.CageMoved, "seat", "from_level", "to_level", "steps_left")
_CUBE_LOADED = shared(ev.CubeLoaded, "seat", "level", "colour", "steps_left")
_CUBE_UNLOADED = shared(ev.CubeUnloaded, "seat", "order", "colour", "steps_left")
_CUBE_STORED = shared(ev.CubeStored, "seat", "colour", "steps_left")
_STORED_CUBE_PLACED = shared(ev.StoredCubePlaced, "seat", "order", "colour", "steps_left")
_TWO_FOR_ONE_STARTED = shared(ev.TwoForOneStarted, "seat", "order", "colour")
_CUBE_ADDED = shared(ev.CubeAdded, "seat", "source", "colour", "steps_left")
_MINING_ENDED = shared(ev.MiningEnded, "seat", "steps_lost")
_ORDERS_DELIVERED = maker(ev.OrdersDelivered)
_SPACE_REFILLED = shared(ev.SpaceRefilled, "space", "item")
_SHIFT_STARTED = shared(ev.ShiftStarted, "shift", "starting_player")


def _dispatch(s: GluckaufState, seat: Seat, action: AnyAction, events: list[Event]) -> None:
    kind = type(action)
    handler = _HANDLERS.get(kind)
    if handler is None:  # a look-alike (a subclass) is handled as its action
        handler = next(_HANDLERS[c] for c in kind.__mro__ if c in _HANDLERS)
    handler(s, seat, action, events)


# A look-up by type rather than a chain of isinstance checks: every failed check of a pydantic
# model class goes through ABCMeta and costs as much as a whole simple step of the rules.


def _on_draft(s: GluckaufState, seat: Seat, action: DraftOrder, events: list[Event]) -> None:
    _draft(s, seat, action.card, events)


def _on_coal(s: GluckaufState, seat: Seat, action: ChooseCoal, events: list[Event]) -> None:
    _choose_coal(s, seat, action.colour, events)


def _on_keep(s: GluckaufState, seat: Seat, action: KeepItem, events: list[Event]) -> None:
    _keep(s, seat, action.item, events)


def _on_end(s: GluckaufState, seat: Seat, action: ChooseEnd, events: list[Event]) -> None:
    put(_own_draw(s), "end", action.end)
    _after_end(s, seat, events)


def _on_return(s: GluckaufState, seat: Seat, action: ReturnItem, events: list[Event]) -> None:
    _own_draw(s).placed.append(action.item)
    _after_end(s, seat, events)


# ---- draft (§4 steps 8-10)


def _draft(s: GluckaufState, seat: Seat, card: int, events: list[Event]) -> None:
    display: list[int] = _own(s, "display")
    display.remove(card)
    _own(_pit(s, seat), "orders").append(_new_outstanding(card))
    events.append(_ORDER_DRAFTED(seat, card))
    put(s, "draft_picks", s.draft_picks + 1)
    n = s.n_players
    if s.draft_picks < ORDERS_PER_PLAYER_IN_DRAFT * n:
        # Counter-clockwise from the starting player's right-hand neighbour (decision 19).
        put(s, "active", (s.start_player - 1 - s.draft_picks) % n)
        return
    order_spaces: dict[str, int | None] = _own(s, "order_spaces")
    deck: list[int] = _own(s, "deck")
    filled: dict[str, int] = {}
    spaces = list(order_spaces)
    leftover = display.pop()
    order_spaces[spaces[0]] = leftover
    filled[spaces[0]] = leftover
    for sid in spaces[1:]:
        if deck:
            card_id = deck.pop(0)
            order_spaces[sid] = card_id
            filled[sid] = card_id
    events.append(_ORDER_SPACES_FILLED(cards=filled))
    put(s, "phase", "place")
    put(s, "active", s.start_player)
    events.append(_SHIFT_STARTED(1, s.start_player))


def _new_outstanding(card: int) -> Outstanding:
    return _OUTSTANDING(card=card, spots=[[] for _ in ORDERS[card].spots])


# ---- placement (§6) and the immediate actions (§7)


def _on_place(s: GluckaufState, seat: Seat, action: PlaceWorker, events: list[Event]) -> None:
    space = action.space
    # _pit and put written out: a placement is every other action of a game.
    fields = s.__dict__
    players = fields["players"] = fields["players"].copy()
    p = players[seat] = copy(players[seat])
    fields["turns"] += 1
    s.__pydantic_fields_set__.add("turns")
    if space == "BANK":
        _own(s, "bank")[seat] += 1
        p.__dict__["supply"] -= 1  # supply is always set (a required field): as put would
        events.append(_WORKER_PLACED_ALONE(seat, space, 1))
    else:
        occupants: dict[str, Occupant] = fields["occupants"].copy()  # _own, written out
        fields["occupants"] = occupants
        occ = occupants.get(space)
        count = 1
        ousted_seat: int | None = None
        ousted = 0
        if occ is not None:
            count = occ.count + 1
            ousted_seat, ousted = occ.seat, occ.count
            # The ousted workers go to the canteen (§6): that seat's numbers change too.
            other = p
            if occ.seat != seat:
                other = s.players[occ.seat] = copy(s.players[occ.seat])
            put(other, "canteen", other.canteen + occ.count)
        occupants[space] = _OCCUPANT(seat=seat, count=count)
        p.__dict__["supply"] -= count  # supply is always set (a required field): as put would
        events.append(_WORKER_PLACED(seat, space, count, ousted_seat, ousted))
    sp = SPACE_BY_ID[space]
    if sp.group == "factory" and space != "FACT-DRAW":
        factory: dict[str, int | None] = _own(s, "factory")
        tile = factory[space]
        if tile is None:
            raise RuntimeError(f"the tile on {space} is missing although the placement is legal")
        factory[space] = None
        if _buy_tile(s, seat, tile, "end_turn", events):
            _end_turn(s, events, owned=("factory",))
    elif space == "FACT-DRAW" or space == "ORDER-DRAW":
        kind: Literal["tile", "order"] = "tile" if space == "FACT-DRAW" else "order"
        pile: list[int] = _own(s, "stack" if kind == "tile" else "deck")
        drawn = pile[:DRAW_SIZE]
        del pile[:DRAW_SIZE]
        put(s, "draw", _DRAW_STATE(kind=kind, drawn=drawn))
        put(s, "phase", "keep")
        events.append(_ITEMS_DRAWN(seat, kind, len(drawn)))
        events.append(
            _ITEMS_SEEN(seat=seat, kind=kind, items=list(drawn), visible_to=frozenset({seat}))
        )
    elif sp.group == "mining":
        put(s, "mining", _MINING_STATE(space=space, budget=sp.value))
        put(s, "phase", "mining")
        events.append(_MINING_STARTED(seat, sp.value))
    elif sp.group == "delivery":
        if sp.transport is None:
            raise RuntimeError(f"the delivery space {space} has no transport")
        _deliver(s, seat, sp.transport, events)
        _end_turn(s, events)
    elif sp.group in ("money", "bank"):
        p.__dict__["money"] += sp.value  # money is always set (a required field): as put would
        events.append(_MONEY_GAINED(seat, sp.value))
        _end_turn(s, events)
    else:
        order_spaces: dict[str, int | None] = _own(s, "order_spaces")
        card = order_spaces[space]
        if card is None:
            raise RuntimeError(
                f"the order card on {space} is missing although the placement is legal"
            )
        order_spaces[space] = None
        _own(p, "orders").append(_new_outstanding(card))
        events.append(_ORDER_TAKEN(seat, space, card))
        _end_turn(s, events, owned=("order_spaces",))


def _buy_tile(
    s: GluckaufState,
    seat: Seat,
    tile: int,
    then: Literal["end_turn", "draw"],
    events: list[Event],
) -> bool:
    """Pay for ``tile``, put it in the pit and load its carts (§7.1 steps 1-4).

    Returns True when done; False when a substitute colour must be chosen first
    (the phase is then ``choose_coal`` and ``then`` says how to continue). The seat's
    PlayerState must be owned (:func:`_pit`), its tiles and the coal supply not yet.
    """
    p = s.players[seat]
    t = TILES[tile]
    put(p, "money", p.money - t.cost)
    coal: dict[Colour, int] = _own(s, "coal")
    carts: list[Colour | None] = []
    for _ in range(t.carts):
        if coal[t.colour] > 0:
            coal[t.colour] -= 1
            carts.append(t.colour)
        else:
            carts.append(None)
    tiles: list[OwnedTile] = _own(p, "tiles")
    tiles.append(_OWNED_TILE(tile=tile, carts=carts))
    events.append(_TILE_BOUGHT(seat=seat, tile=tile, cost=t.cost, cubes=list(carts)))
    if None not in carts:
        return True
    missing = [i for i, c in enumerate(carts) if c is None]
    put(s, "shortage", _SHORTAGE_STATE(tile_index=len(tiles) - 1, carts=missing, then=then))
    return _resolve_shortage(s, seat, events)


def _resolve_shortage(s: GluckaufState, seat: Seat, events: list[Event]) -> bool:
    """Place forced substitutes; stop and ask when two or more colours remain (decision 29).

    The shortage, the seat's PlayerState and tiles and the coal supply must be owned.
    """
    sh = _under_way(s.shortage, "the supply shortage")
    owned = _own_tile(s.players[seat], sh.tile_index)
    coal = s.coal
    while sh.carts:
        available = [c for c in COLOURS if coal[c] > 0]
        if len(available) >= 2:
            put(s, "phase", "choose_coal")
            return False
        cart = sh.carts.pop(0)
        colour = available[0] if available else None
        if colour is not None:
            coal[colour] -= 1
            owned.carts[cart] = colour
        events.append(_COAL_SUBSTITUTED(seat, owned.tile, colour))
    put(s, "shortage", None)
    return True


def _choose_coal(s: GluckaufState, seat: Seat, colour: Colour, events: list[Event]) -> None:
    shortage = _under_way(s.shortage, "the supply shortage")
    sh = s.__dict__["shortage"] = _copy(shortage, carts=list(shortage.carts))
    p = _pit(s, seat)
    _own(p, "tiles")
    coal: dict[Colour, int] = _own(s, "coal")
    owned = _own_tile(p, sh.tile_index)
    cart = sh.carts.pop(0)
    coal[colour] -= 1
    owned.carts[cart] = colour
    events.append(_COAL_SUBSTITUTED(seat, owned.tile, colour))
    then = sh.then
    if _resolve_shortage(s, seat, events):
        if then == "end_turn":
            _end_turn(s, events)
        else:
            _own_draw(s)
            _after_keep(s, seat, events)


def _deliver(s: GluckaufState, seat: Seat, transport: Transport, events: list[Event]) -> None:
    """§7.4: every complete order of ``transport`` is delivered at once (decision 14)."""
    p = s.players[seat]
    coal: dict[Colour, int] = _own(s, "coal")
    delivered: list[int] = []
    keep: list[Outstanding] = []
    vp = 0
    for o in p.orders:
        if ORDERS[o.card].transport == transport and is_complete(o):
            delivered.append(o.card)
            vp += ORDERS[o.card].vp
            for cubes in o.spots:
                for c in cubes:
                    coal[c] += 1
        else:
            keep.append(o)
    put(p, "orders", keep)
    _own(p, "delivered").extend(delivered)
    put(p, "vp", p.vp + vp)
    events.append(_ORDERS_DELIVERED(seat=seat, transport=transport, cards=list(delivered), vp=vp))


# ---- draw-5 (§7.2, §7.8)


def _keep(s: GluckaufState, seat: Seat, item: int | None, events: list[Event]) -> None:
    d = _own_draw(s)
    put(d, "kept", item)
    put(d, "kept_chosen", True)
    events.append(_ITEM_KEPT(seat, d.kind, item))
    if item is not None:
        p = _pit(s, seat)
        if d.kind == "tile":
            if not _buy_tile(s, seat, item, "draw", events):
                return
        else:
            _own(p, "orders").append(_new_outstanding(item))
    _after_keep(s, seat, events)


def _after_keep(s: GluckaufState, seat: Seat, events: list[Event]) -> None:
    """The draw-5 after the keep; the draw must be owned (:func:`_own_draw`)."""
    d = _under_way(s.draw, "the draw-5")
    rest = [i for i in d.drawn if i != d.kept]
    pile = s.stack if d.kind == "tile" else s.deck
    if rest and pile:
        put(s, "phase", "choose_end")
        return
    _after_end(s, seat, events)


def _after_end(s: GluckaufState, seat: Seat, events: list[Event]) -> None:
    """The draw-5 once the end is known; the draw must be owned (:func:`_own_draw`)."""
    unplaced = _unplaced(s)
    if len(unplaced) >= 2:
        put(s, "phase", "return")
        return
    d = _under_way(s.draw, "the draw-5")
    d.placed.extend(unplaced)
    owned: tuple[str, ...] = ()
    if d.placed:
        owned = ("stack",) if d.kind == "tile" else ("deck",)
        pile: list[int] = _own(s, owned[0])
        if d.end == "bottom":
            pile.extend(d.placed)
        else:
            pile[:0] = d.placed
        events.append(_ITEMS_RETURNED(seat, d.kind, len(d.placed), d.end))
        events.append(
            _ITEMS_RETURNED_PRIVATELY(
                seat=seat,
                kind=d.kind,
                items=list(d.placed),
                end=d.end,
                visible_to=frozenset({seat}),
            )
        )
    put(s, "draw", None)
    _end_turn(s, events, owned)


# ---- mining (§7.3)


def _stop_mining(s: GluckaufState, seat: Seat, action: StopMining, events: list[Event]) -> None:
    _end_mining(s, seat, events)


def _start_two_for_one(
    s: GluckaufState, seat: Seat, action: StartTwoForOne, events: list[Event]
) -> None:
    m = s.__dict__["mining"] = copy(_under_way(s.mining, "the mining action"))
    put(m, "tfo_order", action.order)
    put(m, "tfo_colour", action.colour)
    put(m, "tfo_cubes", [])
    put(s, "phase", "two_for_one")
    events.append(_TWO_FOR_ONE_STARTED(seat, action.order, action.colour))


def _mine_step(s: GluckaufState, seat: Seat, action: Any, events: list[Event]) -> None:
    """A step that costs one of the mining action's steps (§7.3)."""
    fields = s.__dict__
    m = fields["mining"] = copy(_under_way(fields["mining"], "the mining action"))
    budget = m.budget - 1
    put(m, "budget", budget)
    players = fields["players"] = fields["players"].copy()  # _pit, written out
    p = players[seat] = copy(players[seat])
    kind = type(action)
    step = _STEPS.get(kind)
    if step is None:  # a look-alike (a subclass) is taken as its action
        step = next(_STEPS[c] for c in kind.__mro__ if c in _STEPS)
    step(s, seat, m, p, action, events)
    if budget == 0 and s.phase == "mining":
        _end_mining(s, seat, events)


def _move_cage(
    s: GluckaufState,
    seat: Seat,
    m: MiningState,
    p: PlayerState,
    action: MoveCage,
    events: list[Event],
) -> None:
    events.append(_CAGE_MOVED(seat, p.cage_level, action.level, m.budget))
    put(p, "cage_level", action.level)


def _load_cube(
    s: GluckaufState,
    seat: Seat,
    m: MiningState,
    p: PlayerState,
    action: LoadCube,
    events: list[Event],
) -> None:
    _take_from_cart(p, p.cage_level, action.colour)
    _add_sorted(_own(p, "cage"), action.colour)
    events.append(_CUBE_LOADED(seat, p.cage_level, action.colour, m.budget))


def _unload_cube(
    s: GluckaufState,
    seat: Seat,
    m: MiningState,
    p: PlayerState,
    action: UnloadCube,
    events: list[Event],
) -> None:
    _own(p, "cage").remove(action.colour)
    _fill_spot(p, action.order, action.colour, [action.colour])
    events.append(_CUBE_UNLOADED(seat, action.order, action.colour, m.budget))


def _store_cube(
    s: GluckaufState,
    seat: Seat,
    m: MiningState,
    p: PlayerState,
    action: StoreCube,
    events: list[Event],
) -> None:
    _own(p, "cage").remove(action.colour)
    _add_sorted(_own(p, "storage"), action.colour)
    events.append(_CUBE_STORED(seat, action.colour, m.budget))


def _place_stored_cube(
    s: GluckaufState,
    seat: Seat,
    m: MiningState,
    p: PlayerState,
    action: PlaceStoredCube,
    events: list[Event],
) -> None:
    _own(p, "storage").remove(action.colour)
    _fill_spot(p, action.order, action.colour, [action.colour])
    events.append(_STORED_CUBE_PLACED(seat, action.order, action.colour, m.budget))


def _add_cube(
    s: GluckaufState,
    seat: Seat,
    m: MiningState,
    p: PlayerState,
    action: AddCube,
    events: list[Event],
) -> None:
    _own(p, "cage" if action.source == "cage" else "storage").remove(action.colour)
    _own(m, "tfo_cubes").append(action.colour)
    events.append(_CUBE_ADDED(seat, action.source, action.colour, m.budget))
    if len(m.tfo_cubes) == 2:
        order = _under_way(m.tfo_order, "the order of the two-for-one")
        spot_colour: Colour = _under_way(m.tfo_colour, "the colour of the two-for-one")
        _fill_spot(p, order, spot_colour, list(m.tfo_cubes))
        put(m, "tfo_order", None)
        put(m, "tfo_colour", None)
        put(m, "tfo_cubes", [])
        put(s, "phase", "mining")


_STEPS: dict[type, Callable[..., None]] = {
    MoveCage: _move_cage,
    LoadCube: _load_cube,
    UnloadCube: _unload_cube,
    StoreCube: _store_cube,
    PlaceStoredCube: _place_stored_cube,
    AddCube: _add_cube,
}
_HANDLERS: dict[type, Callable[..., None]] = {
    PlaceWorker: _on_place,
    DraftOrder: _on_draft,
    ChooseCoal: _on_coal,
    KeepItem: _on_keep,
    ChooseEnd: _on_end,
    ReturnItem: _on_return,
    StopMining: _stop_mining,
    StartTwoForOne: _start_two_for_one,
    **dict.fromkeys(_STEPS, _mine_step),
}


def _add_sorted(cubes: list[Colour], colour: Colour) -> None:
    cubes.append(colour)
    cubes.sort(key=_COLOUR_RANK.__getitem__)


_COLOUR_RANK: dict[Colour, int] = {c: i for i, c in enumerate(COLOURS)}


def _take_from_cart(p: PlayerState, level: int, colour: Colour) -> None:
    """Empty the first cart on ``level`` holding ``colour``, in pit order (decision 30)."""
    if p.printed[level - 1] == colour:
        _own(p, "printed")[level - 1] = None
        return
    for index, owned in enumerate(p.tiles):
        if TILES[owned.tile].level != level:
            continue
        for i, c in enumerate(owned.carts):
            if c == colour:
                _own(p, "tiles")
                _own_tile(p, index).carts[i] = None
                return
    raise RuntimeError(
        f"no cart on level {level} holds a {colour} cube: action_problem checks one does"
    )


def _fill_spot(p: PlayerState, card: int, colour: Colour, cubes: list[Colour]) -> None:
    """Fill the leftmost empty spot of ``colour`` on ``card`` with ``cubes``."""
    _own(p, "orders")
    order = _own_order(p, next(i for i, o in enumerate(p.orders) if o.card == card))
    spots = ORDERS[card].spots
    for i, filled in enumerate(order.spots):
        if not filled and spots[i] == colour:
            order.spots[i] = cubes
            return
    raise RuntimeError(f"order {card} has no empty {colour} spot: action_problem checks it has")


def _end_mining(s: GluckaufState, seat: Seat, events: list[Event]) -> None:
    m = _under_way(s.mining, "the mining action")
    events.append(_MINING_ENDED(seat, m.budget))
    put(s, "mining", None)
    _end_turn(s, events)


# ---- end of turn (§7.9), turn order (§5), shift end (§8), final scoring (§9)


_TURN_PARTS = ("phase", "draw", "shortage", "mining")


def _end_turn(s: GluckaufState, events: list[Event], owned: tuple[str, ...] = ()) -> None:
    """End the turn (§7.9, §5); ``owned`` names the containers of ``s`` this action owns already."""
    # Four assignments (phase, draw, shortage, mining), as put would make them.
    fields = s.__dict__
    fields["phase"] = "place"
    fields["draw"] = fields["shortage"] = fields["mining"] = None
    s.__pydantic_fields_set__.update(_TURN_PARTS)
    if fields["stack"] and None in fields["factory"].values():
        factory: dict[str, int | None] = s.factory if "factory" in owned else _own(s, "factory")
        stack: list[int] = s.stack if "stack" in owned else _own(s, "stack")
        for sid in factory:
            if factory[sid] is None and stack:
                tile = stack.pop(0)
                factory[sid] = tile
                events.append(_SPACE_REFILLED(sid, tile))
    if fields["deck"] and None in fields["order_spaces"].values():
        order_spaces: dict[str, int | None] = (
            s.order_spaces if "order_spaces" in owned else _own(s, "order_spaces")
        )
        deck: list[int] = s.deck if "deck" in owned else _own(s, "deck")
        for sid in order_spaces:
            if order_spaces[sid] is None and deck:
                card = deck.pop(0)
                order_spaces[sid] = card
                events.append(_SPACE_REFILLED(sid, card))
    n = fields["n_players"]
    players = fields["players"]
    active = fields["active"]
    for k in range(1, n + 1):
        seat = (active + k) % n
        if players[seat].supply > 0:
            fields["active"] = seat  # as put would, and "active" is always set
            return
    _end_shift(s, events)


def shift_counts(s: GluckaufState, shift: int) -> dict[int, dict[int, int]]:
    """Per category number, each seat's count (§8.1 step 3)."""
    categories = categories_for_shift(shift)
    # Every count of a seat from one pass over its delivered pile and one over its pit.
    tallies: list[dict[str, int]] = []
    for p in s.players:
        tally = dict.fromkeys(_TALLY_KEYS, 0)
        for card in p.delivered:
            for key, count in _CARD_TALLY[card]:
                tally[key] += count
        if shift >= 3:
            for colour, empty in empty_carts_by_colour(p).items():
                tally["empty", colour] = empty
        tallies.append(tally)
    counts: dict[int, dict[int, int]] = {}
    for cat in categories:
        key = _CATEGORY_TALLY[cat.number]
        counts[cat.number] = {seat: tally[key] for seat, tally in enumerate(tallies)}
    return counts


# What each delivered card adds to the counts of the shift scorings (§8.1): its cubes of each
# colour, and all its cubes to its transport. Keys are a colour, a transport or ("empty", colour).
_TALLY_KEYS: tuple[Any, ...] = (*COLOURS, *TRANSPORT_NAMES, *(("empty", c) for c in COLOURS))
_CARD_TALLY: tuple[tuple[tuple[Any, int], ...], ...] = tuple(
    (*((c, o.spots.count(c)) for c in COLOURS if c in o.spots), (o.transport, len(o.spots)))
    for o in ORDERS
)
_CATEGORY_TALLY: dict[int, Any] = {
    cat.number: ("empty", cat.key) if cat.kind == "empty" else cat.key
    for cat in categories_for_shift(SHIFTS)
}


def empty_carts(p: PlayerState, colour: Colour) -> int:
    """Empty minecarts of ``colour`` in a pit, the printed cart included (decision 2)."""
    return empty_carts_by_colour(p)[colour]


def empty_carts_by_colour(p: PlayerState) -> dict[Colour, int]:
    """:func:`empty_carts` of every colour (Y, B, G, K) in one pass over the pit."""
    counts = {c: 1 if p.printed[LEVEL_OF[c] - 1] is None else 0 for c in COLOURS}
    for owned in p.tiles:
        counts[TILES[owned.tile].colour] += owned.carts.count(None)
    return counts


def award(counts: dict[int, int], first: int, second: int, second_place: bool) -> dict[int, int]:
    """VP per seat for one category (§8.1 step 4, decisions 3-5).

    >>> award({0: 2, 1: 2, 2: 1}, 4, 2, True)
    {0: 4, 1: 4}
    >>> award({0: 3, 1: 1, 2: 1, 3: 1}, 5, 2, True)
    {0: 5, 1: 2, 2: 2, 3: 2}
    """
    positive = {seat: c for seat, c in counts.items() if c > 0}
    if not positive:
        return {}
    top = max(positive.values())
    leaders = [seat for seat, c in positive.items() if c == top]
    out = {seat: first for seat in leaders}
    if len(leaders) == 1 and second_place:
        rest = [c for seat, c in positive.items() if c < top]
        if rest:
            runner = max(rest)
            out.update({seat: second for seat, c in positive.items() if c == runner})
    return out


def score_shift(s: GluckaufState, events: list[Event]) -> None:
    """§8.1: award every category of the current shift."""
    counts = shift_counts(s, s.shift)
    second = PARAMS[s.n_players].second_place
    awards: dict[int, dict[int, int]] = {}
    totals = dict.fromkeys(range(s.n_players), 0)
    for cat in categories_for_shift(s.shift):
        a = award(counts[cat.number], cat.first, cat.second, second)
        awards[cat.number] = a
        for seat, vp in a.items():
            totals[seat] += vp
    players = s.players
    for seat, vp in totals.items():
        p = players[seat]
        put(p, "vp", p.vp + vp)
    events.append(
        _SHIFT_SCORED(
            shift=s.shift,
            delivered={seat: list(p.delivered) for seat, p in enumerate(players)},
            counts=counts,
            awards=awards,
            totals=totals,
        )
    )


def factory_workers(s: GluckaufState) -> dict[int, int]:
    out = dict.fromkeys(range(s.n_players), 0)
    for sid in STARTING_PLAYER_SPACES:
        occ = s.occupants.get(sid)
        if occ is not None:
            out[occ.seat] += occ.count
    return out


def new_starting_player(s: GluckaufState) -> int:
    """§8.2: most workers in the factory; ties go clockwise from the old starter, excluding it."""
    counts = factory_workers(s)
    top = max(counts.values())
    tied = [seat for seat, c in counts.items() if c == top]
    if len(tied) == 1:
        return tied[0]
    n = s.n_players
    for k in range(1, n + 1):
        seat = (s.start_player + k) % n
        if seat in tied and seat != s.start_player:
            return seat
    raise RuntimeError("a tie for the most factory workers names only the old starting player")


def _end_shift(s: GluckaufState, events: list[Event]) -> None:
    # The scoring and the workers going home change every seat (§8): each gets its own copy.
    s.__dict__["players"] = [copy(p) for p in s.players]
    score_shift(s, events)
    if s.shift >= SHIFTS:
        final_scoring(s, events)
        return
    start = new_starting_player(s)
    events.append(_STARTING_PLAYER_CHOSEN(seat=start, factory_workers=factory_workers(s)))
    workers = PARAMS[s.n_players].workers
    for p in s.players:
        put(p, "supply", workers)
        put(p, "canteen", 0)
    put(s, "occupants", {})
    put(s, "bank", [0] * s.n_players)
    put(s, "shift", s.shift + 1)
    put(s, "start_player", start)
    put(s, "active", start)
    put(s, "phase", "place")
    events.append(_SHIFT_STARTED(s.shift, start))


def cubes_owned(p: PlayerState) -> int:
    """Cubes in carts, cage, storage and on outstanding orders (§9 step 2)."""
    n = len(p.printed) - p.printed.count(None)
    for t in p.tiles:
        n += len(t.carts) - t.carts.count(None)
    n += len(p.cage) + len(p.storage)
    for o in p.orders:
        for cubes in o.spots:
            n += len(cubes)
    return n


def final_breakdown(p: PlayerState) -> FinalScore:
    """§9 steps 1-4 for one player (not applied)."""
    money_vp, money_left = divmod(p.money, 5)
    coal_vp = cubes_owned(p) // 3
    order_penalty = -len(p.orders)
    light = _light_tiles(p)
    dark = len(p.tiles) - light
    imbalance = -2 * abs(light - dark)
    total = p.vp + money_vp + coal_vp + order_penalty + imbalance
    return _FINAL_SCORE(
        money_vp=money_vp,
        money_left=money_left,
        coal_vp=coal_vp,
        order_penalty=order_penalty,
        imbalance_penalty=imbalance,
        total=total,
    )


_LIGHT: tuple[bool, ...] = tuple(t.side == "light" for t in TILES)


def _light_tiles(p: PlayerState) -> int:
    light = 0
    for t in p.tiles:
        if _LIGHT[t.tile]:
            light += 1
    return light


# The models of the shift and game ends, made as the rules made them before (see trusted.py).
_SHIFT_SCORED = maker(ev.ShiftScored)
_STARTING_PLAYER_CHOSEN = maker(ev.StartingPlayerChosen)
_FINAL_SCORE = maker(FinalScore)
_FINAL_SCORED = maker(ev.FinalScored)
_GAME_ENDED = maker(ev.GameEnded)


def final_scoring(s: GluckaufState, events: list[Event]) -> None:
    """§9: apply every player's final adjustments and end the game (in place)."""
    finals = []
    for seat, p in enumerate(s.players):
        f = final_breakdown(p)
        light = _light_tiles(p)
        # The counts behind each step, so the log can show how the points came about.
        events.append(
            _FINAL_SCORED(
                seat=seat,
                money_vp=f.money_vp,
                money_left=f.money_left,
                coal_vp=f.coal_vp,
                order_penalty=f.order_penalty,
                imbalance_penalty=f.imbalance_penalty,
                total=f.total,
                vp_before=p.vp,
                money=p.money,
                cubes=cubes_owned(p),
                light_tiles=light,
                dark_tiles=len(p.tiles) - light,
            )
        )
        put(p, "vp", f.total)
        put(p, "money", f.money_left)
        finals.append(f)
    put(s, "final", finals)
    put(s, "phase", "over")
    put(s, "mining", None)
    # What _final_result says of the result, without making the Result.
    scores = {seat: f.total for seat, f in enumerate(finals)}
    keys: dict[int, tuple[int, ...]] = {seat: (f.money_left,) for seat, f in enumerate(finals)}
    ranking, places = rank_by_score(scores, keys)
    tiebreak = tiebreak_text(scores, keys)
    put(s, "tiebreak", tiebreak)
    events.append(
        _GAME_ENDED(
            scores=scores,
            ranking=ranking,
            tiebreak=tiebreak,
            money_left={seat: f.money_left for seat, f in enumerate(finals)},
            places=places,
        )
    )


def result(state: GluckaufState) -> Result | None:
    """Final result (§9): VP, then leftover Marks; equal on both → shared place."""
    if state.phase != "over" or state.final is None:
        return None
    return _final_result(state.final)


def _final_result(final: list[FinalScore]) -> Result:
    """The result of the final scores ``final`` of every seat (§9)."""
    scores = {seat: f.total for seat, f in enumerate(final)}
    keys: dict[int, tuple[int, ...]] = {seat: (f.money_left,) for seat, f in enumerate(final)}
    ranking, places = rank_by_score(scores, keys)
    return Result(
        scores=scores,
        ranking=ranking,
        places=places,
        tiebreak=tiebreak_text(scores, keys),
        details={
            "final": {seat: f.model_dump() for seat, f in enumerate(final)},
        },
    )


def tiebreak_text(scores: dict[int, int], keys: dict[int, tuple[int, ...]]) -> str:
    """Name the seats separated by leftover Marks and those sharing a place (§9, decision 31)."""
    parts: list[str] = []
    for vp in sorted(set(scores.values()), reverse=True):
        tied = [seat for seat in sorted(scores) if scores[seat] == vp]
        if len(tied) < 2:
            continue
        ordered = sorted(tied, key=lambda seat: (-keys[seat][0], seat))
        marks = ", ".join(f"seat {seat} {keys[seat][0]}" for seat in ordered)
        by_marks: dict[int, list[int]] = {}
        for seat in ordered:
            by_marks.setdefault(keys[seat][0], []).append(seat)
        shared = [group for group in by_marks.values() if len(group) > 1]
        text = f"tie at {vp} VP broken by leftover Marks ({marks})"
        if shared:
            text += "; " + "; ".join(
                "seats " + ", ".join(str(x) for x in g) + " share a place" for g in shared
            )
        parts.append(text)
    return "; ".join(parts)


# --------------------------------------------------------------------------- legality


_PHASE_REASON: dict[str, str] = {
    "draft": "gluckauf.phase_draft",
    "place": "gluckauf.phase_place",
    "choose_coal": "gluckauf.phase_choose_coal",
    "keep": "gluckauf.phase_keep",
    "choose_end": "gluckauf.phase_choose_end",
    "return": "gluckauf.phase_return",
    "mining": "gluckauf.phase_mining",
    "two_for_one": "gluckauf.phase_two_for_one",
}
_EXPECTED: dict[str, str] = {
    "draft": "draft_order (§4 step 8)",
    "place": "place_worker (§6)",
    "choose_coal": "choose_coal for the supply shortage (§7.1 step 4)",
    "keep": "keep_item (§7.2)",
    "choose_end": "choose_end (§7.2 step 3)",
    "return": "return_item (§7.2 step 3)",
    "mining": "a mining step or stop_mining (§7.3)",
    "two_for_one": "add_cube to finish the two-for-one (§7.3)",
}
_PHASE_TYPES: dict[str, frozenset[str]] = {
    "draft": frozenset({"draft_order"}),
    "place": frozenset({"place_worker"}),
    "choose_coal": frozenset({"choose_coal"}),
    "keep": frozenset({"keep_item"}),
    "choose_end": frozenset({"choose_end"}),
    "return": frozenset({"return_item"}),
    "mining": frozenset(
        {
            "move_cage",
            "load_cube",
            "unload_cube",
            "store_cube",
            "place_stored_cube",
            "start_two_for_one",
            "stop_mining",
        }
    ),
    "two_for_one": frozenset({"add_cube"}),
}


# ---- the quick yes
#
# apply asks action_problem about every action it takes, nearly always a legal one taken from
# legal_actions. These checks answer "legal" for such an action from the same rules, without
# the work of wording a refusal; when one says no (or knows no answer), _rule_refusal looks
# again and words why, so every refusal is exactly the one of the full check.


def _has_empty_spot(p: PlayerState, card: int, colour: Colour) -> bool:
    """Whether ``card`` is an outstanding order of ``p`` with an empty ``colour`` spot."""
    for o in p.orders:
        if o.card == card:
            spots = ORDERS[card].spots
            return any(not cubes and spots[i] == colour for i, cubes in enumerate(o.spots))
    return False


def _ok_place(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    if state.phase != "place":
        return False
    entry = _PLACEMENT_BY_SPACE[state.n_players].get(action.space)
    if entry is None or entry[0] is not action:
        return False
    kind = entry[2]
    if kind != _ANY:
        return _placeable(state, p, entry)
    # _placeable(state, p, entry) of a space that needs only workers, written out.
    occ = state.occupants.get(entry[1])
    return (1 if occ is None else occ.count + 1) <= p.supply


def _ok_move(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    return (
        state.phase == "mining"
        and state.mining is not None
        and action.level != p.cage_level
        and 0 <= action.level < 5
    )


def _ok_load(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    level = p.cage_level
    return (
        state.phase == "mining"
        and state.mining is not None
        and level != 0
        and len(p.cage) < CAGE_CAPACITY
        and action.colour in _colours_at_level(p, level)
    )


def _ok_unload(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    return (
        state.phase == "mining"
        and state.mining is not None
        and p.cage_level == 0
        and action.colour in p.cage
        and _has_empty_spot(p, action.order, action.colour)
    )


def _ok_store(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    return (
        state.phase == "mining"
        and state.mining is not None
        and p.cage_level == 0
        and action.colour in p.cage
    )


def _ok_place_stored(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    return (
        state.phase == "mining"
        and state.mining is not None
        and action.colour in p.storage
        and _has_empty_spot(p, action.order, action.colour)
    )


def _ok_two_for_one(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    m = state.mining
    return (
        state.phase == "mining"
        and m is not None
        and _has_empty_spot(p, action.order, action.colour)
        and _two_for_one_possible(m, p)
    )


def _ok_add(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    if state.phase != "two_for_one" or state.mining is None:
        return False
    if action.source == "cage":
        return p.cage_level == 0 and action.colour in p.cage
    return bool(action.colour in p.storage)


def _ok_stop(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    m = state.mining
    return state.phase == "mining" and m is not None and m.tfo_order is None


def _ok_draft(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    return state.phase == "draft" and action.card in state.display


def _ok_coal(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    return state.phase == "choose_coal" and state.coal[action.colour] > 0


def _ok_keep(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    d = state.draw
    if state.phase != "keep" or d is None:
        return False
    item = action.item
    if item is None:
        return True
    return item in d.drawn and (_TILE_COST[item] if d.kind == "tile" else 0) <= p.money


def _ok_end(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    return state.phase == "choose_end" and action.end in ("top", "bottom")


def _ok_return(state: GluckaufState, p: PlayerState, action: Any) -> bool:
    d = state.draw
    if state.phase != "return" or d is None:
        return False
    item = action.item  # one of _unplaced(state)
    return item in d.drawn and item != d.kept and item not in d.placed


# By the exact type: a look-alike (a subclass) gets the full check.
_QUICK_YES: dict[type, Any] = {
    PlaceWorker: _ok_place,
    MoveCage: _ok_move,
    LoadCube: _ok_load,
    UnloadCube: _ok_unload,
    StoreCube: _ok_store,
    PlaceStoredCube: _ok_place_stored,
    StartTwoForOne: _ok_two_for_one,
    AddCube: _ok_add,
    StopMining: _ok_stop,
    DraftOrder: _ok_draft,
    ChooseCoal: _ok_coal,
    KeepItem: _ok_keep,
    ChooseEnd: _ok_end,
    ReturnItem: _ok_return,
}
# For apply: each action type's quick yes and its handler.
_FAST: dict[type, tuple[Callable[..., bool], Callable[..., None]]] = {
    kind: (quick, _HANDLERS[kind]) for kind, quick in _QUICK_YES.items()
}


def action_problem(state: GluckaufState, seat: Seat, action: AnyAction) -> RulesError | None:
    """Why ``seat`` may not take ``action`` now, as the error :func:`apply` raises; None if
    it may. The one legality check of Glück Auf: :func:`legal_actions` lists what it accepts.
    """
    if seat == state.active:
        quick = _QUICK_YES.get(type(action))
        if quick is not None and quick(state, state.players[seat], action):
            return None
    if not isinstance(action, _ACTION_TYPES):
        return IllegalAction(
            f"cannot apply {action!r}: it is not a Glück Auf action (§11a)",
            "gluckauf.not_an_action",
        )
    if state.phase == "over":
        return GameOver(f"the game is over; {action.type} is not accepted (§9)")
    if seat != state.active:
        who = "draft" if state.phase == "draft" else "play"
        return NotYourTurn(
            f"seat {seat} cannot {action.type}: it is seat {state.active}'s turn to {who} (§5)"
        )
    refusal = _rule_refusal(state, seat, action)
    return None if refusal is None else IllegalAction(refusal)


def _rule_refusal(state: GluckaufState, seat: Seat, action: AnyAction) -> Refusal | None:
    """What was tried and which rule forbids it, or None if the active ``seat`` may."""
    phase = state.phase

    def refuse(why: str, reason: str, **params: Any) -> Refusal:
        tried = f"cannot {action.type} {action.model_dump(exclude={'type'})}"
        return Refusal(f"{tried}: {why}", reason, **params)

    if action.type not in _PHASE_TYPES[phase]:
        return refuse(f"the current decision is {_EXPECTED[phase]}", _PHASE_REASON[phase])
    p = state.players[seat]
    if isinstance(action, DraftOrder):
        if action.card in state.display:
            return None
        return refuse(
            f"card {action.card} is not in the draft display (§4 step 8)", "gluckauf.not_in_display"
        )
    if isinstance(action, PlaceWorker):
        refusal = space_requirement(state, seat, action.space)
        if refusal is not None:
            return refuse(refusal, refusal.reason, **refusal.params)
        # Only the game's own placement of that space, not a look-alike (a subclass).
        placement = _PLACE_WORKER[action.space]
        if action is placement or action == placement:
            return None
        return refuse("the space cannot be chosen (§6.3)", "gluckauf.space_closed")
    if isinstance(action, ChooseCoal):
        if state.coal[action.colour] > 0:
            return None
        return refuse(
            f"the supply has no {action.colour} cube (§7.1 step 4)", "gluckauf.no_such_coal"
        )
    if isinstance(action, KeepItem):
        d = _under_way(state.draw, "the draw-5")
        if action.item is None:
            return None  # keeping nothing is always allowed (§7.2)
        if action.item not in d.drawn:
            return refuse(f"item {action.item} was not drawn (§7.2)", "gluckauf.not_drawn")
        cost = TILES[action.item].cost if d.kind == "tile" else 0
        if cost <= p.money:
            return None
        return refuse(
            f"the tile costs {cost} Marks and you have {p.money} (§7.2 step 2)",
            "gluckauf.tile_cost",
            cost=cost,
            money=p.money,
        )
    if isinstance(action, ChooseEnd):
        if action.end in ("top", "bottom"):
            return None
        return refuse("the end must be top or bottom (§7.2 step 3)", "gluckauf.end")
    if isinstance(action, ReturnItem):
        if action.item in _unplaced(state):
            return None
        return refuse(
            f"item {action.item} is not a drawn item still to be returned (§7.2 step 3)",
            "gluckauf.not_to_return",
        )
    m = _under_way(state.mining, "the mining action")
    level = p.cage_level
    if isinstance(action, MoveCage):
        if action.level == level:
            return refuse(
                f"the cage is already at level {level} (decision 21)",
                "gluckauf.cage_there",
                level=level,
            )
        if 0 <= action.level < 5:
            return None
        return refuse("levels are 0 (surface) to 4 (§7.3)", "gluckauf.no_level")
    if isinstance(action, LoadCube):
        if level == 0:
            return refuse(
                "the cage is at the surface; loading needs a tunnel level (§7.3)",
                "gluckauf.load_at_surface",
            )
        if len(p.cage) >= CAGE_CAPACITY:
            return refuse(
                f"the cage already holds {CAGE_CAPACITY} cubes (§7.3)",
                "gluckauf.cage_full",
                capacity=CAGE_CAPACITY,
            )
        if action.colour in _carts_at_level(p, level):
            return None
        return refuse(
            f"no minecart on level {level} holds a {action.colour} cube (§7.3)",
            "gluckauf.no_cube_on_level",
            level=level,
        )
    if isinstance(action, UnloadCube | StoreCube):
        if level != 0:
            return refuse(
                f"the cage is at level {level}; it unloads only at the surface (§7.3)",
                "gluckauf.unload_below",
                level=level,
            )
        if action.colour not in p.cage:
            return refuse(f"the cage holds no {action.colour} cube (§7.3)", "gluckauf.not_in_cage")
        if isinstance(action, StoreCube):
            return None
    if isinstance(action, PlaceStoredCube) and action.colour not in p.storage:
        return refuse(
            f"your storage holds no {action.colour} cube (§7.3)", "gluckauf.not_in_storage"
        )
    if isinstance(action, UnloadCube | PlaceStoredCube | StartTwoForOne):
        order = next((o for o in p.orders if o.card == action.order), None)
        if order is None:
            return refuse(
                f"order {action.order} is not one of your outstanding orders (§7.3)",
                "gluckauf.not_your_order",
            )
        spot = action.colour in _empty_spot_colours(order)
        if isinstance(action, StartTwoForOne):
            if spot and _two_for_one_possible(m, p):
                return None
            return refuse(
                f"a two-for-one needs an empty {action.colour} spot, 2 steps left "
                f"(you have {m.budget}) and 2 reachable cubes (§7.3)",
                "gluckauf.two_for_one",
                steps=m.budget,
            )
        if spot:
            return None
        return refuse(
            f"order {action.order} has no empty {action.colour} spot (§7.3)",
            "gluckauf.no_spot",
        )
    if isinstance(action, AddCube):
        if action.source == "cage" and level != 0:
            return refuse(
                "cage cubes are reachable only at the surface (§7.3)", "gluckauf.cage_below"
            )
        if action.colour in (p.cage if action.source == "cage" else p.storage):
            return None
        return refuse(
            f"the {action.source} holds no {action.colour} cube (§7.3)", "gluckauf.no_cube_there"
        )
    if isinstance(action, StopMining):
        if m.tfo_order is None:
            return None
        return refuse("finish the two-for-one first (§11a)", "gluckauf.finish_two_for_one")
    return refuse("not allowed now (§11a)", "gluckauf.not_legal")
