"""Ginkgopolis bot: a one-step look-ahead over the public view and the seat's own hand.

The "normal" policy scores every legal selection with a small simulation of its
effect on a copy of the visible city: items gained (valued by what they can still
become), the district majorities and end-game cards the seat would hold if the game
ended now, the value of the card won by building up, the SP handed to another owner
and the districts taken away from opponents. It sees nothing but the view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import data as D
from .actions import Contribute, ContributeDone, DraftPick, KeepHand, MoveToken, Select, Take
from .rules import (
    Building,
    FinalScore,
    GinkgopolisState,
    cell_of,
    compute_scores,
    district_at,
    district_scores,
    districts,
    end_card_score,
    neighbours,
    score_district,
)
from .view import GinkgopolisView

_TRIGGER_WEIGHT = {"build_up": 1.3, "urbanize": 1.1, "exploit": 1.0}

#: Tunable weights of the evaluation (benchmarks/ginkgopolis_bot.py measures them).
W: dict[str, float] = {
    "tile_spent": 0.8,  # a tile used up by urbanizing or building
    "resource_placed": 0.6,  # a resource moved from the screen onto a building
    "rival_sp": 0.6,  # per SP handed to a rival owner
    "final_now": 0.4,  # district + end-card points "if the game ended now"
    "final_late": 0.65,  # the same when fewer than 3 rounds remain
    "rivals": 0.5,  # weight of the best rival's change of points
    "growth": 0.4,  # expected growth of an end-game card per remaining round
    "bonus_rounds": 2.5,  # rounds per expected trigger of a permanent bonus
    "min_scale": 0.7,  # value of an item when the game is about to end
    "hal_spend": 2.5,  # resources Hal spends per round (solo end estimate)
}


#: The rules of the end-game cards that count buildings of the city.
_BUILDING_RULES = frozenset({"owned_colour", "owned_height"})


@dataclass
class _EndCards:
    """Each seat's end-card points in the city as it stands, and its cards among them that
    count buildings (:data:`_BUILDING_RULES`)."""

    points: list[int]
    counting_buildings: list[list[str]]


@dataclass
class _Ctx:
    view: GinkgopolisView
    me: int
    city: dict[str, Building]
    n_owners: int
    rounds_left: float
    tops: dict[str, str] = field(default_factory=dict)
    #: :func:`_points` of the city as it stands, the same for every option weighed.
    standing: tuple[float, float] | None = None
    #: The districts of the city as it stands (:func:`_districts_standing`).
    districts: _Districts | None = None
    #: Each seat's end-card points in the city as it stands (:func:`_end_cards_standing`).
    end_cards: _EndCards | None = None


@dataclass
class _Districts:
    """The districts of a city: which one holds each cell, and each one's SP per owner."""

    group_of: dict[str, int]
    scores: list[dict[int, int]]
    totals: list[int]


def _ctx(view: GinkgopolisView, me: int | None = None) -> _Ctx:
    """The judgement's context for seat ``me`` (the view's own seat by default): it reads only
    what the view shows every seat, so it judges another seat's options as well."""
    if me is None:
        me = view.seat if view.seat is not None else 0
    city = {
        f"{b.cell[0]},{b.cell[1]}": Building(tiles=list(b.tiles), owner=b.owner, pending=b.pending)
        for b in view.city
    }
    n = len(view.players)
    per_round = 2.0 * max(1, view.n_players)
    left = view.supply_count / per_round + (0 if view.refill_done else 4.0)
    # the other end conditions: somebody's resources running out, Hal unable to pay
    for pl in view.players:
        stock = pl.supply + (0 if pl.hal else pl.resources)
        left = min(left, stock / W["hal_spend"] if pl.hal else stock / 1.5 + 1.0)
    if view.end_triggered:
        left = 0.0
    tops = {b.top: f"{b.cell[0]},{b.cell[1]}" for b in view.city if not b.pending}
    return _Ctx(view, me, city, n, left, tops)


def _districts_standing(ctx: _Ctx) -> _Districts:
    if ctx.districts is None:
        group_of: dict[str, int] = {}
        scores: list[dict[int, int]] = []
        totals = [0] * ctx.n_owners
        for i, group in enumerate(districts(ctx.city)):
            group_of.update(dict.fromkeys(group, i))
            scores.append(score_district(ctx.city, group))
            for o, v in scores[-1].items():
                totals[o] += v
        ctx.districts = _Districts(group_of, scores, totals)
    return ctx.districts


