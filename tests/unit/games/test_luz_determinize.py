"""Luz ``determinize``: a complete state dealt from what one seat's view leaves unseen.

- consistency: at many points of random games (every player count and option), for every
  seat, the dealt state shows that seat exactly the view it was dealt from (as models and as
  the wire's JSON), keeps every invariant of a real game, and plays on to the end;
- coverage: from fixed positions, over many deals, every unseen card turns up in every
  place it could be (each own slot, as often as the exact odds say, and the undealt
  stock) and nothing the seat sees ever moves;
- purity: the same rng gives the same state, and two real states with the same view give
  the same deals (it reads nothing but the view).
"""

from __future__ import annotations

import importlib
import random
import sys
from collections import Counter, defaultdict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.games.luz import ENGINE
from app.games.luz.bot import read, slot_distributions
from app.games.luz.data import deck
from app.games.luz.determinize import determinize
from app.games.luz.rules import LuzOptions, LuzState
from app.games.luz.view import LuzView
from tests.unit.games.test_luz_properties import check_invariants, tables


def _random_step(state: LuzState, rng: random.Random) -> LuzState:
    seat = rng.choice(sorted(ENGINE.to_act(state)))
    action = rng.choice(ENGINE.legal_actions(state, seat))
    new: LuzState = ENGINE.apply(state, seat, action).state
    return new


def _play_out(state: LuzState, rng: random.Random) -> None:
    limit = ENGINE.max_length(state.n_players)
    steps = 0
    while ENGINE.result(state) is None:
        state = _random_step(state, rng)
        steps += 1
        assert steps <= limit
    check_invariants(state)


def _check(state: LuzState, seat: int, rng: random.Random) -> LuzState:
    seen = ENGINE.view(state, seat)
    dealt = determinize(seen, seat, rng)
    assert ENGINE.view(dealt, seat) == seen
    assert ENGINE.view_json(dealt, seat, {}) == seen.model_dump(mode="json")
    check_invariants(dealt)
    # A real state's JSON round trip: every field is of its model's type.
    dumped = dealt.model_dump_json()
    assert LuzState.model_validate_json(dumped).model_dump_json() == dumped
    return dealt


@pytest.mark.parametrize("n", [3, 4, 5])
@given(data=st.data())
def test_a_dealt_state_shows_the_seat_its_view_and_plays_on(n: int, data: st.DataObject) -> None:
    n, seed, options = data.draw(tables(n))
    rng = random.Random(seed)
    every = data.draw(st.integers(min_value=5, max_value=20), label="check every k actions")
    state = ENGINE.setup(n, seed, options)
    step = checks = 0
    played_on = False
    while True:
        if step % every == 0 or ENGINE.result(state) is not None:
            # Two seats a point, in turn: every seat at many points, in a few seconds.
            for seat in (checks % n, (checks + 1) % n):
                dealt = _check(state, seat, rng)
                if not played_on and state.phase == "playing" and state.deal == 2:
                    _play_out(dealt, rng)
                    played_on = True
            checks += 2
        if ENGINE.result(state) is not None:
            break
        state = _random_step(state, rng)
        step += 1


def _position(n: int, seed: int, actions: int, **options: object) -> LuzState:
    state = ENGINE.setup(n, seed, LuzOptions.model_validate(options))
    rng = random.Random(seed)
    for _ in range(actions):
        state = _random_step(state, rng)
    return state


def _unseen(view: LuzView) -> set[str]:
    shown = {s.card for p in view.players for s in p.hand.slots if s.card is not None}
    shown |= {p.card for t in [*view.completed_tricks, view.current_trick] for p in t.plays}
    return set(deck(view.n_players)) - shown


@pytest.mark.parametrize(
    ("n", "seed", "actions"),
    [(3, 1, 3), (4, 7, 4 + 4 * 3 + 2), (5, 11, 5 + 5 * 6 + 1)],
)
def test_every_unseen_card_turns_up_wherever_the_view_allows_at_the_exact_odds(
    n: int, seed: int, actions: int
) -> None:
    state = _position(n, seed, actions)
    seat = 1
    seen = ENGINE.view(state, seat)
    unseen = _unseen(seen)
    # The exact odds of each own slot's card, as the normal bot works them out.
    odds = {
        slot: {f"{read(seen).own[slot]}{v}": p for v, p in dist}
        for slot, dist in slot_distributions(read(seen)).items()
    }
    rng = random.Random(0)
    samples = 3000
    in_slot: dict[int, Counter[str]] = defaultdict(Counter)
    undealt: Counter[str] = Counter()
    for _ in range(samples):
        dealt = determinize(seen, seat, rng)
        for other in range(n):
            if other != seat:
                assert dealt.hands[other] == state.hands[other]
        assert dealt.trick == state.trick and dealt.tricks == state.tricks
        for slot, card in enumerate(dealt.hands[seat]):
            if card is not None:
                in_slot[slot][card] += 1
        undealt.update(dealt.undealt)
        assert set(dealt.undealt) | {c for c in dealt.hands[seat] if c} == unseen
    assert set(undealt) == unseen
    assert set(in_slot) == set(odds)
    for slot, chances in odds.items():
        assert set(in_slot[slot]) == set(chances), f"slot {slot} misses a card it could hold"
        for card, p in chances.items():
            assert abs(in_slot[slot][card] / samples - p) < 0.04, (slot, card, p)


