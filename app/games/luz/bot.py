"""The Luz bot: decides from ``view(state, seat)`` only (it never sees its own card values).

Policy ("normal" level):

1. **Knowledge.** Every value of a colour that the view does not show (other hands, played
   cards) is either in the own hand or among the 10 undealt cards. Inside one colour the own
   slots ascend with value, and own cards already played split that order. So each own slot
   gets an exact probability distribution over values: if a run of ``m`` own slots must take
   ``m`` of ``K`` candidate values uniformly, the i-th lowest is ``c_j`` with probability
   ``C(j-1, i-1) C(K-j, m-i) / C(K, m)``.
2. **Card win chances.** The other hands are face up, so the chance that a given card wins the
   trick depends only on its own value: every later player either can beat it or not; the bot
   weighs "someone who can beat it will" with "a later player picks a legal card at random".
3. **Bet** = the sum over own cards of the chance to win the trick if led now (the hand's
   "power"), rounded; a safety bead only when the estimate sits right between two counts.
4. **Play** to hit the bet: while tricks are still needed, win with the card that best
   balances winning now and keeping (or shedding) strength; once the bet is reached, play the
   card least likely to win, shedding dangerous cards first.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import comb
from typing import Any

from app.games.base import Seat, random_bot
from app.games.luz.actions import ChooseHighEnd, PlaceBet, PlayCard
from app.games.luz.data import COLOURS, DEALS, MAX_BET, TRICKS_PER_DEAL, Card, card_value
from app.games.luz.rules import LuzState, deal_points, trick_winner, trump_of
from app.games.luz.view import LuzView

#: Weight of "a later player who can beat my card will" against a uniformly random reply.
CAUTION = 0.15
#: Multiplier applied to the summed power of the hand when betting (calibrated by benchmark).
BET_SCALE = 1.0
#: Take the safety bead when the fractional part of the estimate falls in this window.
SAFETY_WINDOW = (0.3, 0.7)
#: When avoiding tricks, how much a card's power (danger of a forced win later) counts.
SHED = 0.1

Dist = list[tuple[int, float]]


@dataclass(frozen=True)
class Knowledge:
    """What the bot's seat knows, read from its view."""

    me: Seat
    n: int
    trump: str | None
    others: dict[Seat, list[Card]]
    #: own unplayed slot id -> colour
    own: dict[int, str]
    #: values of each colour the view does not show (own hand or undealt)
    unseen: dict[str, list[int]]
    #: own slot id -> card, for own cards already played (visible in the tricks)
    own_played: dict[int, Card]


def read(view: LuzView) -> Knowledge:
    """Extract the bot's knowledge from its view."""
    me = view.viewer
    if me is None:
        raise ValueError("the bot reads its own seat's view, not a spectator's")
    seen: set[Card] = set()
    others: dict[Seat, list[Card]] = {}
    own: dict[int, str] = {}
    for player in view.players:
        if player.seat == me:
            own = {s.slot: s.colour for s in player.hand.slots}
        else:
            others[player.seat] = [s.card for s in player.hand.slots if s.card is not None]
            seen.update(others[player.seat])
    own_played: dict[int, Card] = {}
    for trick in [*view.completed_tricks, view.current_trick]:
        for play in trick.plays:
            seen.add(play.card)
            if play.seat == me:
                own_played[play.slot] = play.card
    unseen: dict[str, list[int]] = {
        c: [v for v in range(1, view.max_value + 1) if f"{c}{v}" not in seen] for c in COLOURS
    }
    return Knowledge(me, view.n_players, view.trump, others, own, unseen, own_played)


