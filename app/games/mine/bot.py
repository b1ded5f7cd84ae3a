"""The MINE! bot: a one-card-at-a-time evaluator that decides only from its seat's view.

For every legal placement it estimates, with the round's public facts (stocks, the die or die
card, every public placement with its victim, the number of event cards the others placed,
the supply) and its own hidden cards, what the round will bring:

- coal lost to raids: each visible stack against it counts about 1.6 attack per card, plus a
  small threat from directors still placing; its own watchtower defence is exact;
- coal gained by raiding: its own attack is exact; the victim's defence is estimated from the
  victim's visible watchtower cards; the take is capped by the victim's stock (only stocks as
  they stand can be looted, §5.5);
- this round's sale: min(stock after raids, sale limit (+2 with Big Order));
- next round's stock and sale: carried coal plus the expected extraction (pit builders against
  the risk of firedamp, counted from the event cards on the table; each pit builder protects
  against one firedamp card, two with Safety Lamp; Rich Seam; the variant's mine maximum; what
  the supply can give);
- the value of its hand for the rounds to come: every director draws 2 at step 6 (§5.9), and
  each card at Recruitment adds its REC (a drawn card is worth a little more than the card it
  replaces: the draw pile holds the events and specialists); plus a little for hurting the
  others (Strike, Cage Breakdown, Firedamp, raids).

It picks the placement with the best gain, and passes when nothing improves its outlook;
while opponents still place, staying in the round (to answer a raid later) counts too.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from app.games.base import Seat
from app.games.mine.actions import DiscardCard, PassTurn, PlaceCard
from app.games.mine.data import (
    ATK,
    BASE_DRAW,
    DEF,
    DIE_CARDS,
    EXT,
    HIRING_DAY_DRAW,
    IS_EVENT,
    KIND,
    MAX_PLACED,
    REC,
    ROUNDS,
)
from app.games.mine.rules import Director, MineState, Placement, _resolve, fork
from app.games.mine.view import MineView
from app.games.trusted import maker, put

ATK_PER_HIDDEN_CARD = 1.6
DEF_PER_HIDDEN_CARD = 1.7
RAID_THREAT = 0.12  # chance that one card still to be placed by an opponent raids us
FIREDAMP_SHARE = 0.3  # 3 of the 10 event cards are firedamp
HARM = 0.25  # value of one point taken from an opponent
PASS_MARGIN = 0.05  # a placement must gain more than this over passing
# Under the revised §5.9 a REC-1 card at Recruitment is card-neutral (one card out, one in),
# so the hand count alone makes it worthless and the bot passed early. Two things it was
# missing, measured head to head against the bot that still assumed the old draw (a base 2
# only with a Recruitment card): 2 seats 106-94 wins, 4 seats 84-66 (bots vs bots, seeds
# 9000+): the option of answering a raid later (a pass is final) and the draw pile's quality
# (it holds the events and specialists, the starting hands only miners and pit builders).
STAY_IN = 0.2  # value of staying in the round to react later (see _can_still_react)
STAY_IN_MIN_STOCK = 1  # ... but only with coal that a later raid could take
DRAW_QUALITY = 0.3  # per card drawn through REC: a drawn card beats the one it replaces
RIVAL_BONUS = 0.0  # extra weight of the harm done to an opponent level with us or ahead

EVENT_KEEP = {
    "firedamp": 1.6,
    "safety_lamp": 1.0,
    "big_order": 1.8,
    "rich_seam": 1.8,
    "hiring_day": 1.8,
    "strike": 1.8,
    "cage_breakdown": 1.5,
    "gendarmes": 1.4,
}


@dataclass
class _Plan:
    """The bot's own cards placed this round (real and hypothetical)."""

    events: list[int]
    raids: dict[int, list[int]]
    watch: list[int]
    mine: list[int]
    rec: list[int]


@functools.cache
def _binom_tail(n: int, p: float, k: int) -> float:
    """P(X > k) for X ~ Binomial(n, p)."""
    if k < 0:
        return 1.0
    total = 0.0
    coeff = 1.0
    for i in range(n + 1):
        if i > 0:
            coeff = coeff * (n - i + 1) / i
        if i > k:
            total += coeff * p**i * (1 - p) ** (n - i)
    return total


def _card_keep_value(card: int, round_no: int) -> float:
    if IS_EVENT[card]:
        return EVENT_KEEP.get(KIND[card], 1.0)
    return max(ATK[card], DEF[card], EXT[card], REC[card]) + 0.4 * EXT[card] + 0.2 * DEF[card]


