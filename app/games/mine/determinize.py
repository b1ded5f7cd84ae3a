"""A whole MINE! game that one seat's view allows, its hidden cards dealt at random (issue 21).

What a seat does not see (rules/mine.md §8): the other directors' hands, their face-down
placed cards, the dummy's hand and the cards it chose this round (§7.2), the draw pile's
order, the die-card pile's order and the chance to come. :func:`determinize` deals every card
the seat has not seen into those places, at random among the deals that keep what the view
and the rules reveal (uniformly, but for the cards another director chose, below):

- counts: every hand size, every face-down placement (its location and victim stay as seen),
  the dummy's pending cards, the draw pile's size, the die-card pile's size;
- card kinds: a face-down card on Events is an event card, one anywhere else a profession
  card (§2.3); the dummy never holds an event card (§5.9 step 3);
- round 1: every hand began as the director's fixed starting hand (§4.5) and no card can
  have been reshuffled into anyone else's hand yet (the discard pile only feeds the draw
  pile after a round's clean-up has filled it), so each director's unseen starting cards are
  its own (in its hand or placed face down) and nobody holds an event card before drawing;
- the dummy's plan: its four cards of the round are dealt as a set and laid out by its own
  rule (§7.3, §7.4), so its watchtower card is the best defender of the set, and so on; a
  raid victim not yet shown is drawn among the directors with coal as the rule draws it.

A face-down profession card another director placed was chosen, not drawn: a director puts
its best attacker in the shelter, its best defender on the watchtower and so on. So such a
card is dealt leaning towards that location's value (the card's weight is
``PLACEMENT_LEAN`` to the power of its ATK in the shelter, DEF on the watchtower, EXT in the
mine, REC at recruitment; any card may still be there). Otherwise, from round 2 on a card's
past is not followed (the view keeps no history): an unseen card is as likely in any hidden
place as in another, within the rules above.

What no view shows, nor any rule gives back: the die rolls of a finished game's roll-offs
(its order and tie-break text are kept; the rolls are left empty).
"""

from __future__ import annotations

import random

from app.games.base import Rng, Seat
from app.games.mine.data import (
    ALL_CARD_IDS,
    ATK,
    DEF,
    DIE_CARD_IDS,
    EXT,
    IS_EVENT,
    REC,
    ROUNDS,
    starting_hand,
)
from app.games.mine.rules import (
    Director,
    FinalOutcome,
    MineState,
    Placement,
    clockwise_from_left,
)
from app.games.mine.view import MineView
from app.games.trusted import trusted

# What a hidden place may hold.
_EVENT = 0
_PROFESSION = 1
_ANY = 2

#: How much more likely a face-down placed profession card is per point of the value its
#: location uses (a director places its cards by those values, §2.3): a miner (ATK 2) is
#: twice as likely in the shelter as a pit builder (ATK 1), a brawler (ATK 3) four times.
PLACEMENT_LEAN = 2.0
_LOCATION_VALUE = {"shelter": ATK, "watchtower": DEF, "mine": EXT, "recruitment": REC}