def slot_distributions(k: Knowledge) -> dict[int, Dist]:
    """Exact marginal value distribution of each own unplayed slot (see module docstring)."""
    result: dict[int, Dist] = {}
    for colour in COLOURS:
        mine = sorted(s for s, c in k.own.items() if c == colour)
        if not mine:
            continue
        played = sorted((s, card_value(c)) for s, c in k.own_played.items() if c[0] == colour)
        # split own slots of this colour into runs bounded by own played cards
        runs: list[tuple[list[int], int, int]] = []
        bounds = [(-1, 0), *played, (99, 99)]
        for (lo_slot, lo_val), (hi_slot, hi_val) in pairwise(bounds):
            run = [s for s in mine if lo_slot < s < hi_slot]
            if run:
                runs.append((run, lo_val, hi_val))
        for run, lo, hi in runs:
            candidates = [v for v in k.unseen[colour] if lo < v < hi]
            if len(candidates) < len(run):  # history hidden (strict memory): drop the bounds
                candidates = list(k.unseen[colour])
            if len(candidates) < len(run):  # cannot happen with a consistent view
                candidates = list(range(1, 13))
            big_k, m = len(candidates), len(run)
            total = comb(big_k, m)
            for i, slot in enumerate(run, start=1):
                result[slot] = [
                    (c, comb(j - 1, i - 1) * comb(big_k - j, m - i) / total)
                    for j, c in enumerate(candidates, start=1)
                    if comb(j - 1, i - 1) * comb(big_k - j, m - i)
                ]
    return result


def _strength(colour: str, value: int, led: str, trump: str | None) -> tuple[int, int]:
    if trump is not None and colour == trump:
        return (2, value)
    if colour == led:
        return (1, value)
    return (0, 0)


def win_chance(
    k: Knowledge, colour: str, value: int, plays: list[tuple[Seat, Card]], leader: Seat
) -> float:
    """Chance that my card (colour, value) wins the current trick, given the visible hands."""
    led = plays[0][1][0] if plays else colour
    mine = _strength(colour, value, led, k.trump)
    for _, card in plays:
        if _strength(card[0], card_value(card), led, k.trump) > mine:
            return 0.0
    chance = 1.0
    for i in range(len(plays) + 1, k.n):
        seat = (leader + i) % k.n
        hand = k.others.get(seat, [])
        if not hand:
            continue
        legal = [c for c in hand if c[0] == led] or hand
        beats = sum(1 for c in legal if _strength(c[0], card_value(c), led, k.trump) > mine)
        p_beat = CAUTION * (1.0 if beats else 0.0) + (1 - CAUTION) * beats / len(legal)
        chance *= 1.0 - p_beat
    return chance


def slot_chance(
    k: Knowledge, dist: Dist, colour: str, plays: list[tuple[Seat, Card]], leader: Seat
) -> float:
    """Chance that an own slot (value distribution ``dist``) wins the current trick."""
    return sum(p * win_chance(k, colour, v, plays, leader) for v, p in dist)


def hand_power(k: Knowledge, dists: dict[int, Dist]) -> dict[int, float]:
    """Per own slot: the chance to win a trick if that card were led now."""
    return {slot: slot_chance(k, dists[slot], k.own[slot], [], k.me) for slot in k.own}


def choose_bet(view: LuzView, k: Knowledge) -> PlaceBet:
    """Bet the rounded power of the hand; take the safety bead when it falls between counts."""
    dists = slot_distributions(k)
    estimate = BET_SCALE * sum(hand_power(k, dists).values())
    base = int(estimate)
    frac = estimate - base
    lo, hi = SAFETY_WINDOW
    if lo <= frac <= hi:
        return PlaceBet(tricks=min(base, 10), safety=True)
    return PlaceBet(tricks=min(round(estimate), 10), safety=False)