class _Evaluator:
    def __init__(self, view: MineView) -> None:
        if view.you is None or view.hand is None:
            raise ValueError("the bot plans from its own director's view, with its hand")
        self.view = view
        self.me: Seat = view.you
        self.my = view.directors[self.me]
        self.n = len(view.directors)
        self.round = view.round
        self.others = [d for d in view.directors if d.director != self.me]
        self.remaining = {d.director: (0 if d.done else 4 - d.placed_count) for d in self.others}
        self.other_events = sum(1 for d in self.others for p in d.placed if p.location == "events")
        self.future_events = sum(self.remaining.values()) * 0.03
        self.limit_all = view.sale_limit
        # Supply available at the Mine step, roughly: the supply plus this round's sales.
        sales = sum(min(d.stock, view.sale_limit) for d in view.directors)
        self.supply_at_mine = view.supply + sales
        # Extraction the directors before us in turn order may take first.
        order = view.turn_order
        before = order[: order.index(self.me)]
        self.taken_before = 0.0
        for d in before:
            dv = view.directors[d]
            mine_cards = sum(1 for p in dv.placed if p.location == "mine")
            self.taken_before += 1.6 * mine_cards + (0 if dv.done else 1.0)
        self.next_limit = self._next_limit()
        # How much hurting each opponent matters: more for those level with us or ahead.
        mine_total = self.my.score + self.my.stock
        self.rival = {
            d.director: 1.0 + RIVAL_BONUS * (d.score + d.stock >= mine_total - 2)
            for d in self.others
        }
        self.rival[self.me] = 0.0
        # What value() reads of the others for every placement weighed, worked out once:
        # each one's raid on us (the stack shown and the cards it may still place) and,
        # per possible victim, its guard and how many others raid it too.
        self.threats = [
            (
                next((s.size for s in d.stacks if s.victim == self.me), 0),
                self.remaining[d.director] * RAID_THREAT,
            )
            for d in self.others
        ]
        self.victim_guard: dict[int, tuple[float, int]] = {}

    def _guard(self, victim: int) -> tuple[float, int]:
        """A raid victim's expected defence and the number of stacks others aim at it."""
        found = self.victim_guard.get(victim)
        if found is None:
            dv = self.view.directors[victim]
            watch = sum(1 for q in dv.placed if q.location == "watchtower")
            vdef = DEF_PER_HIDDEN_CARD * watch
            if not dv.done:
                vdef += 0.6 * (4 - dv.placed_count) * 0.25 * DEF_PER_HIDDEN_CARD
            rivals = sum(
                1
                for d in self.others
                if d.director != victim
                for s in d.stacks
                if s.victim == victim
            )
            found = self.victim_guard[victim] = (vdef, rivals)
        return found

    def _next_limit(self) -> float:
        v = self.view
        if self.round >= 6:
            return 0.0
        if v.variant:
            used = {*v.used_die_cards, *([v.die_card] if v.die_card else [])}
            rest = [c.sale_max for k, c in DIE_CARDS.items() if k not in used]
            return sum(rest) / len(rest) if rest else 3.0
        return float(self.round + 1)

    def _next_mine_cap(self) -> float | None:
        v = self.view
        if not v.variant:
            return None
        return v.mine_max

    def plan(self) -> _Plan:
        p = _Plan([], {}, [], [], [])
        for placed in self.my.placed:
            if placed.card is None:
                raise ValueError("the bot's own placed cards are face up to it (§5.2)")
            self._add(p, placed.card, placed.location, placed.victim)
        return p

    @staticmethod
    def _add(p: _Plan, card: int, location: str, victim: int | None) -> None:
        if location == "events":
            p.events.append(card)
        elif location == "shelter":
            if victim is None:
                raise ValueError(f"card {card} in the shelter names no victim (§5.5)")
            p.raids.setdefault(victim, []).append(card)
        elif location == "watchtower":
            p.watch.append(card)
        elif location == "mine":
            p.mine.append(card)
        elif location == "recruitment":
            p.rec.append(card)

    def value(self, p: _Plan, hand_after: int) -> float:
        v = self.view
        kinds = {KIND[c] for c in p.events}
        own_firedamp = sum(1 for c in p.events if KIND[c] == "firedamp")
        stock = self.my.stock
        # Raids against us.
        defence = sum(DEF[c] for c in p.watch)
        loss = 0.0
        if "gendarmes" not in kinds:
            for size, future in self.threats:
                attack = ATK_PER_HIDDEN_CARD * (size + future)
                if size:
                    loss += max(0.0, attack - defence)
                else:
                    loss += future * max(0.0, ATK_PER_HIDDEN_CARD * 1.3 - defence)
            loss = min(loss, float(stock))
        # Our raids.
        gain = 0.0
        harm = 0.0
        for victim, stack in p.raids.items():
            dv = v.directors[victim]
            attack = sum(ATK[c] for c in stack)
            vdef, rivals = self._guard(victim)
            take = min(max(0.0, attack - vdef), dv.stock / (1 + 0.5 * rivals))
            gain += 0.85 * take
            harm += 0.85 * take * self.rival[victim]
        after = stock - loss + gain
        limit = self.limit_all + (2 if "big_order" in kinds else 0)
        sold = min(after, limit)
        carry = after - sold
        total = sold
        if self.round < 6:
            # Extraction.
            ext = float(sum(EXT[c] for c in p.mine))
            pit = sum(1 for c in p.mine if KIND[c] == "pit_builder")
            if "rich_seam" in kinds and p.mine:
                ext += 2
            cap = self._next_mine_cap()
            if cap is not None:
                ext = min(ext, cap)
            avail = max(0.0, self.supply_at_mine - self.taken_before)
            ext = min(ext, avail)
            # §5.8 step 2: blasted when the pit builders protect against fewer firedamp cards
            # than are revealed; with Safety Lamp each protects against two (§2.6).
            protected = pit * (2 if "safety_lamp" in kinds else 1)
            k = self.other_events
            blast = _binom_tail(k, FIREDAMP_SHARE, protected - own_firedamp)
            if protected <= own_firedamp + k:
                blast = max(blast, min(1.0, blast + self.future_events))
            if own_firedamp > protected:
                blast = 1.0
            ext *= 1.0 - blast
            nxt = carry + ext
            next_sale = min(nxt, self.next_limit)
            total += 0.9 * next_sale
            if self.round + 2 <= 6:
                total += 0.45 * min(max(0.0, nxt - self.next_limit), self.next_limit + 1)
            # Hurting the others' extraction.
            if "strike" in kinds:
                harm += 0.8 * sum(self.rival[d.director] for d in self.others)
            if own_firedamp:
                harm += 0.7 * own_firedamp * sum(self.rival[d.director] for d in self.others)
        if "cage_breakdown" in kinds:
            harm += 0.9 * sum(
                self.rival[d.director] for d in self.others if d.stock >= self.limit_all
            )
        # Hand for the rounds to come: the base draw comes with or without Recruitment cards.
        draws = BASE_DRAW + sum(REC[c] for c in p.rec)
        if "hiring_day" in kinds:
            draws += HIRING_DAY_DRAW
        total += self._hand_value(hand_after + draws)
        if self.round < 6:
            total += DRAW_QUALITY * sum(REC[c] for c in p.rec)
        return total + HARM * harm

    def _hand_value(self, size: int) -> float:
        rounds_left = 6 - self.round
        if rounds_left <= 0:
            return 0.0
        scale = 1.0 if rounds_left >= 2 else 0.45
        value = 0.0
        for i in range(min(size, 8)):
            value += 0.7 if i < 4 else (0.4 if i < 6 else 0.15)
        return scale * value


