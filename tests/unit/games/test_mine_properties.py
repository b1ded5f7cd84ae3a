"""Property tests: random seeded MINE! games at every seat count, with and without the dummy and
the variant, checking the invariants of rules/mine.md §10 after every action, JSON round-trips,
purity of apply, unlisted actions, the length bound, the result, and replay."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from app.games.base import IllegalAction, NotYourTurn, Seat, parse_action
from app.games.mine import ENGINE
from app.games.mine import events as ev
from app.games.mine.actions import PlaceCard
from app.games.mine.data import (
    ALL_CARD_IDS,
    HAND_LIMIT,
    IS_EVENT,
    LOCATIONS,
    MAX_PLACED,
    N_COAL,
)
from app.games.mine.rules import MineOptions, MineState

LEGAL_LIST: TypeAdapter[list[Any]] = TypeAdapter(list[ENGINE.Action])  # type: ignore[name-defined]


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, int, MineOptions]:
    n = draw(st.integers(2, 6))
    dummy = draw(st.sampled_from(["auto", True, False] if n < 6 else ["auto", False]))
    variant = draw(st.booleans())
    first: Any = draw(st.one_of(st.just("random"), st.integers(0, n - 1)))
    seed = draw(st.integers(0, 2**64 - 1))
    return n, seed, MineOptions(dummy=dummy, variant=variant, first_player=first)


def check_invariants(state: MineState, sold: list[int], prev_scores: list[int]) -> None:
    """§10 invariants."""
    cards = list(state.draw_pile) + list(state.discard_pile) + [p.card for p in state.dummy_plan]
    for d in state.directors:
        cards += d.hand + [p.card for p in d.placed]
    assert sorted(cards) == list(ALL_CARD_IDS), "every card exactly once"
    coal = sum(d.stock for d in state.directors) + state.supply + state.box
    assert coal == N_COAL + state.coal_created
    if not state.variant:
        assert state.box == 0
    if not state.dummy:
        assert state.coal_created == 0
    n = state.n_directors
    for i, d in enumerate(state.directors):
        assert d.score == sold[i], "score = coal sold"
        assert d.score >= prev_scores[i], "scores never decrease"
        assert d.stock >= 0 and 0 <= d.score <= 30
        assert len(d.placed) <= MAX_PLACED
        for p in d.placed:
            assert p.location != "expedition"
            assert (p.location == "events") == IS_EVENT[p.card]
            assert (p.location == "shelter") == (p.victim is not None)
            assert p.victim is None or (p.victim != i and 0 <= p.victim < n)
        if d.is_dummy:
            assert not any(IS_EVENT[c] for c in d.hand), "the dummy never holds events"
    if state.phase == "placement":
        assert state.revealed_step == 0
        for d in state.directors:
            assert len(d.hand) + len(d.placed) <= HAND_LIMIT + (MAX_PLACED if d.is_dummy else 0)
        assert all(len(d.hand) <= HAND_LIMIT for d in state.directors)
    view = ENGINE.view(state, None)
    for dv in view.directors:
        held = set(dv.colour_cards) | {s.victim for s in dv.stacks}
        assert held == set(range(n)) - {dv.director}, "one colour card per opponent"
        assert len(dv.colour_cards) + len(dv.stacks) == n - 1
        if state.phase == "placement" and not dv.placed:
            assert len(dv.colour_cards) == n - 1
    acting = ENGINE.to_act(state)
    if state.phase == "over":
        assert not acting and ENGINE.result(state) is not None
    else:
        assert len(acting) == 1 and ENGINE.result(state) is None
        (seat,) = acting
        assert state.directors[seat].seat == seat
        if state.phase == "discard":
            assert len(state.directors[seat].hand) > HAND_LIMIT


def random_unlisted(state: MineState, seat: Seat, rng: random.Random) -> PlaceCard:
    return PlaceCard(
        card=rng.randint(0, 72),
        location=rng.choice(LOCATIONS),
        victim=rng.choice([None, *range(-1, state.n_directors + 1)]),
    )


def play_checked(n: int, seed: int, options: MineOptions) -> None:
    state = ENGINE.setup(n, seed, options)
    assert state.model_dump_json() == ENGINE.setup(n, seed, options).model_dump_json()
    rng = random.Random(seed)
    log: list[tuple[int, Any]] = []
    sold = [0] * state.n_directors
    scores = [0] * state.n_directors
    check_invariants(state, sold, scores)
    while ENGINE.result(state) is None:
        assert len(log) <= ENGINE.max_length(n)
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        assert legal, "a seat to act always has a legal action"
        for other in range(n):
            if other != seat:
                assert ENGINE.legal_actions(state, other) == []
        assert LEGAL_LIST.validate_json(LEGAL_LIST.dump_json(legal)) == legal
        before = state.model_dump_json()
        for action in rng.sample(legal, min(2, len(legal))):
            ENGINE.apply(state, seat, parse_action(ENGINE, action.model_dump(mode="json")))
        bad = random_unlisted(state, seat, rng)
        if bad not in legal:
            with pytest.raises(IllegalAction):
                ENGINE.apply(state, seat, bad)
        with pytest.raises(NotYourTurn):
            ENGINE.apply(state, (seat + 1) % n, legal[0])
        action = legal[rng.randrange(len(legal))]
        nxt, events = ENGINE.apply(state, seat, action)
        assert state.model_dump_json() == before, "apply never mutates its input"
        for e in events:
            if isinstance(e, ev.CoalSold):
                sold[e.director] += e.sold
        scores = [d.score for d in state.directors]
        state = nxt
        check_invariants(state, sold, scores)
        dumped = state.model_dump(mode="json")
        assert MineState.model_validate(dumped).model_dump(mode="json") == dumped
        log.append((seat, action))
    res = ENGINE.result(state)
    assert res is not None and state.final is not None
    assert sorted(res.ranking) == list(range(n)) and set(res.scores) == set(range(n))
    assert res.scores == {s: state.directors[s].score for s in range(n)}
    order = state.final.order
    assert sorted(order) == list(range(state.n_directors))
    keys = [
        (
            state.directors[d].score,
            state.directors[d].stock,
            sum(1 for c in state.directors[d].hand if not IS_EVENT[c]),
        )
        for d in order
    ]
    assert keys == sorted(keys, reverse=True), "ranking follows the keys of §6"
    assert state.final.reason == "score_21" or state.round == 6
    if state.final.reason == "score_21":
        assert max(d.score for d in state.directors) >= 21
    else:
        assert max(d.score for d in state.directors) < 21
    assert ("dummy" in res.details) == state.dummy
    # Replay from seed + options + log equals the final state.
    replay = ENGINE.setup(n, seed, options)
    for seat, action in log:
        replay, _ = ENGINE.apply(replay, seat, action)
    assert replay.model_dump_json() == state.model_dump_json()


# Under HYPOTHESIS_PROFILE=long this plays 2000 games: allow more than the 300 s default.
@pytest.mark.timeout(1800)
@given(tables())
def test_random_games_keep_every_invariant(table: tuple[int, int, MineOptions]) -> None:
    play_checked(*table)


# Under HYPOTHESIS_PROFILE=long this plays 2000 games: allow more than the 300 s default.
@pytest.mark.timeout(1800)
@given(st.integers(2, 6), st.booleans(), st.integers(0, 2**32))
def test_dummy_and_variant_at_every_seat_count(n: int, variant: bool, seed: int) -> None:
    dummy = n < 6
    play_checked(n, seed, MineOptions(dummy=dummy, variant=variant))