def choose_play(view: LuzView, k: Knowledge, legal: list[PlayCard]) -> PlayCard:
    """Win while tricks are needed, otherwise dodge; shed or keep strength by the hand's excess."""
    me = k.me
    player = view.players[me]
    bet = player.bet or 0
    need = bet - player.tricks_won
    dists = slot_distributions(k)
    power = hand_power(k, dists)
    trick = view.current_trick
    plays = [(p.seat, p.card) for p in trick.plays]
    now = {a.slot: slot_chance(k, dists[a.slot], k.own[a.slot], plays, trick.leader) for a in legal}
    remaining = TRICKS_PER_DEAL - len(view.completed_tricks) - view.hidden_tricks
    want = need > 0  # with a safety bead, need == 0 is also fine: dodge, one more is covered
    excess = sum(power.values()) - need
    if need >= remaining:
        excess = -1.0  # every remaining trick is needed: keep strength
    if want:
        best = max(now.values())
        if best < 0.15:  # cannot win this one: discard
            pick = max if excess > 0.5 else min
            return PlayCard(slot=pick(now, key=lambda s: (power[s], -s)))
        close = [s for s in now if now[s] >= best - 0.1]
        if excess > 0.5:
            return PlayCard(slot=max(close, key=lambda s: (power[s], now[s], s)))
        return PlayCard(slot=min(close, key=lambda s: (power[s] - now[s], s)))
    # shed strength while it is cheap: a strong card kept too long may be forced to win later
    return PlayCard(slot=min(now, key=lambda s: (now[s] - SHED * power[s], -s)))


def choose(view: LuzView, legal_actions: list[Any], rng: random.Random) -> Any:
    """Return one element of ``legal_actions`` chosen from ``view`` only."""
    if view.viewer is None or not legal_actions:
        return random_bot(legal_actions, rng)
    first = legal_actions[0]
    if isinstance(first, ChooseHighEnd):
        return next(a for a in legal_actions if a.side == "right")
    k = read(view)
    if isinstance(first, PlaceBet):
        wanted: Any = choose_bet(view, k)
    else:
        wanted = choose_play(view, k, [a for a in legal_actions if isinstance(a, PlayCard)])
    return wanted if wanted in legal_actions else random_bot(legal_actions, rng)


# --------------------------------------------------------------------------- easy

#: The easy bot's slips: how often it misjudges its bet by one trick, and how often it plays
#: a card without thinking (any legal one), as a distracted player does. Measured (150 seeded
#: games a count): normal's win share against easy is 54% / 39% / 37% at 3 / 4 / 5 players
#: (fair 33 / 25 / 20), easy's against random 78% at 4 players; at 0.5 / 0.2 normal won only
#: 42% / 34% / 27%.
EASY_BET_SLIP = 0.7
EASY_PLAY_SLIP = 0.45


def easy(view: LuzView, legal_actions: list[Any], rng: random.Random) -> Any:
    """The "easy" level: the normal bot's judgement with a beginner's mistakes.

    It never takes the safety bead (a beginner does not weigh it), it often misjudges its
    hand by one trick, and nearly half its cards it plays without thinking.
    """
    if view.viewer is None or not legal_actions:
        return random_bot(legal_actions, rng)
    first = legal_actions[0]
    if isinstance(first, PlaceBet):
        k = read(view)
        dists = slot_distributions(k)
        estimate = BET_SCALE * sum(hand_power(k, dists).values())
        bet = round(estimate)
        if rng.random() < EASY_BET_SLIP:
            bet += rng.choice((-1, 1))
        wanted: Any = PlaceBet(tricks=min(max(bet, 0), 10), safety=False)
        return wanted if wanted in legal_actions else random_bot(legal_actions, rng)
    if isinstance(first, PlayCard) and rng.random() < EASY_PLAY_SLIP:
        return random_bot(legal_actions, rng)
    return choose(view, legal_actions, rng)


# --------------------------------------------------------------------------- evaluate

#: Spread (in points) of one seat's result in deal ``d`` is about ``DEAL_SPREAD * d``: an
#: exact bet earns ``10 d``, a miss loses 5 a trick. It scales the margins that
#: :func:`evaluate` turns into prospects, with ``END_SPREAD`` left once the game is over.
DEAL_SPREAD = 6.0
END_SPREAD = 10.0