def _choose_discard(view: MineView, legal: list[Any]) -> Any:
    return min(
        legal,
        key=lambda a: (
            (_card_keep_value(a.card, view.round), -a.card)
            if isinstance(a, DiscardCard)
            else (99.0, 0)
        ),
    )


def _can_still_react(view: MineView, me: Seat) -> bool:
    """Whether placing now (rather than passing) keeps a later placement to answer with.

    A pass is final (§5.2): a director still in the round can guard against a raid shown
    after its turn, a passed one cannot. That option is worth something while it has coal to
    guard, an opponent is still placing and this placement is not its last of the round.
    """
    mine = view.directors[me]
    others_placing = any(not d.done for d in view.directors if d.director != me)
    return (
        mine.stock >= STAY_IN_MIN_STOCK
        and others_placing
        and mine.placed_count + 1 < view.max_placed
    )


def _not_a_placement(view: MineView, legal: list[Any]) -> Any | None:
    """The move when this is no choice of a placement (a discard, or a lone option); None
    when it is one."""
    if not legal:
        raise ValueError("the bot was asked to act with no legal action")
    if view.phase == "discard" or view.you is None or view.hand is None:
        if all(isinstance(a, DiscardCard) for a in legal):
            return _choose_discard(view, legal)
        return legal[0]
    return None