def test_with_strict_memory_the_hidden_tricks_take_unseen_cards_and_fit_the_counters() -> None:
    state = _position(4, 5, 4 + 4 * 6 + 1, strict_memory=True)
    seat = 2
    seen = ENGINE.view(state, seat)
    assert seen.hidden_tricks == 5
    unseen = _unseen(seen)
    rng = random.Random(0)
    undealt: set[str] = set()
    elsewhere: set[str] = set()
    for _ in range(300):
        dealt = determinize(seen, seat, rng)
        assert ENGINE.view(dealt, seat) == seen
        check_invariants(dealt)  # winners, leaders and counters agree, cards conserved
        hidden = {p.card for t in dealt.tricks[:-1] for p in t.plays}
        assert hidden <= unseen
        assert dealt.tricks[-1] == state.tricks[-1]
        undealt |= set(dealt.undealt)
        elsewhere |= hidden | {c for c in dealt.hands[seat] if c}
    assert undealt == unseen
    # Deals differ: the hidden tricks are not one fixed guess.
    assert len(elsewhere) > len(unseen) // 2


def test_the_same_rng_deals_the_same_state_from_the_view_alone() -> None:
    state = _position(4, 3, 4 + 4 * 2 + 1)
    seat = 0
    seen = ENGINE.view(state, seat)
    a = determinize(seen, seat, random.Random(42))
    b = determinize(seen, seat, random.Random(42))
    assert a.model_dump_json() == b.model_dump_json()
    # Another real state with the same view (the seat's own hand dealt otherwise): the view
    # is all determinize reads, so it deals the same.
    other = determinize(seen, seat, random.Random(7))
    assert other.hands[seat] != state.hands[seat] or other.undealt != state.undealt
    assert ENGINE.view(other, seat) == seen
    c = determinize(ENGINE.view(other, seat), seat, random.Random(42))
    assert c.model_dump_json() == a.model_dump_json()
    # ... and so does the view as the wire carries it, read back.
    wire = LuzView.model_validate(ENGINE.view_json(state, seat, {}))
    assert determinize(wire, seat, random.Random(42)).model_dump_json() == a.model_dump_json()


def test_a_view_of_another_seat_is_refused() -> None:
    state = _position(3, 1, 2)
    with pytest.raises(ValueError, match="own view"):
        determinize(ENGINE.view(state, 1), 0, random.Random(0))
    with pytest.raises(ValueError, match="own view"):
        determinize(ENGINE.view(state, None), 0, random.Random(0))


def test_when_no_order_of_the_hidden_tricks_is_found_the_view_still_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The last resort (never needed in testing): the hidden cards in slot order.
    monkeypatch.setattr(sys.modules["app.games.luz.determinize"], "_arrange", lambda *a: None)
    state = _position(3, 2, 3 + 3 * 5 + 2, strict_memory=True)
    for seat in range(3):
        seen = ENGINE.view(state, seat)
        dealt = determinize(seen, seat, random.Random(seat))
        assert ENGINE.view(dealt, seat) == seen
        _play_out(dealt, random.Random(seat))


def test_a_hidden_trick_that_few_deals_fit_is_still_dealt_to_add_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The long property run found a strict-memory position where about 1 deal in 40 fits:
    the one hidden trick must be won by seat 0's green 7 against a yellow trump. With 500
    tries, 2 worlds in 2,000 fell back to tricks whose winners do not add up."""
    options = LuzOptions(
        first_player=0,
        trump="yellow",
        safety_miss_from="bet",
        first_player_rotation="left",
        manual_sort_direction=True,
        strict_memory=True,
    )
    seed, every = 7_232_305_284, 12
    # The walk of the run that found it (its determinize calls draw from the same rng).
    module = importlib.import_module("app.games.luz.determinize")
    monkeypatch.setattr(module, "_DEALS_TRIED", 500)
    rng = random.Random(seed)
    state = ENGINE.setup(3, seed, options)
    step = checks = 0
    played_on = False
    found: list[tuple[LuzView, int]] = []
    while not found and ENGINE.result(state) is None:
        if step % every == 0:
            for seat in (checks % 3, (checks + 1) % 3):
                seen = ENGINE.view(state, seat)
                if [p.tricks_won for p in seen.players] == [2, 0, 0] and seen.trick_no == 3:
                    found.append((seen, seat))
                dealt = determinize(seen, seat, rng)
                if not played_on and state.phase == "playing" and state.deal == 2:
                    _play_out(dealt, rng)
                    played_on = True
            checks += 2
        state = _random_step(state, rng)
        step += 1
    assert found
    monkeypatch.undo()
    for seen, seat in found:
        # Seed 1877 is one of the two that fell back; the others are a sample.
        for k in (1877, *range(100)):
            dealt = determinize(seen, seat, random.Random(k))
            assert ENGINE.view(dealt, seat) == seen
            check_invariants(dealt)