def evaluate(state: LuzState) -> list[float]:
    """Each seat's prospects in [0, 1]: a sigmoid of its expected final score minus the best
    other seat's, over the spread the deals still to come leave.

    The expected score is the score so far plus, in a running deal, the expected points of
    the seat's bet (or, before it bets, of its best bet) under the chances its cards win
    the remaining tricks: each card's chance to win if led now against the hands as they
    lie (:func:`_card_chances`), scaled so that the seats share the tricks still to play.
    """
    n = state.n_players
    expected = [float(s) for s in state.scores]
    variance = END_SPREAD**2
    if state.phase != "finished":
        left = TRICKS_PER_DEAL - len(state.tricks)
        variance += (DEAL_SPREAD * state.deal) ** 2 * left / TRICKS_PER_DEAL
        variance += sum((DEAL_SPREAD * d) ** 2 for d in range(state.deal + 1, DEALS + 1))
        for seat, points in enumerate(_deal_outlook(state, left)):
            expected[seat] += points
    spread = math.sqrt(variance)
    prospects = []
    for seat in range(n):
        best_other = max(expected[o] for o in range(n) if o != seat)
        prospects.append(1.0 / (1.0 + math.exp(-(expected[seat] - best_other) / spread)))
    return prospects


def _deal_outlook(state: LuzState, left: int) -> list[float]:
    """Each seat's expected points from the running deal (module docstring of :func:`evaluate`)."""
    n = state.n_players
    chances = _card_chances(state)
    total = sum(sum(c) for c in chances)
    scale = left / total if total > 0 else 0.0
    outlook = []
    for seat in range(n):
        # Distribution of the tricks the seat still wins (Poisson binomial over its cards).
        dist = [1.0]
        for p in chances[seat]:
            p = min(1.0, p * scale)
            nxt = [0.0] * (len(dist) + 1)
            for k, q in enumerate(dist):
                nxt[k] += q * (1 - p)
                nxt[k + 1] += q * p
            dist = nxt
        won = state.tricks_won[seat]
        bet = state.bets[seat]
        bets = [(bet.tricks, bet.safety)] if bet is not None else _ALL_BETS
        outlook.append(
            max(
                sum(
                    q * deal_points(state.deal, b, safety, won + k, state.options.safety_miss_from)
                    for k, q in enumerate(dist)
                    if q > 1e-4
                )
                for b, safety in bets
            )
        )
    return outlook


_ALL_BETS = [(b, s) for b in range(MAX_BET + 1) for s in (False, True)]


def _card_chances(state: LuzState) -> list[list[float]]:
    """Per seat, per card in hand (and the seat winning the trick under way): the chance it
    wins, each other seat playing what it may as in :func:`win_chance`."""
    n = state.n_players
    trump = trump_of(state.options)
    # values[s][colour]: the values seat s holds in that colour
    values: list[dict[str, list[int]]] = []
    sizes: list[int] = []
    for hand in state.hands:
        by: dict[str, list[int]] = {}
        size = 0
        for card in hand:
            if card is not None:
                by.setdefault(card[0], []).append(int(card[1:]))
                size += 1
        values.append(by)
        sizes.append(size)

    def survives(colour: str, value: int, led: str, seats: Sequence[Seat]) -> float:
        chance = 1.0
        for o in seats:
            held = values[o]
            if not sizes[o]:
                continue
            follow = held.get(led)
            if follow:
                legal = len(follow)
                if colour == led:
                    beats = sum(1 for v in follow if v > value)
                elif colour == trump:
                    beats = 0
                else:
                    beats = legal
            else:
                legal = sizes[o]
                trumps = held.get(trump, ()) if trump is not None else ()
                beats = sum(1 for v in trumps if v > value) if colour == trump else len(trumps)
            if beats:
                chance *= 1.0 - (CAUTION + (1 - CAUTION) * beats / legal)
        return chance

    chances: list[list[float]] = []
    for seat in range(n):
        others = [o for o in range(n) if o != seat]
        chances.append([survives(c, v, c, others) for c, vs in values[seat].items() for v in vs])
    if state.trick:
        led = state.trick[0].card[0]
        winner = trick_winner(state.trick, trump)
        card = next(p.card for p in state.trick if p.seat == winner)
        later = [(state.leader + i) % n for i in range(len(state.trick), n)]
        chances[winner].append(survives(card[0], int(card[1:]), led, later))
    return chances
