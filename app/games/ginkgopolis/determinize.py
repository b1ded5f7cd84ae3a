"""A complete Ginkgopolis state that one seat's view allows (the strong bot's worlds).

:func:`determinize` copies everything the view shows (the city, the tokens, the colour
stacks, the tableaux, every public count, the seat's own hand, tiles, selection and
contribution) and deals what the seat has not seen, uniformly, from exactly the cards,
tiles and characters it has not seen (rules §13): the other seats' hands, their secret
selections (a tile attached only where the view shows one, and then a pair that passes
§7.0), the tiles behind their screens and the part of them set aside for a refill, the deck,
the face-down part of the discard pile, the tile supply, the 6 tiles removed at setup, Hal's
face-down card and, in the draft, the other seats' piles and kept characters.

Uniform but for one thing: a secret selection was chosen, not drawn. It is drawn from the
hand (and screen) dealt to its seat, leaning to what that seat's normal judgement rates best
(:func:`_secret_selection`); any unseen card may still be selected.

Three things the state holds are not in any view, and are worked out from the rules:

- the work queue of a paused resolution (§19b): the rest of the active player's action
  (known from its revealed selection and the decision it waits for), the players after it in
  turn order, and the end of the round. Only where a refill (§10) paused an action in the
  middle of its tile gains does the view not say at which tile: any tile of the action's
  tile gains could have emptied the supply, and one is drawn at random;
- another seat's New Hand declaration, made but not yet processed (§6.1.0): drawn, "new
  hand" with probability :data:`NEW_HAND_CHANCE`;
- the other seats' SP under the option ``hidden_sp`` (D12): taken to be the seat's own.

The result's view for ``seat`` is the given view exactly, and its ``Rng`` (the chance still
to come) is a fresh one drawn from ``rng``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from app.games.base import Rng
from app.games.trusted import maker

from . import data as D
from .bot import selection_judge
from .rules import (
    Building,
    Decision,
    GinkgopolisState,
    Plan,
    PlayerState,
    Selection,
    Step,
    key,
    neighbours,
)
from .view import GinkgopolisView, PlayerView

#: How likely another seat that declared in the New Hand window (§6.1.0) asked for a new
#: hand: the view says only that it declared. Players keep their hand far more often.
NEW_HAND_CHANCE = 0.2
#: How sharply another seat's secret selection leans to what the normal judgement rates
#: best (SP of score per factor e of likelihood; see :func:`_secret_selection`).
SELECTION_TEMPERATURE = 1.0
#: Random (card, tile) pairs tried for another seat's secret selection with a tile before
#: every legal pair is listed (most pairs are legal: any urbanization card with any tile).
_PAIR_TRIES = 48

#: All 72 cards (urbanization cards, then building cards), in canonical order (§14).
ALL_CARDS: tuple[str, ...] = (*D.URBANIZATION_CARDS, *D.TILES)

_state = maker(GinkgopolisState)
_player = maker(PlayerState)
_building = maker(Building)
_selection = maker(Selection)
_decision = maker(Decision)
_step = maker(Step)

_ITEM_COLOUR = {"resource": "R", "sp": "Y", "tile": "B"}


def determinize(view: GinkgopolisView, seat: int, rng: random.Random) -> GinkgopolisState:
    """A state whose ``view(state, seat)`` is ``view``, what ``seat`` has not seen dealt at
    random from what it has not seen (see the module's docstring).

    Pure: reads only ``view``, ``seat`` and ``rng`` (and the data tables); the same rng
    state gives the same state. Raises ValueError if the view's counts do not add up (it
    is no view the rules can make)."""
    n = view.n_players
    pvs = view.players
    solo = view.solo
    phase = view.phase
    me = pvs[seat]

    city: dict[str, Building] = {}
    tops: dict[str, Building] = {}
    city_tiles: set[str] = set()
    for bv in view.city:
        b = _building(tiles=bv.tiles, owner=bv.owner, pending=bv.pending)
        city[key(bv.cell)] = b
        city_tiles.update(bv.tiles)
        if not bv.pending:
            tops[bv.top] = b

    # Whose revealed card has reached the discard pile or a tableau ("spent"): at a pause
    # of the resolution every revealed player but the one acting (§6.2); at the end, all.
    active = _active_player(view)
    spent = [
        pv.revealed is not None and phase in ("resolve", "contribute", "over") and p != active
        for p, pv in enumerate(pvs)
    ]

    # ---- cards: what the seat sees, and where the rest may be
    seen_cards: set[str] = {f"{c}{k}" for c, nums in view.stacks.items() for k in nums}
    known_discard: list[str] = []
    for p, pv in enumerate(pvs):
        seen_cards.update(pv.tableau)
        if pv.revealed is not None:
            card = pv.revealed.card
            if card not in seen_cards:  # a build-up card already in its tableau is counted
                seen_cards.add(card)
                if spent[p]:
                    known_discard.append(card)
    seen_cards.update(me.hand or ())
    if me.selection is not None:
        seen_cards.add(me.selection.card)
    hal_queued = (
        view.decision.card
        if solo and view.decision is not None and view.decision.player == 1
        else None
    )
    if hal_queued is not None:
        seen_cards.add(hal_queued)
    cards = [c for c in ALL_CARDS if c not in seen_cards]
    rng.shuffle(cards)

    # ---- tiles likewise
    seen_tiles = set(city_tiles)
    seen_tiles.update(me.tiles or ())
    seen_tiles.update(me.set_aside or ())
    if me.selection is not None and me.selection.tile is not None:
        seen_tiles.add(me.selection.tile)
    tiles = [t for t in D.TILES if t not in seen_tiles]
    rng.shuffle(tiles)

    # ---- the other seats' SP where hidden (D12): the seat's own as the estimate
    sps = [pv.sp if pv.sp is not None else (me.sp or 0) for pv in pvs]

    # ---- secret selections, those with a tile first (the one constraint among the hidden
    # cards): each from a hand and a screen dealt as the seat held them when it chose
    selections: list[Selection | None] = [None] * len(pvs)
    chosen_from: dict[int, tuple[list[str], list[str] | None]] = {}
    secret: list[int] = []
    for p, pv in enumerate(pvs):
        if p == seat:
            if pv.selection is not None:
                selections[p] = _selection(
                    card=pv.selection.card, tile=pv.selection.tile, spent=spent[p]
                )
        elif pv.revealed is not None:
            selections[p] = _selection(card=pv.revealed.card, tile=pv.revealed.tile, spent=spent[p])
        elif pv.has_selected:
            secret.append(p)
    secret.sort(key=lambda p: not pvs[p].tile_attached)
    for p in secret:
        card, tile, rest = _secret_selection(view, p, sps[p], tops, cards, tiles, rng)
        selections[p] = _selection(card=card, tile=tile, spent=False)
        if rest is not None:
            chosen_from[p] = rest

    # ---- the rest of the hidden cards: hands, Hal's card, the deck, the discard pile
    hands: list[list[str]] = []
    for p, pv in enumerate(pvs):
        if p == seat:
            hands.append(list(pv.hand or ()))
        elif p in chosen_from:
            hands.append(_canon(chosen_from[p][0]))
        else:
            hands.append(_canon([_take(cards) for _ in range(pv.hand_count)]))
    hal_card = _take(cards) if view.hal_card_face_down else None
    deck = [_take(cards) for _ in range(view.deck_count)]
    hidden_discard = view.discard_count - len(known_discard)
    if hidden_discard != len(cards):
        raise ValueError(
            f"the view's cards do not add up: {len(cards)} unseen cards for "
            f"{hidden_discard} face-down discards"
        )
    discard = [*cards, *known_discard]

    # ---- hidden tiles: behind the other screens (some set aside in a refill), supply, box
    screens: list[list[str]] = []
    asides: list[list[str]] = []
    for p, pv in enumerate(pvs):
        if p == seat or pv.hal:
            screens.append(list(pv.tiles or ()))
            asides.append(list(pv.set_aside or ()))
            continue
        count = pv.tile_count
        screen = chosen_from[p][1] if p in chosen_from else None
        held = screen if screen is not None else [_take(tiles) for _ in range(count)]
        aside = 0
        if phase == "contribute" and count:
            # not done: at least one tile is still behind the screen (§19c)
            aside = rng.randint(0, count if pv.contribution_done else count - 1)
        asides.append(held[:aside])
        screens.append(_canon(held[aside:]))
    supply = [_take(tiles) for _ in range(view.supply_count)]
    if len(tiles) != view.removed_count:
        raise ValueError(
            f"the view's tiles do not add up: {len(tiles)} unseen tiles for "
            f"{view.removed_count} removed at setup"
        )
    removed = tiles

    # ---- the draft (§16.2): the other piles and kept characters
    draft_round = 3 if n > 1 and view.options.characters == "draft" else 0
    piles: list[list[str]] = [[] for _ in pvs]
    kept: list[list[str]] = [[] for _ in pvs]
    if phase == "draft":
        mine_kept = list(me.draft_kept or ())
        draft_round = len(mine_kept) - (1 if me.draft_picked else 0)
        unseen = [c for c in D.CHARACTER_IDS if c not in set(mine_kept) | set(me.draft_pile or ())]
        rng.shuffle(unseen)
        for p, pv in enumerate(pvs):
            if p == seat:
                piles[p], kept[p] = list(pv.draft_pile or ()), mine_kept
                continue
            picked = 1 if pv.draft_picked else 0
            kept[p] = [_take(unseen) for _ in range(draft_round + picked)]
            piles[p] = sorted(_take(unseen) for _ in range(D.DRAFT_DEAL - draft_round - picked))

    players: list[PlayerState] = []
    for p, pv in enumerate(pvs):
        if p == seat:
            new_hand = pv.new_hand_choice
        elif pv.declared_new_hand:
            new_hand = rng.random() < NEW_HAND_CHANCE
        else:
            new_hand = None
        players.append(
            _player(
                colour=pv.colour,
                hal=pv.hal,
                supply=pv.supply,
                resources=pv.resources,
                tiles=screens[p],
                set_aside=asides[p],
                contribution_done=pv.contribution_done,
                sp=sps[p],
                tokens=pv.new_hand_tokens,
                characters=list(pv.characters),
                tableau=list(pv.tableau),
                hand=hands[p],
                selection=selections[p],
                revealed=pv.revealed is not None,
                new_hand=new_hand,
                draft_pile=piles[p],
                draft_kept=kept[p],
                draft_picked=pv.draft_picked,
            )
        )

    d = view.decision
    decision = (
        None
        if d is None
        else _decision(
            kind=d.kind,
            seat=d.seat,
            player=d.player,
            card=d.card,
            letter=d.letter,
            site=d.site,
            items=list(d.items),
            candidates=list(d.candidates),
        )
    )
    queue = [_step(**plan) for plan in _queue(view, players, city, active, rng)]
    return _state(
        n_players=n,
        options=view.options,
        rng=Rng.from_seed(rng.getrandbits(64)),
        phase=phase,
        round=view.round,
        first_player=view.first_player,
        players=players,
        city=city,
        tokens=dict(view.tokens),
        supply=supply,
        removed_tiles=removed,
        deck=deck,
        discard=discard,
        stacks={c: list(nums) for c, nums in view.stacks.items()},
        refill_done=view.refill_done,
        end_triggered=view.end_triggered,
        end_reasons=list(view.end_reasons),
        queue=queue,
        decision=decision,
        hal_card=hal_card,
        draft_round=draft_round,
        final=None if view.final is None else list(view.final),
    )


def _canon(items: list[str]) -> list[str]:
    """``items`` in the canonical order of §14 (hands and screens are kept so)."""
    return sorted(items, key=D.CANON_KEY.__getitem__)


def _take(pool: list[str]) -> str:
    """The next item of a shuffled pool (its end: popping there is cheap)."""
    if not pool:
        raise ValueError("the view asks for more hidden items than it leaves unseen")
    return pool.pop()


def _turn_order(view: GinkgopolisView) -> list[int]:
    return [(view.first_player + i) % view.n_players for i in range(view.n_players)]


def _active_player(view: GinkgopolisView) -> int | None:
    """The player whose action a paused resolution is in (§6.2): the last one in turn order
    to have revealed, or solo whoever the decision is for (Hal's token move is after yours)."""
    if view.phase not in ("resolve", "contribute"):
        return None
    if view.solo:
        return view.decision.player if view.decision is not None else 0
    revealed = [p for p in _turn_order(view) if view.players[p].revealed is not None]
    return revealed[-1] if revealed else None


def _secret_selection(
    view: GinkgopolisView,
    p: int,
    sp: int,
    tops: dict[str, Building],
    cards: list[str],
    tiles: list[str],
    rng: random.Random,
) -> tuple[str, str | None, tuple[list[str], list[str] | None] | None]:
    """Another seat's secret selection: a card, the tile attached (where the view shows one)
    and the rest of the hand and screen it was chosen from, all taken out of the pools.

    The hand it chose from (and, with a tile, the screen) is dealt uniformly, one more than
    it holds now; the selection among that hand's legal ones (§7.0 with what the seat holds:
    only gains can have come since) is drawn with weight ``exp(score / SELECTION_TEMPERATURE)``
    of the normal judgement's score, as a player picks what looks best more often than not.
    In the rare deal that allows no selection with a tile, the pair is drawn uniformly
    over all unseen legal pairs, and the rest of the hand and screen later (``None``)."""
    pv = view.players[p]
    hand = [_take(cards) for _ in range(pv.hand_count + 1)]
    screen = [_take(tiles) for _ in range(pv.tile_count + 1)] if pv.tile_attached else None
    legal = _selectable(p, pv, sp, tops)
    options: list[tuple[str, str | None]] = (
        [(card, None) for card in hand]
        if screen is None
        else [(card, tile) for card in hand for tile in screen if legal(card, tile)]
    )
    if not options:
        # Back where they were (the pools' ends), so the pools are as if never dealt from.
        cards.extend(reversed(hand))
        tiles.extend(reversed(screen or ()))
        pair = _secret_pair(legal, cards, tiles, rng)
        return (*pair, None)
    judge = selection_judge(view, p)
    scores = [judge(card, tile) for card, tile in options]
    best = max(scores)
    weights = [math.exp((score - best) / SELECTION_TEMPERATURE) for score in scores]
    card, tile = options[rng.choices(range(len(options)), weights)[0]]
    hand.remove(card)
    if screen is not None and tile is not None:
        screen.remove(tile)
    return card, tile, (hand, screen)


def _selectable(
    p: int, pv: PlayerView, sp: int, tops: dict[str, Building]
) -> Callable[[str, str], bool]:
    """Whether seat ``p`` could select a card with a tile (§7.0) with what the view shows
    it holds, ``sp`` its SP."""

    def legal(card: str, tile: str) -> bool:
        if card[:2] == "U-":
            return pv.resources >= 1
        b = tops.get(card)
        if b is None:
            return False
        height = len(b.tiles)
        have = pv.resources + (height if b.owner == p else 0)
        need = height + 1 + (1 if D.COLOUR[tile] != D.COLOUR[card] else 0)
        return sp >= D.NUMBER[card] - D.NUMBER[tile] and have >= need

    return legal


def _secret_pair(
    legal: Callable[[str, str], bool],
    cards: list[str],
    tiles: list[str],
    rng: random.Random,
) -> tuple[str, str]:
    """A card and a tile uniform over the unseen pairs that are ``legal``, taken out of the
    pools."""
    if not cards or not tiles:
        raise ValueError("the view asks for a secret selection with no unseen card or tile")
    chosen: tuple[int, int] | None = None
    for _ in range(_PAIR_TRIES):
        i, j = rng.randrange(len(cards)), rng.randrange(len(tiles))
        if legal(cards[i], tiles[j]):
            chosen = (i, j)
            break
    if chosen is None:
        pairs = [(i, j) for i, c in enumerate(cards) for j, t in enumerate(tiles) if legal(c, t)]
        # None legal (an SP estimate too low under hidden_sp): any pair; the rules then
        # resolve it as an exploit (§7.0 fallback)
        chosen = pairs[rng.randrange(len(pairs))] if pairs else (0, 0)
    i, j = chosen
    return cards.pop(i), tiles.pop(j)


def _queue(
    view: GinkgopolisView,
    players: list[PlayerState],
    city: dict[str, Building],
    active: int | None,
    rng: random.Random,
) -> list[Plan]:
    """The work queue of a paused resolution (§19b), from the rules: the rest of the
    active player's action, the players after it, the end of the round."""
    if view.phase not in ("resolve", "contribute") or active is None:
        return []
    d = view.decision
    if view.solo:
        if active == 1:  # Hal's token move (§15 step 3, in the order of §7.2 steps 5-8)
            if d is None or d.site is None:
                return [{"kind": "end_round"}]
            sp = sum(
                len(b.tiles) for c in neighbours(d.site) if (b := city.get(key(c))) is not None
            )
            return [
                {"kind": "gain", "player": 1, "colour": "Y", "amount": sp, "reason": "neighbour"},
                {"kind": "discard", "player": 1, "card": d.card},
                {"kind": "end_round"},
            ]
        rest: list[Plan] = [
            {"kind": "discard_hand", "player": 0},
            {"kind": "hal"},
            {"kind": "end_round"},
        ]
    else:
        order = _turn_order(view)
        rest = [{"kind": "resolve", "player": q} for q in order[order.index(active) + 1 :]]
        rest.append({"kind": "end_round"})
    revealed = view.players[active].revealed
    if revealed is None:
        return rest
    card, tile = revealed.card, revealed.tile
    p = active
    if tile is None:
        trigger = "exploit"
        tail: list[Plan] = [{"kind": "discard", "player": p, "card": card}]
    elif card[:2] == "U-":
        trigger = "urbanize"
        tail = [{"kind": "discard", "player": p, "card": card}, {"kind": "check_all", "player": p}]
    else:
        trigger = "build_up"
        tail = [{"kind": "tableau", "player": p, "card": card}, {"kind": "check_all", "player": p}]
    if d is not None and d.kind == "take":
        return [{"kind": "bonus", "player": p, "reason": "exploit"}, *tail, *rest]
    gains: list[Plan] = []
    if trigger == "urbanize":
        site = d.site if d is not None else _site_of(city, tile or "")
        if site is not None:
            for c in neighbours(site):
                b = city.get(key(c))
                if b is not None:
                    top = b.tiles[-1]
                    gains.append(
                        {
                            "kind": "gain",
                            "player": p,
                            "colour": D.COLOUR[top],
                            "amount": len(b.tiles),
                            "reason": "neighbour",
                            "card": top,
                            "cell": c,
                        }
                    )
    if d is not None:  # the token move of an urbanize: its gains are all to come
        return [*gains, {"kind": "bonus", "player": p, "reason": trigger}, *tail, *rest]
    # A refill paused the action at one of its tile gains (§10): which one, the view does not
    # say; each tile the action gains could have been the supply's last.
    take: list[Plan] = []
    if trigger == "exploit":
        if card[:2] == "U-":
            take = [{"kind": "gain", "player": p, "colour": "B", "amount": 1, "reason": card}]
        else:
            b = next((b for b in city.values() if b.tiles[-1] == card and not b.pending), None)
            if b is not None:
                top = b.tiles[-1]
                cell = next(k for k, v in city.items() if v is b)
                x, y = cell.split(",")
                gains.append(
                    {
                        "kind": "gain",
                        "player": p,
                        "colour": D.COLOUR[top],
                        "amount": len(b.tiles),
                        "reason": card,
                        "card": top,
                        "cell": (int(x), int(y)),
                    }
                )
    pl = players[p]
    bonuses: list[Plan] = []
    for bonus_card in [*pl.characters, *pl.tableau]:
        bonus = D.BONUS[bonus_card]
        if bonus is None or bonus[0] != trigger:
            continue
        for item, amount in bonus[1]:
            bonuses.append(
                {
                    "kind": "gain",
                    "player": p,
                    "colour": _ITEM_COLOUR[item],
                    "amount": amount,
                    "reason": f"bonus {bonus_card}",
                }
            )
    steps = [*take, *gains, *bonuses]
    units = [
        (i, j)
        for i, step in enumerate(steps)
        if step.get("colour") == "B"
        for j in range(1, step.get("amount", 0) + 1)
    ]
    if not units:
        return [*tail, *rest]
    i, j = units[rng.randrange(len(units))]
    left = steps[i].get("amount", 0) - j
    resumed = steps[i].copy()
    resumed["amount"] = left
    paused = [resumed] if left > 0 else []
    main = len(take) + len(gains)
    after: list[Plan]
    if i < main:  # the bonuses are still one step, expanded when it runs (§8)
        after = [*steps[i + 1 : main], {"kind": "bonus", "player": p, "reason": trigger}]
    else:
        after = steps[i + 1 :]
    return [*paused, *after, *tail, *rest]


def _site_of(city: dict[str, Building], tile: str) -> tuple[int, int] | None:
    """The cell of the building urbanized with ``tile`` (its only tile)."""
    for k, b in city.items():
        if b.tiles == [tile]:
            x, y = k.split(",")
            return (int(x), int(y))
    return None