def _placement_gains(view: MineView, legal: list[Any]) -> Iterator[tuple[int, PlaceCard, float]]:
    """Each legal placement, by its index, with what it adds to the round's plan as the
    normal bot values it: the judgement both levels share."""
    ev = _Evaluator(view)
    base_plan = ev.plan()
    hand_size = len(view.hand or [])
    base = ev.value(base_plan, hand_size)
    for i, action in enumerate(legal):
        if not isinstance(action, PlaceCard):
            continue
        p = _Plan(
            list(base_plan.events),
            {k: list(v) for k, v in base_plan.raids.items()},
            list(base_plan.watch),
            list(base_plan.mine),
            list(base_plan.rec),
        )
        ev._add(p, action.card, action.location, action.victim)
        yield i, action, ev.value(p, hand_size - 1) - base


def choose(view: MineView, legal: list[Any], rng: random.Random) -> Any:
    """Return the bot's action: always an element of ``legal``, decided from ``view`` only."""
    other = _not_a_placement(view, legal)
    if other is not None or view.you is None:  # a placement is chosen only for a seat
        return other
    best: Any = None
    best_gain = PASS_MARGIN - (STAY_IN if _can_still_react(view, view.you) else 0.0)
    for _, action, gain in _placement_gains(view, legal):
        gain += rng.random() * 1e-6  # deterministic given rng; breaks exact ties
        if gain > best_gain:
            best, best_gain = action, gain
    if best is None:
        return next((a for a in legal if isinstance(a, PassTurn)), legal[-1])
    return best


# --------------------------------------------------------------------------- easy

#: The easy bot's misjudgement: noise of this spread (in points) on each placement's gain.
EASY_NOISE = 0.6
#: How often it takes one of its few best-looking placements instead of the best one.
EASY_SLIP = 0.2
EASY_SLIP_AMONG = 3


def easy(view: MineView, legal: list[Any], rng: random.Random) -> Any:
    """The easy bot: the normal bot's judgement of each placement, misjudged by a little noise,
    now and then a lesser placement among its best few, and no thought of staying in the
    round to answer a later raid. Its discards are the normal bot's. Always an element of
    ``legal``, decided from ``view`` only."""
    if (other := _not_a_placement(view, legal)) is not None:
        return other
    scored: list[tuple[float, int]] = []
    for i, _, judged in _placement_gains(view, legal):
        gain = judged + rng.gauss(0.0, EASY_NOISE)
        if gain > PASS_MARGIN:
            scored.append((gain, i))
    if not scored:
        return next((a for a in legal if isinstance(a, PassTurn)), legal[-1])
    scored.sort(reverse=True)
    if rng.random() < EASY_SLIP:
        return legal[scored[rng.randrange(min(EASY_SLIP_AMONG, len(scored)))][1]]
    return legal[scored[0][1]]


# --------------------------------------------------------------------------- evaluate

#: How many points a director's lead is worth in prospects: a lead of this many points is
#: about a 73% prospect (the sigmoid at 1). Games between good bots end 2 to 4 points apart.
MARGIN_SCALE = 2.5
#: Coal one card at the Mine brings in a round to come, on average (miners 2, pit builders 1,
#: less what raids, firedamp and the supply take).
EXT_PER_MINE_CARD = 1.5
#: Cards a director sends to the Mine in a round to come.
MINE_CARDS_PER_ROUND = 2
#: What each card of a hand is worth beyond that digging, best first (the normal bot's own
#: valuation, see _Evaluator._hand_value): a hand is what a director guards, raids and
#: recruits with; without it the search played out its hand every round and ran dry.
HAND_CARD_VALUES = (0.7, 0.7, 0.7, 0.7, 0.4, 0.4, 0.15, 0.15)
LAST_ROUNDS_HAND_SCALE = 0.45
#: A finished game: a place ahead of a director on the same score (tie-break) is worth this.
TIE_EDGE = 0.5


