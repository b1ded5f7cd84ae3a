"""Property tests: random seeded Glück Auf games at 2, 3 and 4 players.

After every action: components conserved (coal cubes, tiles, order cards,
workers), money never negative, the state and every legal action round-trip
through JSON, ``apply`` leaves its input unchanged, views leak nothing
(§10). At the end: shift 3 finished, within ``max_length``, a consistent
result, and a replay from seed + log gives the same state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from app.games.base import Event, IllegalAction, action_adapter
from app.games.gluckauf import ENGINE
from app.games.gluckauf import events as ev
from app.games.gluckauf.actions import (
    AddCube,
    ChooseEnd,
    DraftOrder,
    KeepItem,
    LoadCube,
    MoveCage,
    PlaceWorker,
    ReturnItem,
    StopMining,
    UnloadCube,
)
from app.games.gluckauf.data import CUBES_PER_COLOUR, ORDERS, PARAMS, TILE_SPACES, TILES
from app.games.gluckauf.rules import GluckaufOptions, GluckaufState

ADAPTER = action_adapter(ENGINE)


# --------------------------------------------------------------------------- invariants


def coal_everywhere(s: GluckaufState) -> Counter[str]:
    c: Counter[str] = Counter(s.coal)
    for p in s.players:
        c.update(x for x in p.printed if x is not None)
        c.update(x for t in p.tiles for x in t.carts if x is not None)
        c.update(p.cage)
        c.update(p.storage)
        c.update(x for o in p.orders for spot in o.spots for x in spot)
    if s.mining is not None:
        c.update(s.mining.tfo_cubes)
    return c


def check_invariants(s: GluckaufState) -> None:
    # Coal: 16 per colour, supply + every pit + every order card.
    assert coal_everywhere(s) == Counter(dict.fromkeys("YBGK", CUBES_PER_COLOUR))
    assert all(v >= 0 for v in s.coal.values())
    # Tiles: 48, each exactly once (stack, factory, pits, a pending draw).
    tiles = list(s.stack) + [t for t in s.factory.values() if t is not None]
    tiles += [t.tile for p in s.players for t in p.tiles]
    if s.draw is not None and s.draw.kind == "tile":
        tiles += [i for i in s.draw.drawn if i != s.draw.kept]
    assert sorted(tiles) == list(range(len(TILES)))
    # Order cards: 44, each exactly once.
    cards = list(s.deck) + list(s.display) + [c for c in s.order_spaces.values() if c is not None]
    cards += [o.card for p in s.players for o in p.orders] + [
        c for p in s.players for c in p.delivered
    ]
    if s.draw is not None and s.draw.kind == "order":
        cards += [i for i in s.draw.drawn if i != s.draw.kept]
    assert sorted(cards) == list(range(len(ORDERS)))
    # Workers: supply + canteen + spaces + bank = W per player.
    w = PARAMS[s.n_players].workers
    on_spaces = Counter[int]()
    for occ in s.occupants.values():
        assert occ.count >= 1
        on_spaces[occ.seat] += occ.count
    for seat, p in enumerate(s.players):
        assert p.supply + p.canteen + on_spaces[seat] + s.bank[seat] == w
        assert p.supply >= 0 and p.money >= 0
        assert 0 <= p.cage_level <= 4 and len(p.cage) <= 5
        for o in p.orders:
            spots = ORDERS[o.card].spots
            for printed, cubes in zip(spots, o.spots, strict=True):
                assert cubes in ([], [printed]) or len(cubes) == 2
    assert 1 <= s.shift <= 3
    assert len(ENGINE.to_act(s)) == (0 if s.phase == "over" else 1)


def check_views(s: GluckaufState, events: list[Event]) -> None:
    """§10 leak test on the engine: planted hidden values never reach other viewers."""
    for viewer in [None, *range(s.n_players)]:
        v = ENGINE.view(s, viewer)
        dumped = v.model_dump(mode="json")
        assert "rng" not in dumped and "stack" not in dumped and "deck" not in dumped
        for seat, pv in enumerate(v.players):
            hidden = not (s.options.delivered_visible or seat == viewer or s.phase == "over")
            if hidden:
                assert pv.delivered is None
            else:
                assert [o.id for o in pv.delivered or []] == s.players[seat].delivered
            assert pv.delivered_count == len(s.players[seat].delivered)
        if s.draw is not None:
            assert v.draw is not None
            if viewer == s.active:
                assert [i.id for i in v.draw.drawn or []] == s.draw.drawn
            else:
                assert v.draw.drawn is None and v.draw.returned is None
        for e in events:
            if isinstance(e, ev.ItemsSeen | ev.ItemsReturnedPrivately):
                assert e.visible_to == frozenset({e.seat})
            if e.is_visible_to(viewer) and viewer is not None:
                assert not isinstance(e, ev.ItemsSeen) or e.seat == viewer
    for e in events:
        if e.visible_to is None:
            # Public events never carry a draw's contents or a return order.
            assert not isinstance(e, ev.ItemsSeen | ev.ItemsReturnedPrivately)
        for locale in ("es", "en"):
            assert ENGINE.describe(e, locale)


UNLISTED_PROBES: list[Any] = [
    DraftOrder(card=0),
    PlaceWorker(space="MONEY-3"),
    PlaceWorker(space="FACT-8"),
    KeepItem(item=47),
    ChooseEnd(end="top"),
    ReturnItem(item=0),
    MoveCage(level=0),
    LoadCube(colour="K"),
    UnloadCube(order=0, colour="Y"),
    AddCube(source="storage", colour="G"),
    StopMining(),
]


def play(
    n: int, seed: int, options: GluckaufOptions, bot_seed: int, *, checks: bool
) -> tuple[GluckaufState, list[tuple[int, Any]]]:
    s = ENGINE.setup(n, seed, options)
    assert isinstance(s, GluckaufState)
    rng = random.Random(bot_seed)
    log: list[tuple[int, Any]] = []
    limit = ENGINE.max_length(n)
    while ENGINE.result(s) is None:
        assert len(log) < limit
        (seat,) = ENGINE.to_act(s)
        legal = ENGINE.legal_actions(s, seat)
        assert legal
        for other in range(n):
            if other != seat:
                assert ENGINE.legal_actions(s, other) == []
        if checks:
            for a in legal:
                assert ADAPTER.validate_python(a.model_dump(mode="json")) == a
                # The server validates actions strictly, from JSON: nothing may need coercing.
                raw = json.dumps(a.model_dump(mode="json")).encode()
                assert ADAPTER.validate_json(raw, strict=True) == a
            for probe in UNLISTED_PROBES:
                if probe not in legal:
                    try:
                        ENGINE.apply(s, seat, probe)
                    except IllegalAction as exc:
                        assert exc.message
                    else:
                        raise AssertionError(f"unlisted {probe} was accepted")
            for a in legal:
                for locale in ("es", "en"):
                    assert ENGINE.describe(a, locale)
        action = rng.choice(legal)
        wire = ADAPTER.validate_python(action.model_dump(mode="json"))
        before = s.model_dump_json() if checks else ""
        s2, events = ENGINE.apply(s, seat, wire)
        if checks:
            assert s.model_dump_json() == before, "apply mutated its input"
        s = s2
        log.append((seat, wire))
        if checks:
            check_invariants(s)
            again = GluckaufState.model_validate(s.model_dump(mode="json"))
            assert again.model_dump_json() == s.model_dump_json()
            check_views(s, events)
    return s, log


# --------------------------------------------------------------------------- properties


games = st.tuples(
    st.sampled_from([2, 3, 4]),
    st.integers(min_value=0, max_value=2**64 - 1),
    st.integers(min_value=0, max_value=2**32),
    st.booleans(),
    st.one_of(st.none(), st.integers(min_value=0, max_value=3)),
)


@given(games)
def test_random_games_keep_every_invariant(params: tuple[int, int, int, bool, int | None]) -> None:
    n, seed, bot_seed, visible, start = params
    start = None if start is None else start % n
    options = GluckaufOptions(starting_player=start, delivered_visible=visible)
    raw = json.dumps(options.model_dump(mode="json")).encode()
    assert TypeAdapter(ENGINE.Options).validate_json(raw, strict=True) == options
    s, _ = play(n, seed, options, bot_seed, checks=True)
    assert s.phase == "over" and s.shift == 3
    assert ENGINE.to_act(s) == frozenset()
    assert all(ENGINE.legal_actions(s, seat) == [] for seat in range(n))
    res = ENGINE.result(s)
    assert res is not None
    assert sorted(res.ranking) == list(range(n))
    assert res.scores == {seat: p.vp for seat, p in enumerate(s.players)}
    keys = {seat: (res.scores[seat], s.players[seat].money) for seat in range(n)}
    ordered = [keys[seat] for seat in res.ranking]
    assert ordered == sorted(ordered, reverse=True)
    assert res.places[res.ranking[0]] == 1
    if start is not None:
        assert ENGINE.setup(n, seed, options).start_player == start


@given(games)
def test_replay_from_seed_and_log_equals_the_state(
    params: tuple[int, int, int, bool, int | None],
) -> None:
    n, seed, bot_seed, visible, _ = params
    options = GluckaufOptions(delivered_visible=visible)
    final, log = play(n, seed, options, bot_seed, checks=False)
    s = ENGINE.setup(n, seed, options)
    for seat, action in log:
        s, _ = ENGINE.apply(s, seat, ADAPTER.validate_python(action.model_dump(mode="json")))
    assert s.model_dump_json() == final.model_dump_json()


def test_setup_is_deterministic_and_uses_the_section_11_order() -> None:
    from app.games.base import Rng

    s1 = ENGINE.setup(3, 99, GluckaufOptions())
    s2 = ENGINE.setup(3, 99, GluckaufOptions())
    assert s1.model_dump_json() == s2.model_dump_json()
    rng = Rng.from_seed(99)
    tiles = list(range(48))
    rng.shuffle(tiles)
    orders = list(range(44))
    rng.shuffle(orders)
    start = rng.below(3)
    assert isinstance(s1, GluckaufState)
    assert s1.start_player == start
    assert [s1.factory[k] for k in s1.factory] == tiles[:7] and s1.stack == tiles[7:]
    assert sorted(orders[:10]) == s1.display and s1.deck == orders[10:]
    fixed = ENGINE.setup(3, 99, GluckaufOptions(starting_player=2))
    assert isinstance(fixed, GluckaufState)
    assert fixed.start_player == 2 and fixed.rng.draws < s1.rng.draws


@pytest.mark.parametrize(("n", "starting_player"), [(2, None), (3, None), (4, None), (3, 2)])
def test_start_announces_the_factory_tiles_the_starting_player_and_the_draft_display(
    n: int, starting_player: int | None
) -> None:
    """``setup`` is ``start(...).state``; the setup's events are public (§10) and say what
    the setup did (issue 35): the tiles laid out on the open factory spaces (§4 step 3),
    the starting player drawn or fixed by the host (§4 step 6, no factory count), and the
    order cards of the draft display (§4 step 7), each as its own line in both languages."""
    options = GluckaufOptions(starting_player=starting_player)
    state, events = ENGINE.start(n, 99, options)
    assert isinstance(state, GluckaufState)
    assert state.model_dump_json() == ENGINE.setup(n, 99, options).model_dump_json()
    laid, starter, display = events
    assert isinstance(laid, ev.FactoryLaidOut)
    assert list(laid.tiles.items()) == [
        (sid, state.factory[sid]) for sid in TILE_SPACES if sid in state.factory
    ]
    assert isinstance(starter, ev.StartingPlayerDrawn)
    assert starter.seat == state.start_player and starter.drawn is (starting_player is None)
    if starting_player is not None:
        assert starter.seat == starting_player
    assert isinstance(display, ev.DraftDisplayLaidOut) and display.cards == state.display
    assert all(e.visible_to is None for e in events)
    number = starter.seat + 1  # the log names seats from 1
    en = [ENGINE.describe(e, "en") for e in events]
    es = [ENGINE.describe(e, "es") for e in events]
    assert en[0].startswith("Setup: the factory tiles are laid out: Factory 1: ")
    assert "refilled" not in en[0] and "repone" not in es[0]
    assert es[0].startswith("Preparación: se colocan las losetas de la fábrica: Fábrica 1: ")
    if starting_player is None:
        assert en[1] == f"Setup: Seat {number} is drawn as the starting player"
        assert es[1] == f"Preparación: Asiento {number} sale por sorteo como jugador inicial"
    else:
        assert en[1] == f"Setup: Seat {number} is the starting player (chosen by the host)"
    assert en[2].startswith(f"Setup: the draft display shows {len(state.display)} order cards: ")
    assert es[2].startswith(f"Preparación: la exposición de pedidos muestra {len(state.display)}")
    assert "factory_workers" not in starter.model_dump(mode="json")


def test_invalid_options_and_player_counts() -> None:
    import pytest

    from app.games.base import InvalidOptions

    for n in (1, 5):
        with pytest.raises(InvalidOptions, match="2 to 4 players"):
            ENGINE.validate_options(GluckaufOptions(), n)
    with pytest.raises(InvalidOptions, match="starting_player"):
        ENGINE.validate_options(GluckaufOptions(starting_player=3), 3)
    ENGINE.validate_options(GluckaufOptions(starting_player=2), 3)
    assert [ENGINE.max_length(n) for n in (2, 3, 4)] == [1734, 2169, 2508]


def test_not_your_turn_and_game_over_errors() -> None:
    import pytest

    from app.games.base import GameOver, NotYourTurn

    s = ENGINE.setup(2, 3, GluckaufOptions(starting_player=0))
    with pytest.raises(NotYourTurn):
        ENGINE.apply(s, 0, ENGINE.legal_actions(s, 1)[0])
    final, _ = play(2, 3, GluckaufOptions(), 1, checks=False)
    with pytest.raises(GameOver):
        ENGINE.apply(final, 0, StopMining())


def test_bot_plays_legal_moves_from_the_view_only() -> None:
    s = ENGINE.setup(3, 11, GluckaufOptions())
    rng = random.Random(0)
    steps = 0
    while ENGINE.result(s) is None:
        (seat,) = ENGINE.to_act(s)
        legal = ENGINE.legal_actions(s, seat)
        action = ENGINE.bot(ENGINE.view(s, seat), legal, rng, "normal")
        assert action in legal
        s, _ = ENGINE.apply(s, seat, action)
        steps += 1
    assert steps < ENGINE.max_length(3)
    assert ENGINE.bot(ENGINE.view(s, 0), [StopMining()], rng, "random") == StopMining()


def test_events_seen_per_seat_are_redacted_in_a_draw() -> None:
    s = ENGINE.setup(3, 4, GluckaufOptions(starting_player=0))
    while s.phase == "draft":
        (seat,) = ENGINE.to_act(s)
        s, _ = ENGINE.apply(s, seat, ENGINE.legal_actions(s, seat)[0])
    drawn = s.deck[:5]
    s, events = ENGINE.apply(s, 0, PlaceWorker(space="ORDER-DRAW"))
    for viewer in (1, 2, None):
        for e in events:
            if e.is_visible_to(viewer):
                assert not isinstance(e, ev.ItemsSeen)
                dumped = e.model_dump(mode="json")
                assert dumped.get("items") is None
        v = ENGINE.view(s, viewer).model_dump(mode="json")
        assert v["draw"]["drawn"] is None and v["draw"]["count"] == 5
    mine = ENGINE.view(s, 0).model_dump(mode="json")
    assert [d["id"] for d in mine["draw"]["drawn"]] == drawn


def test_describe_covers_every_action_and_event_type() -> None:
    import typing

    from app.games.gluckauf.actions import AnyAction

    all_events = {c.model_fields["type"].default for c in typing.get_args(ev.AnyEvent)}
    all_actions = {c.model_fields["type"].default for c in typing.get_args(AnyAction)}
    seen: set[str] = set()
    for game in range(12):
        n = 2 + game % 3
        s, opening = ENGINE.start(n, game, GluckaufOptions())
        for item in opening:  # the setup's own events (issue 35)
            seen.add(item.type)
            assert ENGINE.describe(item, "es") and ENGINE.describe(item, "en")
        rng = random.Random(game)
        while ENGINE.result(s) is None:
            (seat,) = ENGINE.to_act(s)
            legal = ENGINE.legal_actions(s, seat)
            action = ENGINE.bot(
                ENGINE.view(s, seat), legal, rng, "random" if game % 2 else "normal"
            )
            seen.add(action.type)
            s, events = ENGINE.apply(s, seat, action)
            for item in [action, *events]:
                seen.add(item.type)
                es, en = ENGINE.describe(item, "es"), ENGINE.describe(item, "en")
                assert es and en
    assert all_events | all_actions <= seen
