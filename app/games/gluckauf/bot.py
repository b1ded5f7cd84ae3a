"""The "normal" Glück Auf bot: plans orders it can complete and mines efficiently.

It decides only from its own view (§10) and always returns an element of the legal
list. The core is a greedy mining planner over a small pit model: fill spots from
storage, unload matching cage cubes at the surface, fetch the cubes still needed
from the richest level while steps remain, fall back on a two-for-one when a spot's
colour is nowhere in the pit, and in shift 3 empty extra carts (empty-minecart
categories). Placements are scored by simulating that planner for the mining
spaces and by simple values for deliveries, tiles, orders and money, minus the
cost of extra workers for an oust.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from app.games.base import Seat

from .actions import (
    ChooseEnd,
    DraftOrder,
    KeepItem,
    LoadCube,
    MoveCage,
    PlaceStoredCube,
    StartTwoForOne,
    StopMining,
    UnloadCube,
)
from .data import (
    CAGE_CAPACITY,
    COLOUR_OF_LEVEL,
    COLOURS,
    LEVEL_OF,
    ORDERS,
    PARAMS,
    SHIFTS,
    SPACE_BY_ID,
    TILES,
    TRANSPORTS,
    Colour,
    categories_for_shift,
)
from .rules import GluckaufState, apply, empty_carts_by_colour, legal_actions
from .view import GluckaufView, OrderInfo, PlayerView, TileInfo

Step = tuple[Any, ...]


@dataclass
class Spot:
    order: int
    colour: Colour
    value: float  # share of the order's VP, plus a completion bonus on the last spot


@dataclass
class Pit:
    """A mutable model of one pit for planning mining steps."""

    level: int
    cage: Counter[Colour]
    storage: Counter[Colour]
    carts: dict[int, Counter[Colour]]
    spots: list[Spot]
    orders_left: dict[int, int] = field(default_factory=dict)  # order -> empty spots
    empty_weight: dict[int, float] = field(default_factory=dict)  # level -> shift-3 cart weight

    @classmethod
    def from_view(cls, p: PlayerView, rivals: list[PlayerView] | None = None) -> Pit:
        carts: dict[int, Counter[Colour]] = {lv: Counter() for lv in range(1, 5)}
        for lv, c in enumerate(p.printed_carts, start=1):
            if c is not None:
                carts[lv][c] += 1
        for t in p.tiles:
            for c in t.carts:
                if c is not None:
                    carts[t.tile.level][c] += 1
        spots: list[Spot] = []
        left: dict[int, int] = {}
        for o in p.orders:
            empty = [o.order.spots[i] for i, cubes in enumerate(o.spots) if not cubes]
            left[o.order.id] = len(empty)
            per = o.order.vp / len(o.order.spots)
            for c in empty:
                spots.append(Spot(o.order.id, c, per))
        # Orders closest to completion first, then the most valuable.
        spots.sort(key=lambda s: (left[s.order], -s.value, s.order))
        weights = {lv: empty_cart_weight(p, rivals or [], c) for lv, c in COLOUR_OF_LEVEL.items()}
        return cls(p.cage_level, Counter(p.cage), Counter(p.storage), carts, spots, left, weights)

    @classmethod
    def from_state(cls, state: GluckaufState, seat: Seat) -> Pit:
        """:meth:`from_view` from a whole state (the search's worlds), for ``seat``'s pit."""
        p = state.players[seat]
        carts: dict[int, Counter[Colour]] = {lv: Counter() for lv in range(1, 5)}
        for lv, c in enumerate(p.printed, start=1):
            if c is not None:
                carts[lv][c] += 1
        for t in p.tiles:
            level = TILES[t.tile].level
            for c in t.carts:
                if c is not None:
                    carts[level][c] += 1
        spots: list[Spot] = []
        left: dict[int, int] = {}
        for o in p.orders:
            card = ORDERS[o.card]
            empty = [card.spots[i] for i, cubes in enumerate(o.spots) if not cubes]
            left[o.card] = len(empty)
            per = card.vp / len(card.spots)
            for c in empty:
                spots.append(Spot(o.card, c, per))
        spots.sort(key=lambda s: (left[s.order], -s.value, s.order))
        empties = [empty_carts_by_colour(q) for q in state.players]
        weights = {
            lv: _empty_weight(empties[seat][c], [e[c] for i, e in enumerate(empties) if i != seat])
            for lv, c in COLOUR_OF_LEVEL.items()
        }
        return cls(p.cage_level, Counter(p.cage), Counter(p.storage), carts, spots, left, weights)

    def copy(self) -> Pit:
        return Pit(
            self.level,
            Counter(self.cage),
            Counter(self.storage),
            {lv: Counter(c) for lv, c in self.carts.items()},
            list(self.spots),
            dict(self.orders_left),
            self.empty_weight,
        )

    def uncovered(self) -> Counter[Colour]:
        """Colours of the empty spots not yet covered by cubes in the cage or storage."""
        held = self.cage + self.storage
        need: Counter[Colour] = Counter()
        for s in self.spots:
            if held[s.colour] > 0:
                held[s.colour] -= 1
            else:
                need[s.colour] += 1
        return need

    def fill(self, order: int, colour: Colour) -> float:
        for i, s in enumerate(self.spots):
            if s.order == order and s.colour == colour:
                del self.spots[i]
                self.orders_left[order] -= 1
                bonus = 3.0 if self.orders_left[order] == 0 else 0.0
                return s.value + bonus
        return 0.0


def empty_cart_weight(me: PlayerView, rivals: list[PlayerView], colour: Colour) -> float:
    """How much one more empty cart of ``colour`` is worth in the shift-3 category (public pits)."""
    return _empty_weight(me.empty_carts[colour], [r.empty_carts[colour] for r in rivals])


def _empty_weight(mine: int, rivals: list[int]) -> float:
    """:func:`empty_cart_weight` from the counts: the seat's and each rival's."""
    best = max(rivals, default=0)
    if mine + 1 == best:
        return 3.0  # draws level for first place
    if mine + 1 > best and mine <= best:
        return 4.0  # takes first place alone
    if mine + 1 < best:
        return 1.0 + (0.5 if len(rivals) > 1 else 0.0)  # may still secure second place
    return 0.5  # already leading alone


def plan_step(pit: Pit, budget: int, shift: int) -> Step:
    """The next mining step of the greedy plan (an abstract step tuple)."""
    # 1. Storage cubes onto matching spots (any cage level).
    for s in pit.spots:
        if pit.storage[s.colour] > 0:
            return ("stored", s.order, s.colour)
    # 2. Cage cubes onto matching spots at the surface.
    if pit.level == 0:
        for s in pit.spots:
            if pit.cage[s.colour] > 0:
                return ("unload", s.order, s.colour)
    need = pit.uncovered()
    room = CAGE_CAPACITY - sum(pit.cage.values())
    wanted = {s.colour for s in pit.spots}
    cage_useful = sum(pit.cage[c] for c in COLOURS if c in wanted)
    # 3. Load a needed cube here if there are steps to bring it up and unload it.
    if pit.level >= 1 and room > 0:
        for c in COLOURS:
            if need[c] > 0 and pit.carts[pit.level][c] > 0 and budget >= 3:
                return ("load", c)
    # 4. Go to the level with the most needed cubes if a full trip fits.
    if room > 0 and budget >= (4 if pit.level != 0 or cage_useful == 0 else 4 + 1):
        best, best_score = 0, 0.0
        for lv in range(1, 5):
            if lv == pit.level:
                continue
            gain = sum(min(need[c], pit.carts[lv][c]) * (1 + LEVEL_OF[c] * 0.1) for c in COLOURS)
            if gain > best_score:
                best, best_score = lv, gain
        if best and not (pit.level == 0 and cage_useful > 0):
            # Two trips cost more than unloading first; at the surface unload first (rule 2).
            return ("move", best)
    # 5. Bring useful cage cubes to the surface.
    if pit.level != 0 and cage_useful > 0 and budget >= 2:
        return ("move", 0)
    # 6. Two-for-one for a spot whose colour is nowhere in the pit.
    if budget >= 2:
        reach = pit.storage + (pit.cage if pit.level == 0 else Counter())
        if sum(reach.values()) >= 2:
            in_pit = Counter[Colour]()
            for lv in range(1, 5):
                in_pit += pit.carts[lv]
            for s in pit.spots:
                if in_pit[s.colour] == 0 and reach[s.colour] == 0:
                    completes = pit.orders_left[s.order] == 1
                    if completes or shift == 3:
                        return ("tfo", s.order, s.colour)
    # 7. Shift 3: empty more carts (empty-minecart categories, cubes still count at the end).
    if shift == 3 and room > 0:
        levels = [lv for lv in range(1, 5) if sum(pit.carts[lv].values()) > 0]
        if levels:
            target = max(levels, key=lambda lv: (pit.empty_weight.get(lv, 1.0), lv))
            if target == pit.level:
                for c in COLOURS:
                    if pit.carts[pit.level][c] > 0:
                        return ("load", c)
            elif budget >= 2:
                return ("move", target)
    return ("stop",)


def apply_step(pit: Pit, step: Step) -> float:
    """Apply an abstract step to the model; return the VP-ish value it realised."""
    kind = step[0]
    if kind == "stored":
        pit.storage[step[2]] -= 1
        return pit.fill(step[1], step[2])
    if kind == "unload":
        pit.cage[step[2]] -= 1
        return pit.fill(step[1], step[2])
    if kind == "load":
        pit.carts[pit.level][step[1]] -= 1
        pit.cage[step[1]] += 1
        return 0.3
    if kind == "move":
        pit.level = step[1]
        return 0.0
    if kind == "tfo":
        reach = list(pit.storage.elements())
        if pit.level == 0:
            reach += list(pit.cage.elements())
        for c in sorted(reach, key=lambda c: _surplus_rank(pit, c))[:2]:
            if pit.storage[c] > 0:
                pit.storage[c] -= 1
            else:
                pit.cage[c] -= 1
        return pit.fill(step[1], step[2]) - 0.5
    return 0.0


def _surplus_rank(pit: Pit, colour: Colour) -> int:
    """Lower = better to give away in a two-for-one (colours no spot wants first)."""
    return sum(1 for s in pit.spots if s.colour == colour)


def simulate_mining(pit: Pit, budget: int, shift: int) -> float:
    """Value the greedy plan realises with ``budget`` steps."""
    pit = pit.copy()
    total = 0.0
    while budget > 0:
        step = plan_step(pit, budget, shift)
        if step[0] == "stop":
            break
        total += apply_step(pit, step)
        budget -= 2 if step[0] == "tfo" else 1
    return total


# --------------------------------------------------------------------------- placement values


def _cubes_by_colour(p: PlayerView) -> Counter[Colour]:
    held: Counter[Colour] = Counter(p.cage) + Counter(p.storage)
    for c in p.printed_carts:
        if c is not None:
            held[c] += 1
    for t in p.tiles:
        held.update(c for c in t.carts if c is not None)
    return held


def _spot_need(p: PlayerView) -> Counter[Colour]:
    need: Counter[Colour] = Counter()
    for o in p.orders:
        need.update(o.order.spots[i] for i, cubes in enumerate(o.spots) if not cubes)
    return need


def tile_value(tile: TileInfo, me: PlayerView, money: int, shift: int) -> float:
    deficit = _spot_need(me)[tile.colour] - _cubes_by_colour(me)[tile.colour]
    useful = max(0, min(tile.carts, deficit))
    value = useful * (1.5 + LEVEL_OF[tile.colour]) + tile.carts * 0.35
    if shift == 3:
        value += tile.carts * 1.0  # future empty carts and coal VP
    value -= tile.cost * (0.25 if money - tile.cost >= 4 else 0.45)
    diff = me.light_tiles - me.dark_tiles
    after = diff + (1 if tile.side == "light" else -1)
    value += (abs(diff) - abs(after)) * 1.0
    return value


def order_value(order: OrderInfo, me: PlayerView, shift: int, workers_left: int) -> float:
    spare = _cubes_by_colour(me) - _spot_need(me)
    have = sum(min(spare[c], k) for c, k in Counter(order.spots).items())
    cover = have / len(order.spots)
    value = order.vp * (0.25 + 0.55 * cover) - 1.0
    if shift == 3:
        value -= (1 - cover) * order.vp * 0.5 + (2 if workers_left < 4 else 0)
    # Too many open orders dilute the mining budget.
    value -= max(0, len(me.orders) - 4) * 1.5
    return value


def _rivals(view: GluckaufView, me: PlayerView) -> list[PlayerView]:
    return [p for p in view.players if p.seat != me.seat]


def place_value(view: GluckaufView, me: PlayerView, space: str, rng: random.Random) -> float:
    sp = SPACE_BY_ID[space]
    info = next(s for s in view.spaces if s.id == space)
    shift = view.shift
    value: float
    if sp.group == "delivery":
        done = [o for o in me.orders if o.complete and o.order.transport == sp.transport]
        icons = sum(len(o.order.spots) for o in done)
        value = sum(o.order.vp for o in done) + 1.5 * icons + 2
        if me.supply <= 3:  # the shift scoring is near: deliver before it (§8.1)
            value += icons * 1.5
    elif sp.group == "mining":
        value = simulate_mining(Pit.from_view(me, _rivals(view, me)), sp.value, shift)
    elif space == "FACT-DRAW":
        value = 1.0 if me.money >= 4 else -1.0
    elif space == "ORDER-DRAW":
        value = 2.0 - (3 if shift == 3 else 0) - max(0, len(me.orders) - 3) * 1.5
    elif info.tile is not None:
        value = tile_value(info.tile, me, me.money, shift)
    elif info.order is not None:
        value = order_value(info.order, me, shift, me.supply)
    elif sp.group == "money":
        value = sp.value * (0.6 if me.money < 8 else 0.3)
        if shift == 3:
            value = sp.value * 0.2 + (1 if (me.money % 5) + sp.value >= 5 else 0)
    else:  # bank
        value = 0.3
    extra = info.workers_needed - 1
    value -= extra * (1.6 if me.supply - extra > 2 else 2.5)
    return value + rng.random() * 0.05


# --------------------------------------------------------------------------- the policy


def choose(view: GluckaufView, legal: list[Any], rng: random.Random) -> Any:
    """Return one element of ``legal`` for the seat of ``view``."""
    if len(legal) == 1:
        return legal[0]
    me = _own_player(view)
    phase = view.phase
    if phase == "draft":
        return max(legal, key=lambda a: _draft_score(view, a))
    if phase == "place":
        return max(legal, key=lambda a: place_value(view, me, a.space, rng))
    if phase == "choose_coal":
        need = _spot_need(me) - _cubes_by_colour(me)
        return max(legal, key=lambda a: (need[a.colour], COLOURS.index(a.colour)))
    if phase == "keep":
        return _keep(view, me, legal)
    if phase == "choose_end":
        return ChooseEnd(end="bottom") if ChooseEnd(end="bottom") in legal else legal[0]
    if phase == "return":
        return legal[0]
    if phase == "two_for_one":
        pit = Pit.from_view(me)
        return min(legal, key=lambda a: (_surplus_rank(pit, a.colour), a.source != "storage"))
    return _mining(view, me, legal)


#: The easy bot's judgement of a placement is off by about this many VP (a normal spread).
EASY_NOISE = 2.5
#: How often the easy bot ends a mining action before its plan does (it loses the steps).
EASY_EARLY_STOP = 0.12


def easy(view: GluckaufView, legal: list[Any], rng: random.Random) -> Any:
    """The "easy" bot: the normal bot's judgement, misjudged as a beginner would.

    It values every placement as the normal bot does but with an error of about
    :data:`EASY_NOISE` VP, drafts on a noisy card value, keeps draw-5 items by the same
    value, and now and then stops mining before its plan is done (a step it forgot). Its
    choices are always legal; they are merely worse.
    """
    if len(legal) == 1:
        return legal[0]
    me = _own_player(view)
    phase = view.phase
    if phase == "draft":
        return max(legal, key=lambda a: _draft_score(view, a) + rng.gauss(0.0, EASY_NOISE))
    if phase == "place":
        return max(
            legal, key=lambda a: place_value(view, me, a.space, rng) + rng.gauss(0.0, EASY_NOISE)
        )
    if phase == "mining" and StopMining() in legal and rng.random() < EASY_EARLY_STOP:
        return StopMining()
    return choose(view, legal, rng)


def _own_player(view: GluckaufView) -> PlayerView:
    """The player the bot decides for: the view's seat, or the active one for a spectator's."""
    seat = view.viewer if view.viewer is not None else view.active
    if seat is None:
        raise ValueError("the bot decides for a seat: its view names none and nobody is active")
    return view.players[seat]


def _draft_score(view: GluckaufView, action: DraftOrder) -> float:
    order = next(o for o in view.draft_display if o.id == action.card)
    cheap = sum(1 for c in order.spots if c in ("Y", "B"))
    return order.vp - 0.8 * len(order.spots) + 0.3 * cheap


def _keep(view: GluckaufView, me: PlayerView, legal: list[Any]) -> Any:
    d = view.draw
    if d is None or d.drawn is None:
        return KeepItem(item=None)
    best: Any = KeepItem(item=None)
    best_value = 0.0
    for a in legal:
        if a.item is None:
            continue
        info = next(i for i in d.drawn if i.id == a.item)
        if isinstance(info, TileInfo):
            v = tile_value(info, me, me.money, view.shift)
        else:
            v = order_value(info, me, view.shift, me.supply)
        if v > best_value:
            best, best_value = a, v
    return best if best in legal else legal[-1]


def _mining(view: GluckaufView, me: PlayerView, legal: list[Any]) -> Any:
    m = view.mining
    budget = m.steps_left if m is not None else 0
    step = plan_step(Pit.from_view(me, _rivals(view, me)), budget, view.shift)
    return _step_action(step, legal)


def _step_action(step: Step, legal: list[Any]) -> Any:
    """The legal action of a planned mining step (stop, if the plan's step is not legal)."""
    kind = step[0]
    candidate: Any
    if kind == "stored":
        candidate = PlaceStoredCube(order=step[1], colour=step[2])
    elif kind == "unload":
        candidate = UnloadCube(order=step[1], colour=step[2])
    elif kind == "load":
        candidate = LoadCube(colour=step[1])
    elif kind == "move":
        candidate = MoveCage(level=step[1])
    elif kind == "tfo":
        candidate = StartTwoForOne(order=step[1], colour=step[2])
    else:
        candidate = StopMining()
    if candidate in legal:
        return candidate
    return StopMining() if StopMining() in legal else legal[-1]


# --------------------------------------------------------------------------- the search's judgement


#: A lead of this many VP in estimated final score gives prospects of about 73% (a logistic's
#: unit): normal bots' games end 20-50 VP apart, and an estimate mid-game is rough.
EVALUATION_SCALE = 15.0
#: Workers still in supply are the turns to come; one is worth about this many VP.
_WORKER_VP = 1.5
_ORDER_CARDS = ORDERS
_TILE_LIGHT: tuple[bool, ...] = tuple(t.side == "light" for t in TILES)


def _tallies(state: GluckaufState) -> tuple[list[dict[str, float]], list[dict[str, float]]]:
    """Each seat's counts for the delivered-order categories (§8.1 step 3): those of its
    delivered cards, and those its complete outstanding orders would add once delivered."""
    delivered: list[dict[str, float]] = []
    pending: list[dict[str, float]] = []
    for p in state.players:
        done = dict.fromkeys(_TALLY_KEYS, 0.0)
        for card in p.delivered:
            for key, count in _CARD_TALLY[card]:
                done[key] += count
        ready = dict.fromkeys(_TALLY_KEYS, 0.0)
        for outstanding in p.orders:
            if all(outstanding.spots):
                for key, count in _CARD_TALLY[outstanding.card]:
                    ready[key] += count
        delivered.append(done)
        pending.append(ready)
    return delivered, pending


_TALLY_KEYS: tuple[str, ...] = (*COLOURS, *TRANSPORTS)
_CARD_TALLY: tuple[tuple[tuple[str, int], ...], ...] = tuple(
    (*((c, o.spots.count(c)) for c in COLOURS if c in o.spots), (o.transport, len(o.spots)))
    for o in ORDERS
)


def _award(
    counts: list[float], first: float, second: float, second_place: bool, gains: list[float]
) -> None:
    """:func:`~app.games.gluckauf.rules.award` over estimated (fractional) counts, added to
    ``gains``: ties for first share it in full and leave no second (§8.1 step 4)."""
    top = max(counts)
    if top <= 0:
        return
    leaders = [seat for seat, c in enumerate(counts) if c == top]
    for seat in leaders:
        gains[seat] += first
    if len(leaders) == 1 and second_place:
        runner = max((c for c in counts if c < top), default=0.0)
        if runner > 0:
            for seat, c in enumerate(counts):
                if c == runner:
                    gains[seat] += second


def majorities(state: GluckaufState) -> list[float]:
    """The VP each seat can expect from the scorings to come (§8.1), from the counts as they
    stand. A lead is worth more the nearer its scoring: each seat's chance to come first
    (or second) in a category is a logistic of its lead over the others, whose spread grows
    with the workers still to place before that scoring. A complete order counts as nearly
    delivered while its owner has workers to deliver it this shift, and as delivered by the
    later scorings."""
    n = state.n_players
    second = PARAMS[n].second_place
    delivered, pending = _tallies(state)
    empties = [empty_carts_by_colour(p) for p in state.players]
    # Whether a complete order reaches this shift's scoring: a delivery takes a worker and a
    # free delivery space, which get scarce at the end of a shift.
    in_time = [min(1.0, 0.25 * p.supply) * 0.8 for p in state.players]
    workers = PARAMS[n].workers
    left_now = sum(p.supply for p in state.players) / (n * workers)  # of this shift, 1 -> 0
    gains = [0.0] * n
    for shift in range(state.shift, SHIFTS + 1):
        current = shift == state.shift
        spread = _SPREAD_BASE + _SPREAD_PER_SHIFT * (left_now + shift - state.shift)
        for cat in categories_for_shift(shift):
            key = cat.key
            if cat.kind == "empty":
                counts = [float(e[key]) for e in empties]  # type: ignore[index]
            elif current:
                counts = [
                    d[key] + w * r[key] for d, r, w in zip(delivered, pending, in_time, strict=True)
                ]
            else:
                counts = [d[key] + r[key] for d, r in zip(delivered, pending, strict=True)]
            _expected_award(counts, cat.first, cat.second if second else 0, spread, gains)
    return gains


#: The spread (in icons or carts) of a count by the time of its scoring: a little at the
#: scoring itself, and this much more per shift of play still to come.
_SPREAD_BASE = 0.3
_SPREAD_PER_SHIFT = 2.0


def _expected_award(
    counts: list[float], first: float, second: float, spread: float, gains: list[float]
) -> None:
    """Add each seat's expected VP in one category to ``gains``: first place with the chance
    that its count ends above every other, second with the chance that it ends above all but
    one (§8.1 step 4; a count still at 0 scores only if it has time to grow)."""
    for seat, mine in enumerate(counts):
        if mine <= 0 and spread < 1.0:
            continue
        others = sorted((c for i, c in enumerate(counts) if i != seat), reverse=True)
        top = _logistic((mine - others[0]) / spread)
        gains[seat] += first * top
        if second and len(others) > 1:
            gains[seat] += second * max(0.0, _logistic((mine - others[1]) / spread) - top)


def _logistic(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


# The worth, in VP, of what a pit and its orders hold: hand-set, guided by least-squares fits
# of final scores on these quantities over games of normal and easy bots (which value a
# Mark at 0.3-0.6, a cube at 1-2 VP, a filled spot at its share of the order or more, and a
# worker in supply at about 0.5), and ordered so that every step towards a delivery gains:
# a cube is worth less than the spot it fits, a filled spot less than a complete order, a
# complete order a little less than the delivered one.
#: A cube, by colour: its coal VP at the end and the orders it may fill, which pay more for
#: the deeper colours (about 1.5 VP a yellow icon, 4.3 a black one).
_CUBE: dict[Colour, float] = {"Y": 1.0, "B": 1.0, "G": 1.2, "K": 1.5}
#: A cube that an open spot wants is worth at least this share of the spot's VP: at the
#: surface (storage, or the cage at level 0), down the pit; then once on the spot.
_NEAR_SHARE = 0.8
_FAR_SHARE = 0.65
_FILLED_SHARE = 0.9
#: A complete order, short of the worker that delivers it.
_COMPLETE = -0.5
#: By shift: a Mark, an incomplete order (its -1 VP at the end if it stays so, §9, and the
#: turns it takes), a tile of imbalance (-2 VP at the end, §9, but time to even it out).
_MARK = (0.45, 0.4, 0.3)
_INCOMPLETE = (-1.5, -1.5, -2.0)
_IMBALANCE = (0.0, -0.5, -1.5)
_WORKER = 0.5


def projected_score(state: GluckaufState, seat: Seat) -> float:
    """An estimate of ``seat``'s final VP, majorities of the scorings to come left out: VP so
    far, money, the coal in the pit (more for coal an open spot wants, more at the surface),
    the orders under way, the workers left and the tile imbalance (§9). Finished: the VP,
    leftover Marks breaking ties."""
    p = state.players[seat]
    if state.phase == "over":
        return p.vp + p.money * 0.01  # the leftover Marks break ties (§9)
    late = min(state.shift, SHIFTS) - 1
    value = p.vp + p.money * _MARK[late] + _WORKER * p.supply
    near: Counter[Colour] = Counter(p.storage)
    far: Counter[Colour] = Counter(c for c in p.printed if c is not None)
    (near if p.cage_level == 0 else far).update(p.cage)
    for t in p.tiles:
        far.update(c for c in t.carts if c is not None)
    open_spots: list[tuple[float, Colour]] = []
    for outstanding in p.orders:
        o = _ORDER_CARDS[outstanding.card]
        if all(outstanding.spots):
            value += o.vp + _COMPLETE
            continue
        value += _INCOMPLETE[late]
        share = o.vp / len(o.spots)
        for i, cubes in enumerate(outstanding.spots):
            if cubes:
                value += _FILLED_SHARE * share
            else:
                open_spots.append((share, o.spots[i]))
    # The richest open spots get the coal first, the cubes at the surface before the others.
    open_spots.sort(reverse=True)
    for share, colour in open_spots:
        if near[colour] > 0:
            near[colour] -= 1
            value += max(_CUBE[colour], _NEAR_SHARE * share)
        elif far[colour] > 0:
            far[colour] -= 1
            value += max(_CUBE[colour], _FAR_SHARE * share)
    for c in COLOURS:
        value += _CUBE[c] * (near[c] + far[c])
    light = sum(1 for t in p.tiles if _TILE_LIGHT[t.tile])
    return value + _IMBALANCE[late] * abs(2 * light - len(p.tiles))


def finish_mining(state: GluckaufState) -> GluckaufState:
    """``state`` with the mining action under way (if any) played out as the normal bot's
    plan would: a search that stops in the middle of one judges what the steps left are
    worth, not where its random steps left the cage."""
    s = state
    for _ in range(2 * CAGE_CAPACITY * 4):  # more than any budget's steps
        phase = s.phase
        if phase != "mining" and phase != "two_for_one":
            break
        seat = s.active
        legal: list[Any] = legal_actions(s, seat)
        if phase == "two_for_one":
            pit = Pit.from_state(s, seat)
            action = min(legal, key=lambda a: (_surplus_rank(pit, a.colour), a.source != "storage"))
        else:
            budget = s.mining.budget if s.mining is not None else 0
            action = _step_action(plan_step(Pit.from_state(s, seat), budget, s.shift), legal)
        s, _ = apply(s, seat, action)
    return s


def evaluate(state: GluckaufState) -> list[float]:
    """Each seat's prospects in [0, 1]: a logistic of its estimated final score (projected
    score plus the majorities it holds) minus the best other seat's, once the mining action
    under way is finished (:func:`finish_mining`)."""
    state = finish_mining(state)
    n = state.n_players
    if state.phase == "over":
        totals = [projected_score(state, seat) for seat in range(n)]
    else:
        held = majorities(state)
        totals = [projected_score(state, seat) + held[seat] for seat in range(n)]
    out: list[float] = []
    for seat in range(n):
        lead = totals[seat] - max(t for i, t in enumerate(totals) if i != seat)
        out.append(_logistic(lead / EVALUATION_SCALE))
    return out


__all__ = ["choose", "easy", "evaluate", "plan_step", "projected_score", "simulate_mining"]