def _district_totals(ctx: _Ctx, city: dict[str, Building], changed: str | None) -> list[int]:
    """``district_scores(city)``, where ``city`` is the city as it stands but for the one
    cell ``changed``: only the groups that cell and its neighbours are in can differ, so
    only they are counted anew."""
    if changed is None:
        return district_scores(city, ctx.n_owners)
    standing = _districts_standing(ctx)
    near = [changed, *(f"{c[0]},{c[1]}" for c in neighbours(cell_of(changed)))]
    out = list(standing.totals)
    for i in {standing.group_of[k] for k in near if k in standing.group_of}:
        for o, v in standing.scores[i].items():
            out[o] -= v
    counted: set[str] = set()
    for k in near:
        if k in city and k not in counted:
            group = district_at(city, k)
            counted.update(group)
            if len(group) >= 2:
                for o, v in score_district(city, group).items():
                    out[o] += v
    return out


def _end_cards_standing(ctx: _Ctx) -> _EndCards:
    if ctx.end_cards is None:
        players = ctx.view.players
        ctx.end_cards = _EndCards(
            [
                sum(
                    end_card_score(c, p, ctx.city, [*pl.characters, *pl.tableau])
                    for c in pl.tableau
                )
                for p, pl in enumerate(players)
            ],
            [
                [c for c in pl.tableau if D.BUILDING_CARDS[c].rule in _BUILDING_RULES]
                for pl in players
            ],
        )
    return ctx.end_cards


def _points(
    ctx: _Ctx, city: dict[str, Building], tableau: list[str], changed: str | None = None
) -> tuple[float, float]:
    """The district and end-card points the seat (with ``tableau``) and its best rival
    would hold if the game ended with ``city``: the city as it stands but for the cell
    ``changed``, if named (else the city as it stands). The districts are counted once for
    both. A rival's tableau is as it stands and its end cards count buildings one by one,
    so only what the changed building adds to them is counted anew."""
    dist = _district_totals(ctx, city, changed)
    standing = _end_cards_standing(ctx)
    before = {} if changed is None or changed not in ctx.city else {changed: ctx.city[changed]}
    after = {} if changed is None else {changed: city[changed]}
    mine = 0.0
    best_other = 0.0
    for p, pl in enumerate(ctx.view.players):
        if p == ctx.me:
            tab = [*pl.characters, *tableau]
            mine = float(dist[p] + sum(end_card_score(c, p, city, tab) for c in tableau))
            continue
        end = standing.points[p]
        for c in standing.counting_buildings[p]:
            end += end_card_score(c, p, after, []) - end_card_score(c, p, before, [])
        best_other = max(best_other, float(dist[p] + end))
    return mine, best_other


def _standing(ctx: _Ctx) -> tuple[float, float]:
    if ctx.standing is None:
        ctx.standing = _points(ctx, ctx.city, list(ctx.view.players[ctx.me].tableau))
    return ctx.standing


def _item_value(ctx: _Ctx, item: str) -> float:
    if item == "sp":
        return 1.0
    if ctx.rounds_left <= 0:
        return 0.0
    scale = min(1.0, W["min_scale"] + ctx.rounds_left / 10.0)
    return (1.1 if item == "resource" else 1.0) * scale


def _colour_value(ctx: _Ctx, colour: str, amount: int) -> float:
    return amount * _item_value(ctx, D.ITEM_OF[colour])


def _bonus_value(ctx: _Ctx, trigger: str) -> float:
    pl = ctx.view.players[ctx.me]
    total = 0.0
    for card in [*pl.characters, *pl.tableau]:
        b = D.bonus_of(card)
        if b is not None and b[0] == trigger:
            total += sum(_item_value(ctx, it) * n for it, n in b[1])
    return total


def _card_value(ctx: _Ctx, card: str, city: dict[str, Building]) -> float:
    """Value of winning ``card`` into the tableau."""
    bc = D.BUILDING_CARDS[card]
    pl = ctx.view.players[ctx.me]
    if bc.kind == "permanent":
        triggers_left = ctx.rounds_left / W["bonus_rounds"]
        return (
            triggers_left
            * sum(_item_value(ctx, it) * n for it, n in bc.reward)
            * _TRIGGER_WEIGHT.get(bc.trigger or "", 1.0)
        )
    tab = [*pl.characters, *pl.tableau, card]
    now = float(end_card_score(card, ctx.me, city, tab))
    growth = 0.0
    if bc.rule in ("owned_colour", "owned_height"):
        growth = min(ctx.rounds_left, 6) * W["growth"] * bc.per
    elif bc.rule in ("tableau_trigger", "tableau_colour"):
        growth = min(ctx.rounds_left, 6) * W["growth"] * 0.5 * bc.per
    # cards 16-19 already scored by other tableau cards count for ``card`` too
    return now + growth


