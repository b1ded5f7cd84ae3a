"""A complete Luz state that one seat's view allows, for the strong bot's search (issue 21).

A seat sees every hand but its own (§6): what it may not see is the values of its own
unplayed cards and the 10 undealt cards, and, with ``strict_memory``, the cards of the
completed tricks before the last one. :func:`determinize` deals exactly those from the
cards the view does not show, so that ``view(determinize(v, seat, rng), seat) == v``:

- **Own hand.** Slot ids ascend with value inside each colour (§5.4), and own cards already
  played (seen in the tricks) split a colour's slots into runs: a run of ``m`` slots
  between two known values takes an ``m``-subset of the unseen values between them,
  uniformly, in ascending order. The unseen cards left over are the undealt stock. Without
  ``strict_memory`` this is uniform over every deal the view allows (the others, who see
  the seat's hand, may hint at it by how they bet and play: that is not read).
- **Hidden tricks** (``strict_memory``, the completed tricks before the last). Every
  seat's missing slots are the cards it played there: each is dealt from the unseen
  cards, in slot order between its seat's known neighbours (own slots of a known colour
  keep it), and the tricks are then built so that their leaders chain from the first
  player, their winners add up to each seat's ``tricks_won`` and the last of them is
  won by the leader of the visible last trick. Follow-suit in those tricks is not
  enforced: the view shows nothing that rests on it, and searching for deals that
  satisfy it too would cost more than it tells. This is close to uniform but not exactly
  so (the cards are dealt gap by gap, then deals whose tricks cannot be built are drawn
  again).

The future chance (the next deals' shuffles) is a fresh :class:`Rng` from ``rng``.
"""

from __future__ import annotations

import itertools
import random
from typing import Final

from app.games.base import Rng, Seat
from app.games.luz.data import (
    COLOURS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Card,
    Colour,
    deck,
    sort_key,
)
from app.games.luz.events import Bet, Play, Trick
from app.games.luz.rules import LuzState, trick_winner
from app.games.luz.view import LuzView