def determinize(view: MineView, seat: Seat, rng: random.Random) -> MineState:
    """A complete state whose ``view(state, seat)`` equals ``view``, the unseen cards dealt
    at random (see the module's docstring for what the deal keeps). Pure: reads only
    ``view``, ``seat`` and ``rng``; the same ``rng`` state gives the same state.

    Raises ValueError when ``view`` is not ``seat``'s view of a running or finished game.
    """
    if view.you != seat or view.hand is None:
        raise ValueError(f"the view is not seat {seat}'s own (you={view.you})")
    n = len(view.directors)
    dummy = view.dummy
    placing = view.phase == "placement"

    # Cards this seat has seen: its hand and its placed cards, every revealed card, the
    # discard pile. The others are in the hidden places, the draw pile or the dummy's plan.
    seen: set[int] = set(view.hand)
    seen.update(view.discard_pile)
    for dv in view.directors:
        for p in dv.placed:
            if p.card is not None:
                seen.add(p.card)
    unseen = [c for c in ALL_CARD_IDS if c not in seen]

    # The hidden places, one list per director: (what it may hold) for each face-down
    # placement in placement order, then the dummy's pending plan, then the hand.
    places: list[list[int]] = [[] for _ in range(n)]
    # The location a director chose each face-down profession card for (None: not chosen
    # by a director's judgement: an event, the dummy's cards, a hand).
    chosen_for: list[list[str | None]] = [[] for _ in range(n)]
    for dv in view.directors:
        if dv.director == seat:
            continue
        needs = places[dv.director]
        for p in dv.placed:
            if p.card is None:
                if dv.is_dummy:
                    needs.append(_PROFESSION)
                    chosen_for[dv.director].append(None)
                else:
                    needs.append(_EVENT if p.location == "events" else _PROFESSION)
                    chosen_for[dv.director].append(
                        p.location if p.location in _LOCATION_VALUE else None
                    )
        needs.extend([_PROFESSION] * dv.pending_cards)
        needs.extend([_PROFESSION if dv.is_dummy else _ANY] * dv.hand_size)
        chosen_for[dv.director].extend([None] * (len(needs) - len(chosen_for[dv.director])))

    dealt: list[list[int]] = [[0] * len(needs) for needs in places]
    pool = unseen
    if view.round == 1:
        pool = _deal_starting_cards(view, seat, unseen, places, chosen_for, dealt, rng)

    # Everything not pinned: event places from the unseen events, profession places from
    # the unseen professions (a director's chosen ones leaning to their location's value),
    # then the rest (hands of any kind, the draw pile) from what is left, uniformly.
    events = [c for c in pool if IS_EVENT[c]]
    professions = [c for c in pool if not IS_EVENT[c]]
    rng.shuffle(events)
    rng.shuffle(professions)
    for d in range(n):
        for i, need in enumerate(places[d]):
            if need == _EVENT:
                dealt[d][i] = events.pop()
            elif need == _PROFESSION:
                dealt[d][i] = _take_for(professions, chosen_for[d][i], rng)
    rest = events + professions
    rng.shuffle(rest)
    for d in range(n):
        for i, need in enumerate(places[d]):
            if need == _ANY:
                dealt[d][i] = rest.pop()
    draw_pile = rest  # already in random order
    if len(draw_pile) != view.draw_pile_size:
        raise ValueError(
            f"the view's cards do not add up: {len(draw_pile)} left for a draw pile of "
            f"{view.draw_pile_size}"
        )

    directors: list[Director] = []
    dummy_plan: list[Placement] = []
    for dv in view.directors:
        d = dv.director
        cards = dealt[d]
        hidden = sum(1 for p in dv.placed if p.card is None)
        if d == seat:
            hand = list(view.hand)
            faces: list[int] = []
        else:
            faces = cards[: hidden + dv.pending_cards]
            hand = sorted(cards[hidden + dv.pending_cards :])
        if dv.is_dummy and placing:
            placed, dummy_plan = _dummy_round(view, d, faces, rng)
        else:
            placed = []
            it = iter(faces)
            for p in dv.placed:
                card = p.card if p.card is not None else next(it)
                placed.append(_placement(card, p.location, p.victim))
        directors.append(
            trusted(
                Director,
                seat=dv.seat,
                hand=hand,
                stock=dv.stock,
                score=dv.score,
                placed=placed,
                passed=dv.passed,
            )
        )

    die_pile: list[str] = []
    if view.variant:
        used = {*view.used_die_cards, *([view.die_card] if view.die_card else [])}
        die_pile = [c for c in DIE_CARD_IDS if c not in used]
        rng.shuffle(die_pile)
    report = view.last_round
    final = view.final
    return trusted(
        MineState,
        n_seats=view.n_seats,
        dummy=dummy is not None,
        variant=view.variant,
        rng=Rng.from_seed(rng.getrandbits(64)),
        directors=directors,
        round=view.round,
        die_holder=view.die_holder,
        phase=view.phase,
        turn=view.turn,
        supply=view.supply,
        box=view.box,
        coal_created=view.coal_created,
        draw_pile=draw_pile,
        discard_pile=list(view.discard_pile),
        die_pile=die_pile,
        die_card=view.die_card,
        used_die_cards=list(view.used_die_cards),
        dummy_plan=dummy_plan,
        revealed_step=view.revealed_step,
        # Shared with the view: the rules never change a report in place (a discard counts
        # in a copy, each resolution makes its own).
        report=report,
        final=None
        if final is None
        else trusted(
            FinalOutcome,
            reason=final.reason,
            order=list(final.order),
            rolls=[],
            tiebreak=final.tiebreak,
        ),
    )