def _score_select(ctx: _Ctx, card: str, tile: str | None) -> float:
    view = ctx.view
    me = ctx.me
    pl = view.players[me]
    if tile is None:
        value = _bonus_value(ctx, "exploit")
        if D.is_urbanization(card):
            return value + max(_item_value(ctx, "resource"), _item_value(ctx, "tile"))
        k = ctx.tops.get(card)
        if k is None:
            return value
        b = ctx.city[k]
        return value + _colour_value(ctx, b.top[0], b.height)
    # The city as it stands but for the one building the selection makes or changes.
    city = dict(ctx.city)
    value = -_item_value(ctx, "tile") * W["tile_spent"]
    if D.is_urbanization(card):
        site = view.tokens.get(D.letter_of(card))
        if site is None:
            return -100.0
        changed = f"{site[0]},{site[1]}"
        city[changed] = Building(tiles=[tile], owner=me, pending=True)
        for c in neighbours(site):
            nb = city.get(f"{c[0]},{c[1]}")
            if nb is not None:
                value += _colour_value(ctx, nb.top[0], nb.height)
        value -= _item_value(ctx, "resource") * W["resource_placed"]
        value += _bonus_value(ctx, "urbanize")
        tableau = list(pl.tableau)
    else:
        changed = ctx.tops[card]
        standing = city[changed]
        b = city[changed] = Building(
            tiles=list(standing.tiles), owner=standing.owner, pending=standing.pending
        )
        h = b.height
        sp_cost = max(0, D.number_of(b.top) - D.number_of(tile))
        colour_cost = 1 if tile[0] != b.top[0] else 0
        value -= sp_cost + colour_cost * _item_value(ctx, "resource")
        if b.owner is not None and b.owner != me:
            # the SP handed to the previous owner helps a rival
            value -= W["rival_sp"] * h
        placed = h + 1 - (h if b.owner == me else 0)
        value -= placed * _item_value(ctx, "resource") * W["resource_placed"]
        b.tiles.append(tile)
        b.owner = me
        value += _bonus_value(ctx, "build_up")
        value += _card_value(ctx, card, city)
        tableau = [*pl.tableau, card]
        # a higher number protects the new top (a rival pays more to cover it)
        value += 0.05 * D.number_of(tile)
    base_me, base_others = _standing(ctx)
    after_me, after_others = _points(ctx, city, tableau, changed)
    weight = W["final_late"] if ctx.rounds_left < 3 else W["final_now"]
    value += weight * (after_me - base_me)
    if view.n_players > 1 or view.solo:
        value -= W["rivals"] * (after_others - base_others)
    return value


def _choose_token(ctx: _Ctx, cands: list[MoveToken], for_hal: bool) -> MoveToken:
    def heights(a: MoveToken) -> int:
        return sum(
            ctx.city[k].height for c in neighbours(a.cell) if (k := f"{c[0]},{c[1]}") in ctx.city
        )

    return min(cands, key=heights) if for_hal else max(cands, key=heights)


def choose(view: GinkgopolisView, legal: list[Any], rng: random.Random) -> Any:
    """The normal policy: return one element of ``legal``."""
    first = legal[0]
    if isinstance(first, DraftPick):

        def draft_key(a: DraftPick) -> float:
            ch = D.CHARACTERS[a.character]
            return _TRIGGER_WEIGHT[ch.trigger] + 0.3 * (
                ch.start_resources + ch.start_sp + ch.start_tiles
            )

        return max(legal, key=draft_key)
    if isinstance(first, KeepHand):
        return first
    if isinstance(first, Take):
        pl = view.players[view.seat or 0]
        want = "resource" if pl.resources <= pl.tile_count else "tile"
        for a in legal:
            if a.item == want:
                return a
        return first
    if isinstance(first, MoveToken):
        ctx = _ctx(view)
        d = view.decision
        for_hal = bool(view.solo and d is not None and d.player == 1)
        return _choose_token(ctx, list(legal), for_hal)
    if isinstance(first, (Contribute, ContributeDone)):
        pl = view.players[view.seat or 0]
        behind = len(pl.tiles or [])
        if behind > 3:
            tiles = [a for a in legal if isinstance(a, Contribute)]
            return min(tiles, key=lambda a: D.number_of(a.tile))
        return legal[-1]
    if isinstance(first, Select):
        ctx = _ctx(view)
        scored = [
            (_score_select(ctx, a.card, a.tile) + rng.random() * 1e-6, i)
            for i, a in enumerate(legal)
        ]
        return legal[max(scored)[1]]
    return legal[rng.randrange(len(legal))]


def selection_judge(view: GinkgopolisView, seat: int) -> Callable[[str, str | None], float]:
    """The normal policy's score of a selection (card, tile or None) that ``seat`` might
    make, from what ``view`` shows every seat: how another seat weighs its options, for
    the strong bot's worlds to deal a secret selection as it was likely chosen."""
    ctx = _ctx(view, seat)
    return lambda card, tile: _score_select(ctx, card, tile)


