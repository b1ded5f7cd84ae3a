"""Glück Auf's determinize (issue 21): a whole table dealt from what one seat sees.

Consistency: at many points of random games (every player count, both settings of
``delivered_visible``, every phase), for every seat, the dealt state shows that seat exactly
its view (as a model and on the wire), keeps every component once, and plays on to the end.
Coverage: from fixed positions, over many deals, every unseen tile and card turns up in every
place it could be, and nothing seen moves. It is a function of the view and the rng only.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.gluckauf import ENGINE
from app.games.gluckauf.determinize import determinize
from app.games.gluckauf.rules import GluckaufOptions, GluckaufState
from app.games.gluckauf.view import view, view_json
from tests.unit.games.test_gluckauf_properties import check_invariants

#: Phases where something is only half seen: each is checked wherever it comes up.
_DRAW_PHASES = frozenset({"keep", "choose_end", "return", "choose_coal", "two_for_one"})


def _random_game(n: int, seed: int, visible: bool, moves: int) -> GluckaufState:
    """The table after ``moves`` uniform legal moves (or at its end) from a seeded setup."""
    s = ENGINE.setup(n, seed, GluckaufOptions(delivered_visible=visible))
    assert isinstance(s, GluckaufState)
    rng = random.Random(seed)
    for _ in range(moves):
        if ENGINE.result(s) is not None:
            break
        (seat,) = ENGINE.to_act(s)
        legal = ENGINE.legal_actions(s, seat)
        s = ENGINE.apply(s, seat, rng.choice(legal)).state
    return s


def _play_out(s: GluckaufState, rng: random.Random) -> GluckaufState:
    """Uniform legal moves to the end, every component kept at every step."""
    for _ in range(ENGINE.max_length(s.n_players)):
        if ENGINE.result(s) is not None:
            return s
        (seat,) = ENGINE.to_act(s)
        s = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat))).state
        check_invariants(s)
    raise AssertionError("the dealt game did not end within max_length")


def _check_deal(s: GluckaufState, seat: int, rng: random.Random) -> GluckaufState:
    seen = view(s, seat)
    dealt = determinize(seen, seat, rng)
    assert view(dealt, seat) == seen
    assert view_json(dealt, seat, {}) == seen.model_dump(mode="json")
    check_invariants(dealt)
    assert ENGINE.legal_actions(dealt, seat) == ENGINE.legal_actions(s, seat)
    # A dealt state is a state like any other: it goes through JSON and back unchanged.
    again = GluckaufState.model_validate(dealt.model_dump(mode="json"))
    assert again.model_dump_json() == dealt.model_dump_json()
    return dealt


games = st.tuples(
    st.sampled_from([2, 3, 4]),
    st.integers(min_value=0, max_value=2**64 - 1),
    st.booleans(),
    st.integers(min_value=0, max_value=2**32),
)


@settings(max_examples=max(4, settings.default.max_examples // 3))
@given(games)
def test_a_dealt_state_shows_each_seat_its_own_view_and_plays_on(
    params: tuple[int, int, bool, int],
) -> None:
    n, seed, visible, deal_seed = params
    s = ENGINE.setup(n, seed, GluckaufOptions(delivered_visible=visible))
    assert isinstance(s, GluckaufState)
    moves = random.Random(seed)
    deals = random.Random(deal_seed)
    play_on_at = deals.randrange(300)  # one dealt state of the game is played to its end
    step = 0
    while True:
        if step % 23 == 0 or s.phase in _DRAW_PHASES or ENGINE.result(s) is not None:
            for seat in range(n):
                dealt = _check_deal(s, seat, deals)
                if step >= play_on_at and ENGINE.result(dealt) is None:
                    _play_out(dealt, deals)
                    play_on_at = 10**9
        if ENGINE.result(s) is not None:
            break
        (seat,) = ENGINE.to_act(s)
        s = ENGINE.apply(s, seat, moves.choice(ENGINE.legal_actions(s, seat))).state
        step += 1


# --------------------------------------------------------------------------- coverage


def _position(
    n: int, visible: bool, wanted: str, other: bool, kind: str | None = None
) -> tuple[GluckaufState, int]:
    """The first table of a seeded random game in phase ``wanted`` (any phase: "any"; with a
    draw-5 of ``kind`` pending, if given), after the first shift, and a seat that sees it:
    not the active one when ``other``."""
    for seed in range(200):
        s = ENGINE.setup(n, seed, GluckaufOptions(delivered_visible=visible))
        assert isinstance(s, GluckaufState)
        rng = random.Random(seed)
        while ENGINE.result(s) is None:
            ready = s.shift >= 2 and any(p.delivered for p in s.players[1:])
            order_draw = s.draw is not None and s.draw.kind == "order"
            if (
                ready
                and (s.phase == wanted or wanted == "any")
                and (wanted != "keep" or order_draw)
            ):
                return s, (s.active + 1) % n if other else s.active
            (actor,) = ENGINE.to_act(s)
            s = ENGINE.apply(s, actor, rng.choice(ENGINE.legal_actions(s, actor))).state
    raise AssertionError(f"no seeded game reached {wanted}")


def _places(s: GluckaufState, seat: int) -> dict[str, set[int]]:
    """Where each tile ("t") and card ("o") is, by place name (ids per place)."""
    out: dict[str, set[int]] = defaultdict(set)
    out["t:stack"].update(s.stack)
    out["o:deck"].update(s.deck)
    for i, p in enumerate(s.players):
        out[f"o:delivered{i}"].update(p.delivered)
    if s.draw is not None:
        kind = "t" if s.draw.kind == "tile" else "o"
        out[f"{kind}:drawn"].update(x for x in s.draw.drawn if x != s.draw.kept)
    return out


def _coverage(s: GluckaufState, seat: int, samples: int) -> None:
    seen = view(s, seat)
    real = _places(s, seat)
    hidden = {
        place
        for place in real
        if place in ("t:stack", "o:deck")
        or (place.startswith("o:delivered") and seen.players[int(place[-1])].delivered is None)
        or (place.endswith("drawn") and (seen.draw is None or seen.draw.drawn is None))
    }
    # The unseen items of each kind: everything in a hidden place of the real table.
    unseen = {kind: set().union(*(real[p] for p in hidden if p[0] == kind)) for kind in "to"}
    found: dict[str, Counter[int]] = defaultdict(Counter)
    rng = random.Random(1)
    for _ in range(samples):
        dealt = determinize(seen, seat, rng)
        assert view(dealt, seat) == seen
        places = _places(dealt, seat)
        for place, items in places.items():
            if place in hidden:
                assert items <= unseen[place[0]]
                assert len(items) == len(real[place])
                found[place].update(items)
            else:  # seen: exactly where it is on the real table
                assert items == real[place]
    for place in hidden:
        if real[place]:
            assert set(found[place]) == unseen[place[0]], place


def test_every_unseen_card_and_tile_is_dealt_to_every_hidden_place() -> None:
    # Another seat is choosing which drawn order card to keep; delivered piles are secret.
    s, seat = _position(3, False, "keep", other=True, kind="order")
    _coverage(s, seat, 1500)
    s, seat = _position(2, False, "keep", other=True, kind="tile")
    _coverage(s, seat, 1500)


def test_the_draw_5_is_seen_by_its_own_seat_and_stays_put() -> None:
    s, seat = _position(3, False, "keep", other=False, kind="order")
    dealt = determinize(view(s, seat), seat, random.Random(0))
    assert dealt.draw is not None and s.draw is not None
    assert dealt.draw.drawn == s.draw.drawn
    _coverage(s, seat, 600)


def test_public_delivered_piles_are_never_dealt() -> None:
    s, seat = _position(4, True, "any", other=True)
    for k in range(50):
        dealt = determinize(view(s, seat), seat, random.Random(k))
        assert [p.delivered for p in dealt.players] == [p.delivered for p in s.players]
    _coverage(s, seat, 600)


def test_a_half_returned_draw_deals_the_returned_items_among_the_unkept() -> None:
    s, seat = _position(2, False, "return", other=True)
    assert s.draw is not None
    for k in range(200):
        dealt = determinize(view(s, seat), seat, random.Random(k))
        d = dealt.draw
        assert d is not None and len(d.drawn) == len(s.draw.drawn)
        assert d.kept == s.draw.kept and len(d.placed) == len(s.draw.placed)
        assert set(d.placed) <= set(d.drawn) - {d.kept}
        _play_out(dealt, random.Random(k))


# --------------------------------------------------------------------------- purity


def test_the_same_rng_deals_the_same_table() -> None:
    s = _random_game(3, 5, False, 400)
    seen = view(s, 1)
    a = determinize(seen, 1, random.Random(42)).model_dump_json()
    b = determinize(seen, 1, random.Random(42)).model_dump_json()
    c = determinize(seen, 1, random.Random(43)).model_dump_json()
    assert a == b and a != c


def test_it_never_reads_the_real_table() -> None:
    """Two tables that differ only in what a seat cannot see deal alike for that seat."""
    s, seat = _position(3, False, "any", other=True)
    others = [p for i, p in enumerate(s.players) if i != seat]
    assert any(p.delivered for p in others)
    other = s.model_copy(deep=True)
    other.stack.reverse()
    # The deck and the other seats' delivered piles dealt anew, each pile as large as it was.
    piles = [other.deck, *(p.delivered for i, p in enumerate(other.players) if i != seat)]
    pool = [card for pile in piles for card in pile]
    random.Random(9).shuffle(pool)
    for pile in piles:
        pile[:] = pool[: len(pile)]
        del pool[: len(pile)]
    assert other.model_dump_json() != s.model_dump_json()
    assert view(other, seat) == view(s, seat)
    dealt = determinize(view(s, seat), seat, random.Random(3))
    again = determinize(view(other, seat), seat, random.Random(3))
    assert dealt.model_dump_json() == again.model_dump_json()


def test_a_view_of_another_seat_is_refused() -> None:
    import pytest

    s = _random_game(2, 1, False, 10)
    with pytest.raises(ValueError, match="seat 0"):
        determinize(view(s, 0), 1, random.Random(0))