def _complete_round(s: MineState) -> None:
    """Play out the placements still to come in the round, on the private copy ``s``, with a
    plain rule of thumb for every director that is not done: guard its coal against a raid
    stronger than its watchtower, else send a digger to the Mine (two at most; none in round
    6), else stop. The dummy lays out the rest of its plan. Without it the evaluation would
    settle a raid before its victim could answer, and count a director that has not placed
    yet as one that chose to place nothing."""
    dn = s.dummy_index
    if dn is not None and s.dummy_plan:
        s.directors[dn].placed.extend(s.dummy_plan)
        put(s, "dummy_plan", [])
    n = s.n_directors
    last = s.round >= ROUNDS
    firedamp = any(
        IS_EVENT[p.card] and KIND[p.card] == "firedamp" for d in s.directors for p in d.placed
    )
    # The strongest stack against each director, by its cards (the world is whole here).
    stacks = [0] * n
    for raider in s.directors:
        per: dict[int, int] = {}
        for p in raider.placed:
            if p.location == "shelter" and p.victim is not None:
                per[p.victim] = per.get(p.victim, 0) + ATK[p.card]
        for v, a in per.items():
            stacks[v] = max(stacks[v], a)
    start = s.turn if s.turn is not None else s.die_holder
    for k in range(n):
        d = (start + k) % n
        director = s.directors[d]
        if director.is_dummy:
            continue
        while len(director.placed) < MAX_PLACED and not director.passed:
            workers = [c for c in director.hand if not IS_EVENT[c]]
            if not workers:
                break
            defence = sum(DEF[p.card] for p in director.placed if p.location == "watchtower")
            mine = sum(1 for p in director.placed if p.location == "mine")
            if director.stock >= 1 and stacks[d] > defence:
                card = max(workers, key=lambda c: (DEF[c], -EXT[c], -c))
                location = "watchtower"
            elif not last and mine < MINE_CARDS_PER_ROUND:
                if firedamp:
                    card = max(workers, key=lambda c: (KIND[c] == "pit_builder", EXT[c], -c))
                else:
                    card = max(workers, key=lambda c: (EXT[c], -c))
                location = "mine"
            else:
                break
            director.hand.remove(card)
            director.placed.append(_placement(card=card, location=location))
    for director in s.directors:
        put(director, "passed", True)


_placement = maker(Placement)


def _round_over(state: MineState) -> MineState:
    """The state once the round in play is resolved: the placements still to come played out
    by a rule of thumb (:func:`_complete_round`), then the rules' own resolution (raids,
    sales, the end check, extraction, recruitment) on a private copy."""
    if state.phase != "placement":
        return state
    s = fork(state)
    _complete_round(s)
    # The rules' resolution, exactly (rules.py's private step: the evaluation must settle the
    # raids, the events and the supply as the game will, not by a second reading of §5).
    _resolve(s, [])
    return s


def _future_sales(state: MineState, director: Director) -> float:
    """Points a director can still expect after the round just resolved: its stock sold
    round by round within the sale limits to come, and what its cards dig meanwhile (coal
    mined in a round sells from the next one on, §5.6-5.8; every director draws 2 a round,
    §5.9), and what its hand is worth besides."""
    if state.final is not None or state.round >= ROUNDS:
        return 0.0
    if state.variant:
        limits = [DIE_CARDS[c].sale_max for c in state.die_pile]
    else:
        limits = list(range(state.round + 1, ROUNDS + 1))
    cards = sum(1 for c in director.hand if not IS_EVENT[c])
    carry = float(director.stock)
    scale = 1.0 if len(limits) >= 2 else LAST_ROUNDS_HAND_SCALE
    total = scale * sum(HAND_CARD_VALUES[: len(director.hand)])
    for i, limit in enumerate(limits):
        sold = min(carry, float(limit))
        total += sold
        carry -= sold
        if i + 1 < len(limits):
            diggers = min(cards, MINE_CARDS_PER_ROUND)
            carry += EXT_PER_MINE_CARD * diggers
            cards = cards - diggers + BASE_DRAW
    return total


def projected_scores(state: MineState) -> list[float]:
    """Each director's expected final score (the dummy's too): its score after the round in
    play, plus the sales it can still expect."""
    after = _round_over(state)
    return [d.score + _future_sales(after, d) for d in after.directors]


def evaluate(state: MineState) -> list[float]:
    """Each seat's prospects in [0, 1]: a sigmoid of its projected final score minus the best
    other director's (the dummy included: if it wins, no seat does). A finished game counts
    its final scores, and a place won on a tie-break as half a point."""
    if state.final is not None:
        order = state.final.order
        place = {d: i for i, d in enumerate(order)}
        scores = [
            d.score + (TIE_EDGE if _wins_tie(state, i, place) else 0.0)
            for i, d in enumerate(state.directors)
        ]
    else:
        scores = projected_scores(state)
    out = []
    for seat in range(state.n_seats):
        best_other = max(s for d, s in enumerate(scores) if d != seat)
        out.append(1.0 / (1.0 + math.exp(-(scores[seat] - best_other) / MARGIN_SCALE)))
    return out


def _wins_tie(state: MineState, d: int, place: dict[int, int]) -> bool:
    """Whether director ``d`` was placed above every director on its score."""
    score = state.directors[d].score
    return all(
        place[d] < place[o]
        for o, other in enumerate(state.directors)
        if o != d and other.score == score
    ) and any(o != d and other.score == score for o, other in enumerate(state.directors))