#: How far the easy policy misjudges a selection (SP of noise on each score), and how often it
#: takes any other decision (item, token cell, refill tile, draft pick) at random.
EASY_NOISE = 2.5
EASY_SLIP = 0.3


def easy(view: GinkgopolisView, legal: list[Any], rng: random.Random) -> Any:
    """The easy policy: the normal judgement of a selection blurred by noise, as a player who
    weighs the options roughly, and now and then a careless choice elsewhere."""
    first = legal[0]
    if isinstance(first, Select):
        ctx = _ctx(view)
        scored = [
            (_score_select(ctx, a.card, a.tile) + rng.gauss(0.0, EASY_NOISE), i)
            for i, a in enumerate(legal)
        ]
        return legal[max(scored)[1]]
    if rng.random() < EASY_SLIP:
        return legal[rng.randrange(len(legal))]
    return choose(view, legal, rng)


# --------------------------------------------------------------------------- the search's judge

#: Weights of :func:`evaluate`: least-squares fits of the final margin over the best other
#: seat (solo: over Hal) on positions of games between normal bots (solo 150 games; 2 and 4
#: players 80 and 50, their weights blended), the final margins' spread around them setting
#: the sigmoid's unit.
E_SOLO: dict[str, float] = {
    "sp": 0.75,  # per SP banked
    "board": 0.8,  # per point of districts and end-game cards if the game ended now
    "item": 0.06,  # per resource or tile behind the screen, and per supply tile to go
    "item_supply": 0.022,
    "bonus": 0.03,  # per item a permanent bonus gives, and per supply tile to go
    "bonus_supply": 0.046,
    "supply": -0.16,  # per tile left in the supply (Hal scores on while it lasts)
    "stock": -0.43,  # per resource left to whichever of you and Hal has fewest (ditto)
    "scale": 10.0,  # SP of expected lead that make a seat's prospects 0.73
}
E_TABLE: dict[str, float] = {
    "sp": 0.75,
    "board": 0.9,
    "item": 0.7,
    "item_supply": 0.0,
    "bonus": 0.3,
    "bonus_supply": 0.06,
    "supply": 0.0,
    "stock": 0.0,
    "scale": 10.0,
}

#: A refill still to come is worth this many supply tiles (§10).
_REFILL_TILES = 20


def _bonus_items(cards: tuple[str, ...] | list[str]) -> int:
    return sum(n for c in cards if (b := D.BONUS[c]) is not None for _, n in b[1])


def _lead(
    s: GinkgopolisState,
    final: list[FinalScore],
    p: int,
    o: int,
    supply: int,
    weights: dict[str, float],
) -> float:
    """The expected final margin of player ``p`` over player ``o`` (see :data:`E_SOLO`)."""
    me, other = s.players[p], s.players[o]
    fp, fo = final[p], final[o]
    lead = weights["sp"] * (fp.sp - fo.sp) + (fp.tokens - fo.tokens)
    lead += weights["board"] * (fp.districts + fp.cards - fo.districts - fo.cards)
    items = me.resources + len(me.tiles) + len(me.set_aside)
    bonus = _bonus_items([*me.characters, *me.tableau])
    if not other.hal:
        items -= other.resources + len(other.tiles) + len(other.set_aside)
        bonus -= _bonus_items([*other.characters, *other.tableau])
    lead += (weights["item"] + weights["item_supply"] * supply) * items
    lead += (weights["bonus"] + weights["bonus_supply"] * supply) * bonus
    return lead


def evaluate(s: GinkgopolisState) -> list[float]:
    """Each seat's prospects in [0, 1]: a sigmoid of its expected final margin over the best
    other seat (solo: over Hal, the one seat's prospect of beating him), from the points of
    §12 as they stand, the SP banked, what its resources, tiles and permanent bonuses may
    still bring while the supply lasts and, solo, how long Hal has to score on. A finished
    game's margins are its final scores'."""
    n = s.n_players
    final = s.final if s.final is not None else compute_scores(s)
    totals = [f.total for f in final]
    over = s.phase == "over"
    supply = 0 if over else len(s.supply) + (0 if s.refill_done else _REFILL_TILES)
    weights = E_SOLO if s.solo else E_TABLE
    out: list[float] = []
    for p in range(n):
        o = max((q for q in range(len(totals)) if q != p), key=totals.__getitem__)
        if over:
            lead = float(totals[p] - totals[o])
        else:
            lead = _lead(s, final, p, o, supply, weights)
            if s.solo:
                stock = min(pl.supply + pl.resources for pl in s.players)
                lead += weights["supply"] * supply + weights["stock"] * stock
        out.append(1.0 / (1.0 + math.exp(-lead / weights["scale"])))
    return out
