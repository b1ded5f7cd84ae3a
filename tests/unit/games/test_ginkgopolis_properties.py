"""Property tests: random seeded games at 1-5 players checked after every action.

Invariants of rules §19, JSON round-trips, apply never mutating its input, replay
from seed + log, unlisted actions rejected, and the leak test of the view and of
the events (hidden hands, selections, tiles behind screens, deck and supply order).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from app.games.base import Event, GameOver, IllegalAction, NotYourTurn, dump, parse_action
from app.games.ginkgopolis import ENGINE
from app.games.ginkgopolis import data as D
from app.games.ginkgopolis.actions import (
    Contribute,
    ContributeDone,
    DraftPick,
    KeepHand,
    MoveToken,
    NewHand,
    Select,
    Take,
)
from app.games.ginkgopolis.rules import (
    GinkgopolisOptions,
    GinkgopolisState,
    cell_of,
    clone,
    key,
    neighbours,
)

from .test_ginkgopolis_scenarios import play_random

ALL_CARDS = Counter([*D.URBANIZATION_CARDS, *D.TILES])

# --------------------------------------------------------------------------- invariants (§19)


def check_invariants(s: GinkgopolisState) -> None:
    n_players = len(s.players)
    # cells: a building or a token, never both; 12 tokens next to a building
    token_cells = [key(c) for c in s.tokens.values()]
    assert len(s.tokens) == 12 or (s.decision is not None and s.decision.kind == "move_token")
    assert len(set(token_cells)) == len(token_cells)
    assert not set(token_cells) & set(s.city)
    for c in s.tokens.values():
        assert any(key(nb) in s.city for nb in neighbours(c)), f"token at {c} off the city edge"
    # buildings: owner index valid; unowned = height-1 starting tile
    for k, b in s.city.items():
        assert b.tiles
        if b.owner is None:
            assert b.height == 1 and b.top in D.START_TILES, (k, b)
        else:
            assert 0 <= b.owner < n_players
    # city connected
    start = next(iter(s.city))
    seen = {start}
    todo = [start]
    while todo:
        for nb in neighbours(cell_of(todo.pop())):
            nk = key(nb)
            if nk in s.city and nk not in seen:
                seen.add(nk)
                todo.append(nk)
    assert len(seen) == len(s.city)
    # tile conservation (60), every tile exactly once
    tiles: list[str] = [t for b in s.city.values() for t in b.tiles]
    tiles += s.supply + s.removed_tiles
    for pl in s.players:
        tiles += pl.tiles + pl.set_aside
        if pl.selection is not None and pl.selection.tile is not None and not pl.revealed:
            tiles.append(pl.selection.tile)
    assert Counter(tiles) == Counter(D.TILES)
    assert len(s.removed_tiles) == D.PLAYER_COUNTS[s.n_players].tiles_removed
    # resource conservation per colour
    on_city = [0] * n_players
    for b in s.city.values():
        if b.owner is not None:
            on_city[b.owner] += b.height
    for p, pl in enumerate(s.players):
        assert pl.supply >= 0 and pl.resources >= 0
        assert pl.supply + pl.resources + on_city[p] == D.PLAYER_COUNTS[s.n_players].resources
        assert pl.sp >= 0
        assert 0 <= pl.tokens <= 2
        if pl.hal:
            assert pl.resources == 0 and not pl.tiles and not pl.characters
    # card conservation (72 cards, each exactly once)
    cards: list[str] = list(s.deck) + list(s.discard)
    cards += [f"{c}{n}" for c, nums in s.stacks.items() for n in nums]
    live: list[str] = list(s.deck) + list(s.discard)
    for pl in s.players:
        cards += pl.hand + pl.tableau
        live += pl.hand
        if pl.selection is not None and not pl.selection.spent:
            cards.append(pl.selection.card)
            if not pl.revealed:
                live.append(pl.selection.card)
    if s.hal_card is not None:
        cards.append(s.hal_card)
        live.append(s.hal_card)
    # Hal's revealed urbanization card waits in the queue while his token moves (§15 step 3
    # in the order of §7.2 steps 5-8); a player's is still counted in their selection.
    cards += [st.card for st in s.queue if st.kind == "discard" and s.players[st.player].hal]
    assert Counter(cards) == ALL_CARDS, Counter(cards) - ALL_CARDS
    # a building card in circulation always designates a non-pending top (§9)
    tops = {b.top for b in s.city.values() if not b.pending}
    for c in live:
        if not D.is_urbanization(c):
            assert c in tops, f"card {c} designates no building"
    # colour-stack cards are never the top of a non-pending building
    for c, nums in s.stacks.items():
        assert not {f"{c}{n}" for n in nums} & tops
    # hands
    if s.phase in ("select", "new_hand") and not s.solo:
        for pl in s.players:
            assert len(pl.hand) + (pl.selection is not None) == 4
    if s.phase != "over":
        assert ENGINE.to_act(s), f"nobody to act in phase {s.phase}"
    else:
        assert ENGINE.result(s) is not None


# --------------------------------------------------------------------------- leak test


def planted(s: GinkgopolisState, seat: int | None) -> GinkgopolisState:
    """A copy of ``s`` with everything hidden from ``seat`` replaced by planted secrets."""
    t = clone(s)
    t.deck = [f"SECRET-DECK-{i}" for i in range(len(t.deck))]
    t.discard = [f"SECRET-DISCARD-{i}" for i in range(len(t.discard))]
    t.supply = [f"SECRET-SUPPLY-{i}" for i in range(len(t.supply))]
    t.removed_tiles = [f"SECRET-REMOVED-{i}" for i in range(len(t.removed_tiles))]
    if t.hal_card is not None:
        t.hal_card = "SECRET-HAL"
    t.rng.seed = (t.rng.seed + 12345) % (1 << 64)
    for p, pl in enumerate(t.players):
        if p == seat or pl.hal:
            continue
        pl.hand = [f"SECRET-HAND-{p}-{i}" for i in range(len(pl.hand))]
        pl.tiles = [f"SECRET-TILE-{p}-{i}" for i in range(len(pl.tiles))]
        pl.set_aside = [f"SECRET-ASIDE-{p}-{i}" for i in range(len(pl.set_aside))]
        pl.draft_pile = [f"SECRET-DRAFT-{p}-{i}" for i in range(len(pl.draft_pile))]
        pl.draft_kept = [f"SECRET-KEPT-{p}-{i}" for i in range(len(pl.draft_kept))]
        if pl.new_hand is not None:
            pl.new_hand = not pl.new_hand
        if pl.selection is not None and not pl.revealed:
            pl.selection.card = f"SECRET-SEL-{p}"
            if pl.selection.tile is not None:
                pl.selection.tile = f"SECRET-SELTILE-{p}"
        if s.options.hidden_sp and s.phase != "over":
            pl.sp += 1000
    return t


def check_no_leak(s: GinkgopolisState, seats: list[int | None] | None = None) -> None:
    for seat in [None, *range(s.n_players)] if seats is None else seats:
        v = ENGINE.view(s, seat)
        pv = ENGINE.view(planted(s, seat), seat)
        assert dump(v) == dump(pv), f"the view of seat {seat} depends on hidden information"
        text = json.dumps(dump(pv))
        assert "SECRET" not in text
        for p, pl in enumerate(v.players):
            if p != seat:
                assert pl.hand is None and pl.tiles is None and pl.selection is None
                assert pl.draft_pile is None and pl.new_hand_choice is None


PRIVATE_EVENTS = {
    "draft_pile_received",
    "draft_picked",
    "new_hand_chosen",
    "cards_received",
    "selection_made",
    "tiles_received",
    "contribution_made",
}


def check_events(before: GinkgopolisState, after: GinkgopolisState, events: list[Event]) -> None:
    hidden_cards: set[str] = set()
    hidden_tiles: set[str] = set(after.removed_tiles)
    for pl in after.players:
        hidden_cards |= set(pl.hand)
        hidden_tiles |= set(pl.tiles) | set(pl.set_aside)
        if pl.selection is not None and not pl.revealed:
            hidden_cards.add(pl.selection.card)
            if pl.selection.tile:
                hidden_tiles.add(pl.selection.tile)
    if after.hal_card is not None:
        hidden_cards.add(after.hal_card)
    # Characters still in the draft are each seat's own (§16.2) until it is over.
    hidden_characters = {c for pl in after.players for c in (*pl.draft_pile, *pl.draft_kept)}
    last_rebuild = max((i for i, e in enumerate(events) if e.type == "deck_rebuilt"), default=-1)
    for i, e in enumerate(events):
        data: dict[str, Any] = e.model_dump(mode="json")
        if e.type in PRIVATE_EVENTS:
            assert e.visible_to == frozenset({data["player"]}), e
            continue
        assert e.visible_to is None, e
        for field in ("card", "tile"):
            value = data.get(field)
            if value is None:
                continue
            if field == "card":
                # a revealed card may be reshuffled and drawn again later in the same step
                assert i < last_rebuild or value not in hidden_cards, e
            else:
                assert value not in hidden_tiles, e
        for field in ("tiles", "cards"):
            value = data.get(field)
            if isinstance(value, list):
                assert not set(value) & (hidden_tiles | hidden_cards), e
        shown = data.get("characters") or {}
        shown = shown.values() if isinstance(shown, dict) else [shown]
        assert not {c for cs in shown for c in cs} & hidden_characters, e
        if e.type == "deck_rebuilt":
            # the cards of pending buildings come from the public colour stacks
            stacks = {f"{c}{n}" for c, nums in before.stacks.items() for n in nums}
            assert set(data["pending_cards"]) <= stacks, e
        assert ENGINE.describe(e, "en") and ENGINE.describe(e, "es")


# --------------------------------------------------------------------------- unlisted actions


def unlisted(s: GinkgopolisState, seat: int, legal: list[Any], rng: random.Random) -> Any | None:
    pl = s.players[seat]
    pool: list[Any] = [
        KeepHand(),
        NewHand(),
        Take(item="resource"),
        Take(item="tile"),
        ContributeDone(),
        MoveToken(cell=(rng.randint(-6, 6), rng.randint(-6, 6))),
        DraftPick(character=rng.choice(D.CHARACTER_IDS)),
        Contribute(tile=rng.choice(D.TILES)),
        Select(
            card=rng.choice([*D.URBANIZATION_CARDS, *D.TILES]), tile=rng.choice([None, *D.TILES])
        ),
    ]
    if pl.hand:
        pool.append(Select(card=rng.choice(pl.hand), tile=rng.choice([None, *D.TILES])))
    rng.shuffle(pool)
    for a in pool:
        if a not in legal:
            return a
    return None


# --------------------------------------------------------------------------- the game loop


def run_checked(n: int, seed: int, options: GinkgopolisOptions) -> tuple[GinkgopolisState, list]:  # type: ignore[type-arg]
    s, setup_events = ENGINE.start(n, seed, options)
    # The setup's events (version 1) keep secrets like every other: a draft's piles too.
    check_events(s, s, list(setup_events))
    rng = random.Random(seed)
    log: list[tuple[int, dict[str, Any]]] = []
    check_invariants(s)
    check_no_leak(s)
    steps = 0
    while ENGINE.to_act(s):
        steps += 1
        assert steps <= ENGINE.max_length(n)
        seats = sorted(ENGINE.to_act(s))
        for other in range(n):
            if other not in seats:
                assert ENGINE.legal_actions(s, other) == []
        seat = rng.choice(seats)
        legal = ENGINE.legal_actions(s, seat)
        assert legal
        assert ENGINE.legal_actions(s, seat) == legal  # deterministic
        # every listed action survives JSON and is accepted
        for a in legal[:6]:
            assert parse_action(ENGINE, json.loads(json.dumps(dump(a)))) == a
        bad = unlisted(s, seat, legal, rng)
        if bad is not None:
            try:
                ENGINE.apply(s, seat, bad)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"unlisted {bad} was accepted")
        action = parse_action(ENGINE, dump(rng.choice(legal)))
        before = json.dumps(dump(s))
        new, events = ENGINE.apply(s, seat, action)
        assert json.dumps(dump(s)) == before, "apply mutated its input"
        log.append((seat, dump(action)))
        check_events(s, new, events)
        s = new
        check_invariants(s)
        # every viewer at the simultaneous steps, one sampled viewer elsewhere (cost)
        if s.phase in ("draft", "new_hand", "select", "contribute"):
            check_no_leak(s)
        else:
            check_no_leak(s, [rng.choice([None, *range(n)])])
        raw = dump(s)
        assert dump(GinkgopolisState.model_validate(json.loads(json.dumps(raw)))) == raw
    assert s.phase == "over"
    try:
        ENGINE.apply(s, 0, KeepHand())
    except GameOver:
        pass
    else:
        raise AssertionError("an action was accepted after the end")
    return s, log


options_st = st.builds(
    GinkgopolisOptions,
    characters=st.sampled_from(["sets", "draft", "random"]),
    keep_token_order=st.booleans(),
    hidden_sp=st.booleans(),
)


@given(seed=st.integers(0, 2**40), n=st.integers(1, 5), options=options_st)
def test_random_games_keep_every_invariant(seed: int, n: int, options: GinkgopolisOptions) -> None:
    if n == 1:  # only the options a solo table can have (§15: no characters, Hal's SP shown)
        options = options.model_copy(update={"characters": "sets", "hidden_sp": False})
    ENGINE.validate_options(options, n)
    final, log = run_checked(n, seed, options)
    res = ENGINE.result(final)
    assert res is not None
    assert set(res.ranking) == set(range(n)) and set(res.scores) == set(range(n))
    # replay from seed + log equals the final state
    s = ENGINE.setup(n, seed, options)
    for seat, raw in log:
        s, _ = ENGINE.apply(s, seat, parse_action(ENGINE, raw))
    assert json.dumps(dump(s)) == json.dumps(dump(final))


@given(seed=st.integers(0, 2**40), n=st.integers(1, 5))
def test_normal_bot_always_plays_a_legal_action(seed: int, n: int) -> None:
    final, _ = play_random(n, seed, level="normal")
    assert final.phase == "over"
    check_invariants(final)


def test_not_your_turn_is_reported() -> None:
    s = ENGINE.setup(3, 5, GinkgopolisOptions())
    s, _ = ENGINE.apply(s, 0, KeepHand())
    try:
        ENGINE.apply(s, 0, NewHand())
    except NotYourTurn as err:
        assert "seat 0" in err.message
    else:
        raise AssertionError("a second declaration was accepted")


def test_same_seed_same_game() -> None:
    a, log_a = play_random(4, 99)
    b, log_b = play_random(4, 99)
    assert json.dumps(dump(a)) == json.dumps(dump(b))
    assert [(s, dump(x)) for s, x in log_a] == [(s, dump(x)) for s, x in log_b]
