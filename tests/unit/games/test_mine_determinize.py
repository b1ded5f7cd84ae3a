"""MINE!'s determinize (issue 21): a state its seat's view allows, dealt from what is unseen.

Consistency: at many points of random games, for every seat, the determinized state shows the
seat the very view it was made from (``view`` and ``view_json``), keeps every card once, and
plays on to the end. Coverage: from fixed positions, every unseen card turns up in every
hidden place that may hold it, and nothing seen moves. It is deterministic for an rng and
reads nothing but the view.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from app.games.base import Seat
from app.games.mine import ENGINE
from app.games.mine.data import ALL_CARD_IDS, ATK, DEF, EXT, IS_EVENT, REC, starting_hand
from app.games.mine.determinize import determinize
from app.games.mine.rules import MineOptions, MineState
from app.games.mine.view import MineView


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, int, MineOptions]:
    n = draw(st.integers(2, 6))
    dummy = draw(st.sampled_from(["auto", True, False] if n < 6 else ["auto", False]))
    variant = draw(st.booleans())
    seed = draw(st.integers(0, 2**64 - 1))
    return n, seed, MineOptions(dummy=dummy, variant=variant)


def _random_move(state: MineState, rng: random.Random) -> MineState:
    (seat,) = ENGINE.to_act(state)
    legal = ENGINE.legal_actions(state, seat)
    return ENGINE.apply(state, seat, legal[rng.randrange(len(legal))]).state


def _positions(n: int, seed: int, options: MineOptions, every: int) -> list[MineState]:
    """Every ``every``-th position of a random game, its first and its last."""
    rng = random.Random(seed)
    state = ENGINE.setup(n, seed, options)
    out = [state]
    count = 0
    while ENGINE.result(state) is None:
        state = _random_move(state, rng)
        count += 1
        if count % every == 0:
            out.append(state)
    out.append(state)
    return out


def _cards(state: MineState) -> list[int]:
    cards = [*state.draw_pile, *state.discard_pile, *(p.card for p in state.dummy_plan)]
    for d in state.directors:
        cards += d.hand + [p.card for p in d.placed]
    return sorted(cards)


def _check_consistent(state: MineState, seat: Seat, rng: random.Random) -> MineState:
    view = ENGINE.view(state, seat)
    made = determinize(view, seat, rng)
    assert ENGINE.view(made, seat) == view
    assert ENGINE.view_json(made, seat, {}) == view.model_dump(mode="json")
    assert _cards(made) == list(ALL_CARD_IDS), "every card exactly once"
    for d in made.directors:
        assert d.hand == sorted(d.hand)
        for p in d.placed:
            assert (p.location == "events") == IS_EVENT[p.card]
        if d.is_dummy:
            assert not any(IS_EVENT[c] for c in d.hand), "the dummy never holds events"
    assert not any(IS_EVENT[p.card] for p in made.dummy_plan)
    assert sorted(made.die_pile) == sorted(state.die_pile)
    assert ENGINE.to_act(made) == ENGINE.to_act(state)
    assert ENGINE.legal_actions(made, seat) == ENGINE.legal_actions(state, seat)
    return made


@given(tables(), st.integers(0, 2**32))
def test_a_determinized_state_shows_its_seat_the_same_view_and_plays_on(
    table: tuple[int, int, MineOptions], sampling: int
) -> None:
    n, seed, options = table
    rng = random.Random(sampling)
    positions = _positions(n, seed, options, every=9)
    for i, state in enumerate(positions):
        for seat in range(n):
            made = _check_consistent(state, seat, rng)
            if i % 4 == seat % 4:
                # The world it deals is a game like any other: random moves play it out.
                while ENGINE.result(made) is None:
                    made = _random_move(made, rng)
                    assert _cards(made) == list(ALL_CARD_IDS)


# --------------------------------------------------------------------------- coverage


def _position(n: int, seed: int, options: MineOptions, stop: Any) -> MineState:
    """The first position of a seeded random game where ``stop(state)`` holds."""
    rng = random.Random(seed)
    state = ENGINE.setup(n, seed, options)
    while not stop(state):
        if ENGINE.result(state) is not None:
            raise AssertionError("the game ended before the position was reached")
        state = _random_move(state, rng)
    return state


def _places(state: MineState, seat: Seat) -> dict[int, set[tuple[Any, ...]]]:
    """Where each card lies, as places the seat could tell apart."""
    out: dict[int, set[tuple[Any, ...]]] = defaultdict(set)
    for c in state.draw_pile:
        out[c].add(("draw",))
    for d, director in enumerate(state.directors):
        for c in director.hand:
            out[c].add(("hand", d))
        for i, p in enumerate(director.placed):
            # The dummy's cards of the round are dealt as a set, then laid out by its rule.
            hidden = director.is_dummy and state.phase == "placement"
            out[p.card].add(("dummy_round",) if hidden else ("placed", d, i))
    for c in state.discard_pile:
        out[c].add(("discard",))
    for p in state.dummy_plan:
        out[p.card].add(("dummy_round",))
    return out


def _seen(view: MineView) -> set[int]:
    seen = set(view.hand or []) | set(view.discard_pile)
    for dv in view.directors:
        seen |= {p.card for p in dv.placed if p.card is not None}
    return seen


def _hidden_places(view: MineView, seat: Seat) -> dict[tuple[Any, ...], str]:
    """Every hidden place of the view and the cards it may hold: "event", "profession" or
    "any"."""
    out: dict[tuple[Any, ...], str] = {("draw",): "any"}
    for dv in view.directors:
        if dv.director == seat:
            continue
        if dv.hand_size:
            out[("hand", dv.director)] = "profession" if dv.is_dummy else "any"
        for i, p in enumerate(dv.placed):
            if p.card is None:
                if dv.is_dummy and view.phase == "placement":
                    out[("dummy_round",)] = "profession"
                else:
                    kind = "event" if p.location == "events" else "profession"
                    out[("placed", dv.director, i)] = kind
        if dv.pending_cards:
            out[("dummy_round",)] = "profession"
    return out


def _coverage(state: MineState, seat: Seat, samples: int) -> None:
    view = ENGINE.view(state, seat)
    seen = _seen(view)
    truth = _places(state, seat)
    rng = random.Random(7)
    found: dict[int, set[tuple[Any, ...]]] = defaultdict(set)
    for _ in range(samples):
        made = determinize(view, seat, rng)
        for card, where in _places(made, seat).items():
            if card in seen:
                assert where == truth[card], f"card {card} was seen and moved"
            found[card] |= where
    hidden = _hidden_places(view, seat)
    for card in ALL_CARD_IDS:
        if card in seen:
            continue
        for place, kind in hidden.items():
            fits = kind == "any" or (kind == "event") == IS_EVENT[card]
            if fits:
                assert place in found[card], f"card {card} never dealt to {place}"
            else:
                assert place not in found[card], f"card {card} dealt to {place}"


def test_every_unseen_card_turns_up_in_every_place_that_may_hold_it() -> None:
    # Three seats, round 3, a few cards placed face down; the draw pile has been drawn from.
    state = _position(
        3,
        11,
        MineOptions(),
        lambda s: s.round == 3 and s.phase == "placement" and sum(map(len, _placed(s))) >= 4,
    )
    for seat in range(3):
        _coverage(state, seat, samples=3000)


def test_coverage_with_the_dummy_and_the_variant() -> None:
    state = _position(
        2,
        5,
        MineOptions(dummy=True, variant=True),
        lambda s: s.round == 2 and s.phase == "placement" and sum(map(len, _placed(s))) >= 3,
    )
    for seat in range(2):
        _coverage(state, seat, samples=3000)
        view = ENGINE.view(state, seat)
        rng = random.Random(3)
        orders = {tuple(determinize(view, seat, rng).die_pile) for _ in range(300)}
        assert len(orders) > 20, "the die-card pile is shuffled"


def _placed(state: MineState) -> list[list[int]]:
    return [[p.card for p in d.placed] for d in state.directors]


def test_round_one_hands_are_the_starting_hands() -> None:
    # Before round 1's recruitment every hand is its fixed starting hand (§4.5).
    state = _position(3, 2, MineOptions(dummy=True), lambda s: sum(map(len, _placed(s))) >= 3)
    assert state.round == 1
    view = ENGINE.view(state, 0)
    rng = random.Random(1)
    boards: set[tuple[int, ...]] = set()
    for _ in range(200):
        made = determinize(view, 0, rng)
        for d, director in enumerate(made.directors):
            cards = [*director.hand, *(p.card for p in director.placed)]
            if director.is_dummy:
                cards += [p.card for p in made.dummy_plan]
            assert sorted(cards) == starting_hand(d)
        assert sorted(made.draw_pile) == sorted(
            c for c in ALL_CARD_IDS if not any(c in starting_hand(d) for d in range(4))
        )
        boards.add(tuple(p.card for d in made.directors[1:] for p in d.placed))
    assert len(boards) > 10, "which starting cards were placed face down is dealt at random"


def test_the_dummys_cards_follow_its_rule() -> None:
    # Mid-round, the dummy has placed some of its four cards: whatever the deal, its
    # watchtower card is the best defender of the four, its raider the best attacker of the
    # rest, its recruiter the best recruiter of what is left (§7.3).
    # Both seats have coal and the dummy has not shown its raid yet.
    state = _position(
        2,
        1,
        MineOptions(),
        lambda s: (
            s.round == 2
            and s.phase == "placement"
            and bool(s.directors[2].placed)
            and bool(s.dummy_plan)
        ),
    )
    view = ENGINE.view(state, 0)
    rng = random.Random(5)
    victims = set()
    for _ in range(300):
        made = determinize(view, 0, rng)
        dummy = made.directors[2]
        plan = [*dummy.placed, *made.dummy_plan]
        assert [p.location for p in plan] == [
            p.location for p in [*state.directors[2].placed, *state.dummy_plan]
        ]
        left = [p.card for p in plan]
        for p in plan:
            if p.location == "mine":
                break
            values = {"watchtower": DEF, "shelter": ATK, "recruitment": REC}[p.location]
            best = min(left, key=lambda k: (-values[k], EXT[k], k))
            assert p.card == best
            left.remove(p.card)
        victims |= {p.victim for p in made.dummy_plan if p.location == "shelter"}
    assert not any(p.location == "shelter" for p in state.directors[2].placed)
    assert all(d.stock for d in state.directors[:2])
    assert victims == {0, 1}, "a victim not yet shown is drawn among those with coal (R5)"


def test_a_card_a_director_chose_for_a_location_leans_to_its_value_there() -> None:
    # Round 3, another director's face-down professions on the board: each is dealt leaning
    # to what its location uses (ATK in the shelter, DEF on the watchtower...), as a director
    # chooses; hands and the draw pile stay uniform, and any card may still be anywhere.
    def placed_face_down(s: MineState) -> bool:
        return (
            s.round == 3
            and s.phase == "placement"
            and {"shelter", "watchtower", "mine"}
            <= {p.location for d in s.directors[1:] if not d.is_dummy for p in d.placed}
        )

    state = _position(3, 1, MineOptions(), placed_face_down)
    view = ENGINE.view(state, 0)
    unseen = [c for c in ALL_CARD_IDS if c not in _seen(view) and not IS_EVENT[c]]
    value_of = {"shelter": ATK, "watchtower": DEF, "mine": EXT, "recruitment": REC}
    dealt: dict[str, list[int]] = defaultdict(list)
    hands: list[int] = []
    rng = random.Random(3)
    for _ in range(2000):
        made = determinize(view, 0, rng)
        for d, director in enumerate(made.directors):
            if d == 0 or director.is_dummy:
                continue
            hands += [c for c in director.hand if not IS_EVENT[c]]
            for p in director.placed:
                if p.location in value_of:
                    dealt[p.location].append(p.card)

    def mean(values: Any, cards: list[int]) -> float:
        return sum(values[c] for c in cards) / len(cards)

    for location, cards in dealt.items():
        values = value_of[location]
        # Against the unseen professions dealt uniformly: clearly more of that value.
        assert mean(values, cards) > mean(values, unseen) + 0.15, location
    # The hands hold what the choices left: less attack than the unseen average.
    assert mean(ATK, hands) < mean(ATK, unseen)
    # Every unseen profession still turns up in the shelter.
    assert set(dealt["shelter"]) == set(unseen)


# --------------------------------------------------------------------------- purity


def test_it_is_deterministic_for_an_rng_and_reads_only_the_view() -> None:
    state = _position(
        4, 8, MineOptions(), lambda s: s.round == 2 and sum(map(len, _placed(s))) >= 5
    )
    view = ENGINE.view(state, 1)
    a = determinize(view, 1, random.Random(42))
    b = determinize(view, 1, random.Random(42))
    assert a.model_dump() == b.model_dump()
    assert determinize(view, 1, random.Random(43)).model_dump() != a.model_dump()
    # A view rebuilt from its JSON, as a client holds it, gives the same world.
    again = MineView.model_validate(view.model_dump(mode="json"))
    assert determinize(again, 1, random.Random(42)).model_dump() == a.model_dump()
    # Another real state with the same view for seat 1 (seat 0's hand traded with the draw
    # pile) gives the same world: nothing but the view is read.
    other = state.model_copy(deep=True)
    hand = other.directors[0].hand
    swap = min(len(hand), len(other.draw_pile))
    hand[:swap], other.draw_pile[:swap] = other.draw_pile[:swap], hand[:swap]
    hand.sort()
    assert ENGINE.view(other, 1) == view
    assert determinize(ENGINE.view(other, 1), 1, random.Random(42)).model_dump() == a.model_dump()
    assert view == ENGINE.view(state, 1), "the view is left as it was"