def _placement(card: int, location: str, victim: int | None) -> Placement:
    return trusted(Placement, card=card, location=location, victim=victim)


def _deal_starting_cards(
    view: MineView,
    seat: Seat,
    unseen: list[int],
    places: list[list[int]],
    chosen_for: list[list[str | None]],
    dealt: list[list[int]],
    rng: random.Random,
) -> list[int]:
    """Round 1: each other director's unseen starting cards (§4.5) go to its own hidden
    places, at random among them; returns the unseen cards left for everyone else.

    Before round 1's recruitment every hand is its starting hand (all professions); after
    it, a hand holds its unseen starting cards and what it drew, and the pile it drew from
    held no starting card (the discard pile is reshuffled only once a draw pile runs dry,
    and in round 1 it holds no starting card before the hand-limit discards that follow
    every draw)."""
    unseen_set = set(unseen)
    pinned_all: set[int] = set()
    for dv in view.directors:
        d = dv.director
        if d == seat:
            continue
        n_places = len(places[d])
        own = [c for c in starting_hand(d) if c in unseen_set]
        pinned_all.update(own)
        # Starting cards are professions: they may fill any of the director's places (no
        # event place is face down in round 1: nobody holds an event before drawing). The
        # placed ones first, each leaning to its location's value, then the others.
        rng.shuffle(own)
        slots = list(range(n_places))
        rng.shuffle(slots)
        slots.sort(key=lambda i: chosen_for[d][i] is None)
        for i in slots[: len(own)]:
            dealt[d][i] = _take_for(own, chosen_for[d][i], rng)
            places[d][i] = -1  # filled
    return [c for c in unseen if c not in pinned_all]


def _take_for(cards: list[int], location: str | None, rng: random.Random) -> int:
    """Take one of ``cards`` (shuffled already) for a place: the last one, or, for a card a
    director chose for ``location``, one drawn by its weight there (``PLACEMENT_LEAN``)."""
    if location is None:
        return cards.pop()
    value = _LOCATION_VALUE[location]
    weights = [PLACEMENT_LEAN ** value[c] for c in cards]
    (i,) = rng.choices(range(len(cards)), weights=weights)
    return cards.pop(i)


def _dummy_round(
    view: MineView, dn: int, chosen: list[int], rng: random.Random
) -> tuple[list[Placement], list[Placement]]:
    """The dummy's cards of the round laid out by its rule (§7.3, §7.4): its placed cards so
    far and its pending plan. ``chosen`` is the set dealt to it; the victims it has shown
    are kept, one it has not shown yet is drawn as the rule draws it (R5)."""
    n = len(view.directors)
    me = view.directors[dn]
    order = clockwise_from_left(n, dn)
    stocks = [dv.stock for dv in view.directors]
    others = [v for v in order if stocks[v] >= 1]
    shown = me.placed
    c = sorted(chosen)
    plan: list[tuple[int, str, int | None]] = []

    def take(values: tuple[int, ...]) -> int:
        card = min(c, key=lambda k: (-values[k], EXT[k], k))
        c.remove(card)
        return card

    if view.round < ROUNDS:
        if me.stock >= 1 and c:
            plan.append((take(DEF), "watchtower", None))
        if others and c:
            i = len(plan)
            if i < len(shown):
                victim = shown[i].victim
            else:
                victim = others[0] if len(others) == 1 else others[rng.randrange(len(others))]
            plan.append((take(ATK), "shelter", victim))
        if c:
            plan.append((take(REC), "recruitment", None))
        plan.extend((card, "mine", None) for card in sorted(c))
    else:
        if me.stock >= 1:
            for _ in range(2):
                if c:
                    plan.append((take(DEF), "watchtower", None))
        if others:
            ranked = sorted(others, key=lambda v: (-stocks[v], order.index(v)))
            i = 0
            while c:
                plan.append((take(ATK), "shelter", ranked[i % len(ranked)]))
                i += 1
        else:
            plan.extend((card, "mine", None) for card in sorted(c))
    made = [_placement(card, loc, victim) for card, loc, victim in plan]
    return made[: len(shown)], made[len(shown) :]


__all__ = ["determinize"]