#: Each player count's deck, in canonical order.
_DECKS: Final[dict[int, tuple[Card, ...]]] = {
    n: tuple(deck(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
#: Every card's place in the canonical order (the same in every deck: colour, then value).
_KEY: Final[dict[Card, tuple[int, int]]] = {c: sort_key(c) for c in _DECKS[MAX_PLAYERS]}
#: Bets are immutable records: one per (tricks, safety), shared by every determinized state.
_BETS: Final[dict[tuple[int, bool], Bet]] = {
    (t, s): Bet(tricks=t, safety=s) for t in range(11) for s in (False, True)
}
#: How many deals of the hidden cards :func:`determinize` tries before it gives up, and how
#: many partial tricks one try may build while looking for their order. Few deals fit when a
#: hidden trick must be won by a low card against a trump suit most unseen cards are of
#: (one position the long property run found: about 1 deal in 40): at 500 tries 2 worlds in
#: 2,000 fell back to tricks that do not add up; a deal that fits is usually among the first.
_DEALS_TRIED: Final = 5_000
_ARRANGE_STEPS: Final = 300

_LOW: Final = (-1, 0)
_HIGH: Final = (99, 99)


def determinize(view: LuzView, seat: Seat, rng: random.Random) -> LuzState:
    """A complete state whose ``view(state, seat)`` equals ``view`` (see the module docstring).

    Reads only ``view``, ``seat`` and ``rng``; the same ``rng`` state gives the same state.
    Raises ValueError when ``view`` is not ``seat``'s own view (a spectator's view hides
    every hand, so it cannot be dealt from here).
    """
    if view.viewer != seat:
        raise ValueError(f"determinize needs seat {seat}'s own view, not {view.viewer}'s")
    n = view.n_players
    hands: list[list[Card | None]] = [[None] * HAND_SIZE for _ in range(n)]
    own: dict[int, Colour] = {}
    seen: set[Card] = set()
    for player in view.players:
        if player.seat == seat:
            own = {s.slot: s.colour for s in player.hand.slots}
            continue
        hand = hands[player.seat]
        for s in player.hand.slots:
            if s.card is None:
                raise ValueError(f"seat {seat}'s view must show seat {player.seat}'s cards")
            hand[s.slot] = s.card
            seen.add(s.card)
    played: dict[tuple[Seat, int], Card] = {}
    for trick in (*view.completed_tricks, view.current_trick):
        for play in trick.plays:
            played[(play.seat, play.slot)] = play.card
            seen.add(play.card)
    unseen = [c for c in _DECKS[n] if c not in seen]
    if view.hidden_tricks:
        undealt, hidden = _deal_with_hidden_tricks(view, seat, hands, own, played, unseen, rng)
    else:
        undealt, hidden = _deal_own_hand(seat, hands, own, played, unseen, rng), []
    rng.shuffle(undealt)
    players = view.players
    bets = [None if p.bet is None else _BETS[(p.bet, p.safety)] for p in players]
    options = view.options
    if options.first_player is not None:
        start = options.first_player
    elif options.first_player_rotation == "left":
        start = (view.first_player - view.deal + 1) % n
    else:
        start = view.first_player
    # model_construct: every field below is already of its model's type (the records come
    # straight from the view's own), so validating them again would only cost time.
    return LuzState.model_construct(
        n_players=n,
        options=options,
        rng=Rng.from_seed(rng.getrandbits(64)),
        phase=view.phase,
        deal=view.deal,
        start_player=start,
        first_player=view.first_player,
        hands=hands,
        high_end=[p.hand.high_end for p in players],
        high_end_chosen=[p.has_chosen_high_end for p in players],
        undealt=undealt,
        bets=bets,
        bets_placed=sum(1 for b in bets if b is not None),
        leader=view.current_trick.leader,
        trick=list(view.current_trick.plays),
        tricks=[
            *hidden,
            *(
                Trick.model_construct(
                    number=t.number,
                    leader=t.leader,
                    plays=tuple(t.plays),
                    winner=t.winner if t.winner is not None else t.leader,
                )
                for t in view.completed_tricks
            ),
        ],
        tricks_won=[p.tricks_won for p in players],
        scores=list(view.scores),
        history=[tuple(d.rows) for d in view.deal_scores],
    )


def _deal_own_hand(
    seat: Seat,
    hands: list[list[Card | None]],
    own: dict[int, Colour],
    played: dict[tuple[Seat, int], Card],
    unseen: list[Card],
    rng: random.Random,
) -> list[Card]:
    """Fill ``seat``'s unplayed slots in ``hands`` when every played card is in view; return
    the undealt rest. Uniform over the hands the view allows (module docstring)."""
    by_colour: dict[str, list[int]] = {}
    for slot in sorted(own):
        by_colour.setdefault(own[slot], []).append(slot)
    known = sorted((slot, card) for (s, slot), card in played.items() if s == seat)
    taken: set[Card] = set()
    mine = hands[seat]
    for colour, slots in by_colour.items():
        pool = [c for c in unseen if c[0] == colour]
        bounds = [(-1, 0)]
        bounds += [(slot, int(card[1:])) for slot, card in known if card[0] == colour]
        bounds.append((HAND_SIZE, 99))
        for (lo_slot, lo), (hi_slot, hi) in itertools.pairwise(bounds):
            run = [s for s in slots if lo_slot < s < hi_slot]
            if not run:
                continue
            candidates = [c for c in pool if lo < int(c[1:]) < hi]
            if len(candidates) < len(run):
                raise ValueError(f"the view leaves too few {colour} cards for seat {seat}'s hand")
            chosen = sorted(rng.sample(candidates, len(run)), key=_KEY.__getitem__)
            for slot, card in zip(run, chosen, strict=True):
                mine[slot] = card
            taken.update(chosen)
    return [c for c in unseen if c not in taken]


# --------------------------------------------------------------------------- strict_memory


def _deal_with_hidden_tricks(
    view: LuzView,
    seat: Seat,
    hands: list[list[Card | None]],
    own: dict[int, Colour],
    played: dict[tuple[Seat, int], Card],
    unseen: list[Card],
    rng: random.Random,
) -> tuple[list[Card], list[Trick]]:
    """Fill the own unplayed slots and build the hidden tricks (module docstring); return
    the undealt cards and those tricks, oldest first."""
    n = view.n_players
    # Every seat's slots in order: a known card, an own slot of a known colour, or a slot
    # whose card went into a hidden trick (None).
    gaps: list[tuple[Seat, list[tuple[int, Colour | None]], tuple[int, int], tuple[int, int]]]
    gaps = []
    hidden_slots: list[list[int]] = [[] for _ in range(n)]
    for s in range(n):
        low = _LOW
        run: list[tuple[int, Colour | None]] = []
        for slot in range(HAND_SIZE):
            card = played.get((s, slot)) or hands[s][slot]
            if card is not None:
                if run:
                    gaps.append((s, run, low, _KEY[card]))
                    run = []
                low = _KEY[card]
                continue
            # Not in view: an own unplayed slot (its colour shows) or a hidden trick's card.
            colour = own.get(slot) if s == seat else None
            if colour is None:
                hidden_slots[s].append(slot)
            run.append((slot, colour))
        if run:
            gaps.append((s, run, low, _HIGH))
    last = view.completed_tricks[-1]
    needs = [p.tricks_won for p in view.players]
    if last.winner is not None:
        needs[last.winner] -= 1
    trump = view.trump
    fallback: tuple[dict[tuple[Seat, int], Card], set[Card], list[list[tuple[int, Card]]]] | None
    fallback = None
    for _ in range(_DEALS_TRIED):
        order = list(range(len(gaps)))
        rng.shuffle(order)
        pool = set(unseen)
        dealt: dict[tuple[Seat, int], Card] = {}
        for index in order:
            s, run, low, high = gaps[index]
            chosen = _ascending(run, [c for c in unseen if c in pool and low < _KEY[c] < high], rng)
            if chosen is None:
                break
            for (slot, _), card in zip(run, chosen, strict=True):
                dealt[(s, slot)] = card
            pool.difference_update(chosen)
        else:
            cards = [[(slot, dealt[(s, slot)]) for slot in hidden_slots[s]] for s in range(n)]
            tricks = _arrange(cards, list(needs), view.first_player, last.leader, trump, rng)
            if tricks is not None:
                mine = hands[seat]
                for slot in own:
                    mine[slot] = dealt[(seat, slot)]
                return [c for c in unseen if c in pool], tricks
            if fallback is None:
                fallback = (dealt, pool, cards)
    if fallback is None:
        raise ValueError(f"no deal of the hidden cards fits seat {seat}'s view")
    # Never seen in testing: rather than fail the bot's move, keep a deal of the cards and
    # play the hidden tricks in slot order, each won by its best card. The view is still
    # the seat's (it shows neither those tricks nor their winners), but their winners may
    # not add up to the counters.
    dealt, pool, cards = fallback
    mine = hands[seat]
    for slot in own:
        mine[slot] = dealt[(seat, slot)]
    return [c for c in unseen if c in pool], _plain_tricks(cards, view.first_player, trump)


def _plain_tricks(
    cards: list[list[tuple[int, Card]]], first: Seat, trump: Colour | None
) -> list[Trick]:
    """The hidden tricks with each seat's cards in slot order, each led by the last winner."""
    n = len(cards)
    tricks: list[Trick] = []
    leader = first
    for t in range(len(cards[0])):
        plays = tuple(
            Play.model_construct(seat=s, slot=cards[s][t][0], card=cards[s][t][1])
            for s in ((leader + i) % n for i in range(n))
        )
        winner = trick_winner(plays, trump)
        tricks.append(
            Trick.model_construct(number=t + 1, leader=leader, plays=plays, winner=winner)
        )
        leader = winner
    return tricks


def _ascending(
    run: list[tuple[int, Colour | None]], candidates: list[Card], rng: random.Random
) -> list[Card] | None:
    """A uniform ascending choice of ``len(run)`` of ``candidates`` (in canonical order) where
    each slot of a known colour gets that colour; None when there is none."""
    k, m = len(run), len(candidates)
    if k > m:
        return None
    colours = [colour for _, colour in run]
    if all(colours):
        # Known colours only: each colour's slots take a uniform subset of its candidates.
        chosen: list[Card] = []
        for wanted in COLOURS:
            want = colours.count(wanted)
            if want:
                pool = [c for c in candidates if c[0] == wanted]
                if len(pool) < want:
                    return None
                chosen += sorted(rng.sample(pool, want), key=_KEY.__getitem__)
        return chosen
    # ways[i][j]: ascending fillings of slots i.. from candidates j..
    ways = [[0] * (m + 1) for _ in range(k + 1)]
    ways[k] = [1] * (m + 1)
    for i in range(k - 1, -1, -1):
        row, below, need = ways[i], ways[i + 1], colours[i]
        for j in range(m - 1, -1, -1):
            take = below[j + 1] if need is None or candidates[j][0] == need else 0
            row[j] = row[j + 1] + take
    if ways[0][0] == 0:
        return None
    picked: list[Card] = []
    i = j = 0
    while i < k:
        need = colours[i]
        take = ways[i + 1][j + 1] if need is None or candidates[j][0] == need else 0
        if rng.randrange(ways[i][j]) < take:
            picked.append(candidates[j])
            i += 1
        j += 1
    return picked


def _arrange(
    cards: list[list[tuple[int, Card]]],
    needs: list[int],
    first: Seat,
    last_winner: Seat,
    trump: str | None,
    rng: random.Random,
) -> list[Trick] | None:
    """The hidden tricks, in order, from each seat's hidden (slot, card)s: led by ``first``,
    each next one by the last one's winner, seat ``s`` winning ``needs[s]`` of them and the
    last won by ``last_winner``; None when a bounded search finds no such order.

    A min-conflicts search (local repair): the winners' order and which card each seat
    played in which trick start at random; a trick whose cards elect another winner is
    repaired by swapping one seat's cards between two tricks, or two tricks' winners,
    keeping a change that does not add conflicts (and now and then one that does, to get
    out of a corner)."""
    n = len(cards)
    total = len(cards[0])
    if needs[last_winner] < 1 or min(needs) < 0 or sum(needs) != total:
        return None
    winners = [s for s in range(n) for _ in range(needs[s] - (s == last_winner))]
    rng.shuffle(winners)
    winners.append(last_winner)
    # order[s][t]: which of seat s's hidden cards it played in trick t
    order = [rng.sample(range(total), total) for _ in range(n)]
    power = [[(c[0], int(c[1:])) for _, c in seat_cards] for seat_cards in cards]

    def elected(t: int) -> Seat:
        leader = first if t == 0 else winners[t - 1]
        led = power[leader][order[leader][t]][0]
        best, best_key = leader, (1, 0)
        for offset in range(n):
            s = (leader + offset) % n
            colour, value = power[s][order[s][t]]
            key = (2, value) if colour == trump else (1, value) if colour == led else (0, 0)
            if key > best_key:
                best, best_key = s, key
        return best

    wrong = {t for t in range(total) if elected(t) != winners[t]}
    for _ in range(_ARRANGE_STEPS):
        if not wrong:
            tricks: list[Trick] = []
            for t in range(total):
                leader = first if t == 0 else winners[t - 1]
                plays: list[Play] = []
                for offset in range(n):
                    s = (leader + offset) % n
                    slot, card = cards[s][order[s][t]]
                    plays.append(Play.model_construct(seat=s, slot=slot, card=card))
                tricks.append(
                    Trick.model_construct(
                        number=t + 1, leader=leader, plays=tuple(plays), winner=winners[t]
                    )
                )
            return tricks
        t = rng.choice(tuple(wrong))
        u = rng.randrange(total)
        if u == t:
            continue
        if total > 2 and t < total - 1 and u < total - 1 and rng.random() < 0.3:
            # Two tricks swap winners: the next tricks' leaders change with them.
            touched = {t, t + 1, u, u + 1}
            winners[t], winners[u] = winners[u], winners[t]
            undo: tuple[Seat | None, int, int] = (None, t, u)
        else:
            s = rng.randrange(n)
            touched = {t, u}
            order[s][t], order[s][u] = order[s][u], order[s][t]
            undo = (s, t, u)
        before = len(wrong & touched)
        now = {x for x in touched if elected(x) != winners[x]}
        if len(now) <= before or rng.random() < 0.1:
            wrong = (wrong - touched) | now
            continue
        seat, a, b = undo
        if seat is None:
            winners[a], winners[b] = winners[b], winners[a]
        else:
            order[seat][a], order[seat][b] = order[seat][b], order[seat][a]
    return None
