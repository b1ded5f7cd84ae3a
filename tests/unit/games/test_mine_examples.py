"""Every worked example of rules/mine-examples.md, each as its own test.

States are built directly by the named builders below (no long move lists); resolution is
triggered through the engine by the last seat passing, and the numbers are read from the
state and from the (public) events.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from app.games.base import Event, IllegalAction, Rng
from app.games.mine import ENGINE, rules
from app.games.mine import events as ev
from app.games.mine.actions import DiscardCard, PassTurn, PlaceCard
from app.games.mine.data import ALL_CARD_IDS, N_COAL
from app.games.mine.rules import Director, MineState, Placement

# Card ids by type (rules §2.5, §2.6).
M = list(range(1, 25))
PB = list(range(25, 49))
FO = [49, 50, 51]
WA = [52, 53, 54]
BR = [55, 56, 57]
EN = [58, 59, 60]
FIREDAMP = [61, 62, 63]
SAFETY_LAMP, BIG_ORDER, RICH_SEAM, HIRING_DAY, STRIKE, CAGE_BREAKDOWN, GENDARMES = range(64, 71)

A, B, C, D, E = 0, 1, 2, 3, 4

PlacedSpec = tuple[int, str] | tuple[int, str, int]


class Cards:
    """Hands out distinct card ids of a type: ``cards.m()`` is the next unused Miner."""

    def __init__(self, reserved: Iterable[int] = ()) -> None:
        self.used: set[int] = set(reserved)

    def _next(self, pool: list[int]) -> int:
        for c in pool:
            if c not in self.used:
                self.used.add(c)
                return c
        raise AssertionError("no card left of that type")

    def m(self) -> int:
        return self._next(M)

    def pb(self) -> int:
        return self._next(PB)

    def fo(self) -> int:
        return self._next(FO)

    def wa(self) -> int:
        return self._next(WA)

    def br(self) -> int:
        return self._next(BR)

    def en(self) -> int:
        return self._next(EN)

    def fd(self) -> int:
        return self._next(FIREDAMP)


def build(
    n_seats: int,
    *,
    dummy: bool = False,
    variant: bool = False,
    round: int = 3,
    die_holder: int = 0,
    stocks: list[int],
    scores: list[int] | None = None,
    hands: dict[int, list[int]] | None = None,
    placed: dict[int, list[PlacedSpec]] | None = None,
    supply: int | None = None,
    box: int = 0,
    draw_pile: list[int] | None = None,
    discard_pile: list[int] | None = None,
    die_card: str | None = None,
    all_passed: bool = True,
) -> MineState:
    """A mid-round state: the given hands, placed cards, stocks; leftovers on the draw pile."""
    n_dir = n_seats + (1 if dummy else 0)
    hands = dict(hands or {})
    if draw_pile is None:
        # A seat without a given hand keeps one spare card, so that the game stops at the
        # next placement phase instead of auto-passing through the remaining rounds.
        taken = {c for h in hands.values() for c in h}
        taken |= {p[0] for ps in (placed or {}).values() for p in ps}
        taken |= set(discard_pile or [])
        spare = [c for c in ALL_CARD_IDS if c not in taken and c <= 60]
        for d in range(n_seats):
            if d not in hands:
                hands[d] = [spare.pop()]
    placed = placed or {}
    directors = []
    used: list[int] = []
    for d in range(n_dir):
        hand = sorted(hands.get(d, []))
        places = [
            Placement(card=p[0], location=p[1], victim=p[2] if len(p) > 2 else None)  # type: ignore[arg-type, misc]
            for p in placed.get(d, [])
        ]
        used += hand + [p.card for p in places]
        directors.append(
            Director(
                seat=d if d < n_seats else None,
                hand=hand,
                stock=stocks[d],
                score=(scores or [0] * n_dir)[d],
                placed=places,
                passed=all_passed,
            )
        )
    discard = list(discard_pile or [])
    used += discard
    if draw_pile is None:
        draw_pile = [c for c in ALL_CARD_IDS if c not in used]
    used += draw_pile
    assert len(used) == len(set(used)), "a card is used twice in the scenario"
    if supply is None:
        supply = N_COAL - sum(stocks) - box
    return MineState(
        n_seats=n_seats,
        dummy=dummy,
        variant=variant,
        rng=Rng.from_seed(0),
        directors=directors,
        round=round,
        die_holder=die_holder,
        phase="placement",
        turn=die_holder,
        supply=supply,
        box=box,
        draw_pile=draw_pile,
        discard_pile=discard,
        die_card=die_card,
    )


def resolve(state: MineState, seat: int | None = None) -> tuple[MineState, list[Event]]:
    """End the placement phase: every director but one seat has passed; that seat passes."""
    seat = seat if seat is not None else next(d for d in range(state.n_seats))
    state.directors[seat].passed = False
    state.turn = seat
    return ENGINE.apply(state, seat, PassTurn())


def of(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def raids(events: list[Event]) -> dict[tuple[int, int], ev.RaidSettled]:
    return {(e.raider, e.victim): e for e in of(events, ev.RaidSettled)}


def looted(events: list[Event], state_before: MineState) -> list[int]:
    """Stocks right after the raids (before the Expedition)."""
    found = of(events, ev.StocksLooted)
    return list(found[0].after) if found else [d.stock for d in state_before.directors]


def extraction(events: list[Event]) -> dict[int, ev.CoalExtracted]:
    return {e.director: e for e in of(events, ev.CoalExtracted)}


def sales(events: list[Event]) -> dict[int, ev.CoalSold]:
    return {e.director: e for e in of(events, ev.CoalSold)}


# --------------------------------------------------------------------------- Example 1


def _example1(b_watch: list[int], a_stack: list[int], b_stock: int) -> list[Event]:
    state = build(
        2,
        round=3,
        stocks=[0, b_stock],
        placed={A: [(c, "shelter", B) for c in a_stack], B: [(c, "watchtower") for c in b_watch]},
    )
    _, events = resolve(state)
    return events


def test_raid_claim_is_attack_minus_defence() -> None:
    k = Cards()
    events = _example1([k.pb(), k.m()], [k.m(), k.br()], 4)
    r = raids(events)[(A, B)]
    assert (r.attack, r.defence, r.claim, r.taken, r.outcome) == (5, 3, 2, 2, "succeeded")
    assert of(events, ev.StocksLooted)[0].after == (2, 2)


def test_raid_fails_when_defence_reaches_attack() -> None:
    k = Cards()
    events = _example1([k.pb(), k.m(), k.wa()], [k.m(), k.br()], 4)
    r = raids(events)[(A, B)]
    assert (r.attack, r.defence, r.outcome, r.taken) == (5, 6, "failed", 0)
    assert not of(events, ev.StocksLooted)


def test_raid_takes_at_most_the_victims_stock() -> None:
    k = Cards()
    events = _example1([k.pb(), k.m()], [k.m(), k.br()], 1)
    r = raids(events)[(A, B)]
    assert (r.claim, r.taken) == (2, 1)
    assert of(events, ev.StocksLooted)[0].after == (1, 0)


def test_defence_wins_ties() -> None:
    k = Cards()
    events = _example1([k.pb()], [k.m()], 4)
    r = raids(events)[(A, B)]
    assert (r.attack, r.defence, r.outcome) == (2, 2, "failed")


# --------------------------------------------------------------------------- Example 2

V, X, Y, Z, W = 0, 1, 2, 3, 4


def _example2(v_stock: int, with_z: bool, with_w: bool = False) -> tuple[MineState, list[Event]]:
    k = Cards()
    placed: dict[int, list[PlacedSpec]] = {
        V: [(k.m(), "watchtower")],
        X: [(k.m(), "shelter", V), (k.m(), "shelter", V)],
        Y: [(k.br(), "shelter", V), (k.pb(), "shelter", V)],
    }
    if with_z:
        placed[Z] = [(k.m(), "shelter", V)]
    if with_w:
        placed[W] = [(k.m(), "shelter", X), (k.m(), "shelter", X)]
    state = build(5, round=3, stocks=[v_stock, 0, 0, 0, 0], placed=placed)
    return resolve(state)


def test_tied_raiders_share_rounding_down_and_victim_keeps_rest() -> None:
    _, events = _example2(3, with_z=False)
    r = raids(events)
    assert (r[(X, V)].claim, r[(X, V)].taken) == (3, 1)
    assert (r[(Y, V)].claim, r[(Y, V)].taken) == (3, 1)
    assert of(events, ev.StocksLooted)[0].after[:3] == (1, 1, 1)


def test_weaker_raider_collects_the_leftover() -> None:
    _, events = _example2(3, with_z=True)
    r = raids(events)
    assert [r[(p, V)].taken for p in (X, Y, Z)] == [1, 1, 1]
    assert r[(Z, V)].claim == 1
    assert of(events, ev.StocksLooted)[0].after[:4] == (0, 1, 1, 1)


def test_everyone_served_when_stock_suffices() -> None:
    _, events = _example2(7, with_z=True)
    r = raids(events)
    assert [r[(p, V)].taken for p in (X, Y, Z)] == [3, 3, 1]
    assert of(events, ev.StocksLooted)[0].after[:4] == (0, 3, 3, 1)


def test_only_the_starting_stock_can_be_looted() -> None:
    _, events = _example2(3, with_z=False, with_w=True)
    r = raids(events)
    assert (r[(W, X)].attack, r[(W, X)].defence, r[(W, X)].claim) == (4, 0, 4)
    assert r[(W, X)].taken == 0
    after = of(events, ev.StocksLooted)[0].after
    assert after[X] == 1 and after[W] == 0
    assert sales(events)[X].sold == 1  # X sells the coal it just took


# --------------------------------------------------------------------------- Example 3


def _example3(firedamps: int, d_pit_builder: bool = False) -> list[Event]:
    k = Cards()
    events_placed: dict[int, list[PlacedSpec]] = {
        A: [(k.fd(), "events"), (k.pb(), "mine"), (k.pb(), "mine"), (k.m(), "mine")],
        B: [(k.m(), "mine"), (k.m(), "mine"), (k.pb(), "mine")],
        C: [(k.en(), "mine"), (k.pb(), "mine")],
        D: [(SAFETY_LAMP, "events"), (k.m(), "mine"), (k.m(), "mine")],
    }
    if d_pit_builder:
        events_placed[D].append((k.pb(), "mine"))
    if firedamps == 2:
        events_placed[C].insert(0, (k.fd(), "events"))
    # Round 1: everyone sells 1 of its 3 coal, so the supply is 5 + 5 = 10 at step 5.
    state = build(5, round=1, stocks=[3] * 5, placed=events_placed, die_holder=A)
    assert state.supply == 5
    _, events = resolve(state)
    return events


def test_firedamp_blasts_directors_short_of_pit_builders() -> None:
    events = _example3(2)
    assert of(events, ev.FiredampCounted)[0].firedamp == 2
    x = extraction(events)
    assert [x[d].blasted for d in (A, B, C, D)] == [False, True, True, True]
    assert [x[d].extraction for d in (A, B, C, D, E)] == [4, 0, 0, 0, 0]
    assert [x[d].taken for d in (A, B, C, D, E)] == [4, 0, 0, 0, 0]
    assert [x[d].supply for d in (A, B, C, D, E)] == [6, 6, 6, 6, 6]


def test_safety_lamp_without_pit_builders_protects_against_nothing() -> None:
    # Revised Safety Lamp (§2.6): it doubles what pit builders protect against; D has none.
    x = extraction(_example3(2))
    assert (x[D].safety_lamp, x[D].pit_builders, x[D].protected) == (True, 0, 0)
    assert x[D].blasted and x[D].taken == 0


def test_safety_lamp_lets_one_pit_builder_protect_against_two_firedamp() -> None:
    x = extraction(_example3(2, d_pit_builder=True))
    assert (x[D].pit_builders, x[D].protected, x[D].blasted) == (1, 2, False)
    assert (x[D].extraction, x[D].taken, x[D].supply) == (5, 5, 1)
    assert [x[d].blasted for d in (B, C)] == [True, True]  # one PB each, no lamp: 1 < 2


def test_one_firedamp_needs_one_pit_builder() -> None:
    events = _example3(1)
    x = extraction(events)
    assert [x[d].blasted for d in (B, C, D)] == [False, False, True]
    assert [x[d].extraction for d in (A, B, C, D, E)] == [4, 5, 4, 0, 0]
    assert [x[d].taken for d in (A, B, C, D, E)] == [4, 5, 1, 0, 0]
    assert x[E].supply == 0


# --------------------------------------------------------------------------- Example 4


def _example4(
    *, variant: bool = False, b_mine: bool = True, firedamp: bool = False
) -> dict[int, ev.CoalExtracted]:
    k = Cards()
    placed: dict[int, list[PlacedSpec]] = {
        A: [(k.m(), "mine")],
        B: [(RICH_SEAM, "events")] + ([(k.m(), "mine"), (k.pb(), "mine")] if b_mine else []),
        C: [(STRIKE, "events"), (k.en(), "mine")],
    }
    if firedamp:
        placed[B] = [(RICH_SEAM, "events"), (k.m(), "mine"), (k.m(), "mine")]
        placed[C].append((k.fd(), "events"))
    if variant:
        state = build(
            3,
            variant=True,
            round=1,
            stocks=[0, 0, 0],
            placed=placed,
            supply=10,
            box=10,
            die_card="D5",
        )
    else:
        state = build(3, round=1, stocks=[0, 0, 0], placed=placed)
    _, events = resolve(state)
    return extraction(events)


def test_extraction_modifiers_apply_in_fixed_order() -> None:
    x = _example4()
    assert [x[d].base for d in (A, B, C)] == [2, 3, 3]
    assert [x[d].extraction for d in (A, B, C)] == [1, 2, 3]


def test_variant_mine_maximum_caps_extraction_after_modifiers() -> None:
    x = _example4(variant=True)
    assert [x[d].extraction for d in (A, B, C)] == [1, 2, 2]


def test_rich_seam_needs_a_card_at_the_mine() -> None:
    x = _example4(b_mine=False)
    assert x[B].extraction == 0


def test_blasted_director_gets_no_rich_seam() -> None:
    x = _example4(firedamp=True)
    assert x[B].blasted and x[B].extraction == 0


# --------------------------------------------------------------------------- Example 5


def _example5(with_events: bool) -> tuple[MineState, list[Event]]:
    placed: dict[int, list[PlacedSpec]] = {}
    if with_events:
        placed = {B: [(BIG_ORDER, "events")], C: [(CAGE_BREAKDOWN, "events")]}
    state = build(4, round=3, die_holder=A, stocks=[5, 6, 1, 4], scores=[3, 2, 3, 1], placed=placed)
    assert state.supply == 4
    return resolve(state)


def test_expedition_sells_up_to_the_modified_die_limit() -> None:
    state, events = _example5(True)
    s = sales(events)
    assert [s[d].limit for d in (A, B, C, D)] == [2, 4, 3, 2]
    assert [s[d].sold for d in (A, B, C, D)] == [2, 4, 1, 2]
    assert [s[d].stock for d in (A, B, C, D)] == [3, 2, 0, 2]
    assert [s[d].score for d in (A, B, C, D)] == [5, 6, 4, 3]
    assert [e.director for e in of(events, ev.CoalSold)] == [A, B, C, D]
    supply_after_sales = 4 + 9
    mined = sum(e.taken for e in of(events, ev.CoalExtracted))
    assert state.supply == supply_after_sales - mined


def test_expedition_without_events_sells_up_to_the_die() -> None:
    _, events = _example5(False)
    assert [sales(events)[d].sold for d in (A, B, C, D)] == [3, 3, 1, 3]


# --------------------------------------------------------------------------- Example 6


def _example6(*, dummy: bool, dummy_holds_die: bool = False) -> tuple[MineState, list[Event]]:
    k = Cards()
    # A=0, B=1, C=2, D=3; with the dummy, D is director 3 of three seats + dummy.
    placed: dict[int, list[PlacedSpec]] = {
        B: [(k.m(), "mine"), (k.m(), "mine")],
        C: [(k.m(), "mine")],
        D: [(k.en(), "mine")],
        A: [(k.pb(), "mine"), (k.pb(), "mine")],
    }
    holder = D if dummy_holds_die else B
    # Round 1 (limit 1): B, C, D sell 1 each, so the supply is 0 + 3 = 3 at step 5.
    stocks = [0, 7, 7, 6]
    state = build(
        3 if dummy else 4, dummy=dummy, round=1, die_holder=holder, stocks=stocks, placed=placed
    )
    assert state.supply == 0
    return resolve(state)


def test_short_supply_serves_turn_order_and_loses_the_rest() -> None:
    state, events = _example6(dummy=False)
    x = extraction(events)
    assert [x[d].extraction for d in (B, C, D, A)] == [4, 2, 3, 2]
    assert [x[d].taken for d in (B, C, D, A)] == [3, 0, 0, 0]
    assert [e.director for e in of(events, ev.CoalExtracted)] == [B, C, D, A]
    assert state.coal_created == 0


def test_dummy_mines_without_limit_creating_coal() -> None:
    state, events = _example6(dummy=True)
    x = extraction(events)
    assert [x[d].taken for d in (B, C, D, A)] == [3, 0, 3, 0]
    assert x[D].created == 3
    assert state.coal_created == 3
    assert sum(d.stock for d in state.directors) + state.supply == N_COAL + 3


def test_dummy_holding_the_die_takes_from_the_supply_first() -> None:
    state, events = _example6(dummy=True, dummy_holds_die=True)
    x = extraction(events)
    assert [x[d].taken for d in (D, A, B, C)] == [3, 0, 0, 0]
    assert x[D].created == 0 and state.coal_created == 0


# --------------------------------------------------------------------------- Example 7


def _example7(hiring_day: bool = True, rec_cards: bool = True) -> MineState:
    k = Cards([HIRING_DAY])
    a_placed: list[PlacedSpec] = []
    if hiring_day:
        a_placed.append((HIRING_DAY, "events"))
    if rec_cards:
        a_placed += [(k.fo(), "recruitment"), (k.m(), "recruitment")]
    a_placed.append((k.pb(), "mine"))
    hands = {A: [k.m() for _ in range(4)], B: [k.m() for _ in range(4)]}
    b_placed: list[PlacedSpec] = [(k.pb(), "recruitment")]
    used = set(hands[A] + hands[B]) | {p[0] for p in a_placed + b_placed}
    rest = [c for c in ALL_CARD_IDS if c not in used]
    return build(
        2,
        round=3,
        die_holder=A,
        stocks=[0, 0],
        hands=hands,
        placed={A: a_placed, B: b_placed},
        draw_pile=rest[:3],
        discard_pile=rest[3:],
    )


def test_recruitment_reshuffles_and_hand_limit_asks_for_discards() -> None:
    state = _example7()
    assert len(state.draw_pile) == 3 and len(state.discard_pile) == 54
    state, events = resolve(state)
    drawn = {e.director: e for e in of(events, ev.CardsDrawn)}
    assert (drawn[A].wanted, drawn[A].count) == (8, 8)
    assert (drawn[B].wanted, drawn[B].count) == (3, 3)
    assert [e.cards for e in of(events, ev.DrawPileReshuffled)] == [54]
    assert len(state.draw_pile) == 46 and state.discard_pile == []
    assert len(state.directors[A].hand) == 12 and len(state.directors[B].hand) == 7
    assert state.phase == "discard"
    discarded = []
    for _ in range(4):
        assert ENGINE.to_act(state) == frozenset({A})
        assert ENGINE.view(state, A).must_discard == len(state.directors[A].hand) - 8
        card = state.directors[A].hand[0]
        discarded.append(card)
        state, _ = ENGINE.apply(state, A, DiscardCard(card=card))
    # Clean-up followed: the 4 discards first, then the 5 placed cards.
    assert state.phase == "placement" and state.round == 4
    assert state.discard_pile[:4] == discarded and len(state.discard_pile) == 4 + 5
    assert len(state.directors[A].hand) == 8


def test_hiring_day_without_recruitment_cards_draws_the_base_two_and_two_more() -> None:
    _, events = resolve(_example7(rec_cards=False))
    drawn = {e.director: e for e in of(events, ev.CardsDrawn)}
    assert (drawn[A].wanted, drawn[A].count) == (4, 4)


def test_no_recruitment_card_and_no_hiring_day_still_draws_the_base_two() -> None:
    # Revised §5.9 Decision: the base 2 no longer needs a card at Recruitment.
    state, events = resolve(_example7(hiring_day=False, rec_cards=False))
    drawn = {e.director: e for e in of(events, ev.CardsDrawn)}
    assert (drawn[A].wanted, drawn[A].count) == (2, 2)
    assert len(state.directors[A].hand) == 4 + 2


# --------------------------------------------------------------------------- Example 8


def _example8(big_order: bool) -> tuple[MineState, list[Event]]:
    k = Cards()
    placed: dict[int, list[PlacedSpec]] = {
        A: [(k.m(), "mine"), (k.m(), "mine"), (k.m(), "mine"), (k.pb(), "recruitment")],
        B: [(k.pb(), "recruitment")],
        C: [(k.pb(), "recruitment")],
    }
    if big_order:
        placed[B].insert(0, (BIG_ORDER, "events"))
    hands = {A: [k.pb()], B: [k.pb()], C: [k.pb()]}
    state = build(
        3, round=6, die_holder=C, stocks=[7, 8, 3], scores=[15, 13, 14], placed=placed, hands=hands
    )
    assert state.supply == 2
    return resolve(state)


def test_game_ends_when_someone_reaches_21_after_the_whole_expedition() -> None:
    state, events = _example8(big_order=True)
    s = sales(events)
    assert [e.director for e in of(events, ev.CoalSold)] == [C, A, B]
    assert [(s[d].sold, s[d].score, s[d].stock) for d in (C, A, B)] == [
        (3, 17, 0),
        (6, 21, 1),
        (8, 21, 0),
    ]
    assert state.supply == 19
    assert not of(events, ev.CoalExtracted) and not of(events, ev.CardsDrawn)
    assert [len(d.hand) for d in state.directors] == [1, 1, 1]
    assert state.phase == "over"
    res = ENGINE.result(state)
    assert res is not None
    assert res.ranking == [A, B, C] and res.places == {A: 1, B: 2, C: 3}
    assert res.scores == {A: 21, B: 21, C: 17}
    assert "stock (1-0)" in res.tiebreak


def test_reaching_21_wins_outright_without_big_order() -> None:
    state, events = _example8(big_order=False)
    assert sales(events)[B].score == 19
    res = ENGINE.result(state)
    assert res is not None and res.ranking == [A, B, C] and res.tiebreak == ""
    assert ENGINE.to_act(state) == frozenset()


# --------------------------------------------------------------------------- Example 9

ANA, BEN, CLEO = 0, 1, 2


def _example9(ana_stock: int) -> MineState:
    state = build(
        2,
        dummy=True,
        round=2,
        die_holder=BEN,
        stocks=[ana_stock, 0, 1],
        hands={ANA: [1, 2, 25], BEN: [3, 4, 26], 2: [5, 7, 30, 50]},
        all_passed=False,
    )
    rules._start_round(state, [])
    return state


def test_dummy_plan_rounds_1_to_5() -> None:
    state = _example9(3)
    plan = [(p.card, p.location, p.victim) for p in state.dummy_plan]
    assert plan == [
        (30, "watchtower", None),
        (5, "shelter", ANA),
        (50, "recruitment", None),
        (7, "mine", None),
    ]
    assert state.directors[2].hand == []
    assert state.rng.draws == 0  # four cards and one victim: no chance at all


def test_dummy_places_its_plan_one_card_per_turn() -> None:
    state = _example9(3)
    events: list[Event] = []
    rules._advance(state, events)
    assert ENGINE.to_act(state) == frozenset({BEN})
    state, events = ENGINE.apply(state, BEN, PlaceCard(card=3, location="mine"))
    placed = of(events, ev.CardPlaced)
    assert [(e.director, e.location, e.dummy) for e in placed] == [
        (BEN, "mine", False),
        (2, "watchtower", True),
    ]
    state, events = ENGINE.apply(state, ANA, PassTurn())
    state, events = ENGINE.apply(state, BEN, PlaceCard(card=4, location="mine"))
    placed = [e for e in of(events, ev.CardPlaced) if e.dummy]
    assert [(e.location, e.victim, e.stack_opened) for e in placed] == [("shelter", ANA, True)]
    assert ENGINE.to_act(state) == frozenset({BEN})
    view = ENGINE.view(state, ANA)
    assert view.directors[2].stacks[0].victim == ANA
    assert view.directors[2].placed[1].card is None  # face down, even to the victim


def test_dummy_replaces_drawn_events() -> None:
    state = _example9(3)
    k = [c for c in ALL_CARD_IDS if c not in (1, 2, 25, 3, 4, 26, 5, 7, 30, 50, STRIKE)]
    # Ben holds the die and draws his base 2 first (§5.9.1): the dummy's second draw is Strike.
    state.draw_pile = [k[0], k[1], k[2], STRIKE, *k[3:]]
    for p in state.dummy_plan:
        state.directors[2].placed.append(p)
    state.dummy_plan = []
    for d in state.directors:
        d.passed = True
    state, events = resolve(state, ANA)
    drawn = {e.director: e for e in of(events, ev.CardsDrawn)}
    assert [e.director for e in of(events, ev.CardsDrawn)] == [BEN, 2, ANA]
    assert (drawn[2].wanted, drawn[2].count) == (5, 5)
    assert [e.card for e in of(events, ev.DummyEventReplaced)] == [STRIKE]
    # The next round has begun: the dummy took 4 of those 5 cards for its plan.
    hand = state.directors[2].hand + [p.card for p in state.dummy_plan]
    hand += [p.card for p in state.directors[2].placed]
    assert len(hand) == 5 and all(c <= 60 for c in hand)
    assert STRIKE in state.discard_pile


def test_dummy_without_coal_targets_sends_no_raid() -> None:
    state = _example9(0)
    plan = [(p.card, p.location, p.victim) for p in state.dummy_plan]
    assert plan == [
        (30, "watchtower", None),
        (50, "recruitment", None),
        (5, "mine", None),
        (7, "mine", None),
    ]


# --------------------------------------------------------------------------- Example 10


def _example10(dummy_stock: int) -> MineState:
    state = build(
        3,
        dummy=True,
        round=6,
        die_holder=ANA,
        stocks=[4, 4, 0, dummy_stock],
        hands={3: [52, 3, 9, 40]},
        all_passed=False,
    )
    rules._start_round(state, [])
    return state


def test_dummy_plan_round_6_guards_then_raids_richest() -> None:
    plan = [(p.card, p.location, p.victim) for p in _example10(2).dummy_plan]
    assert plan == [
        (52, "watchtower", None),
        (40, "watchtower", None),
        (3, "shelter", ANA),
        (9, "shelter", BEN),
    ]


def test_dummy_round_6_without_coal_deals_every_card_to_raids() -> None:
    plan = [(p.card, p.location, p.victim) for p in _example10(0).dummy_plan]
    assert plan == [
        (3, "shelter", ANA),
        (9, "shelter", BEN),
        (52, "shelter", ANA),
        (40, "shelter", BEN),
    ]


# --------------------------------------------------------------------------- Example 11


def _example11(die_card: str) -> tuple[MineState, list[Event]]:
    k = Cards()
    placed: dict[int, list[PlacedSpec]] = {
        A: [(k.m(), "mine"), (k.m(), "mine")],
        B: [(k.en(), "mine"), (k.m(), "mine")],
        C: [(k.pb(), "mine"), (k.pb(), "mine")],
        D: [(k.m(), "mine"), (k.pb(), "mine")],
    }
    state = build(
        4,
        variant=True,
        round=1,
        die_holder=A,
        stocks=[3, 3, 3, 3],
        placed=placed,
        supply=0,
        box=8,
        die_card=die_card,
    )
    return resolve(state)


def test_variant_d1_sells_one_and_mines_from_the_refilled_supply() -> None:
    state, events = _example11("D1")
    assert [sales(events)[d].sold for d in (A, B, C, D)] == [1, 1, 1, 1]
    assert [extraction(events)[d].taken for d in (A, B, C, D)] == [4, 0, 0, 0]
    assert [d.stock for d in state.directors] == [6, 2, 2, 2]
    assert (state.supply, state.box) == (0, 8)


def test_variant_d5_sells_five_and_caps_mining_at_two() -> None:
    state, events = _example11("D5")
    assert [sales(events)[d].sold for d in (A, B, C, D)] == [3, 3, 3, 3]
    assert [extraction(events)[d].taken for d in (A, B, C, D)] == [2, 2, 2, 2]
    assert (state.supply, state.box, sum(d.stock for d in state.directors)) == (4, 8, 8)


def test_variant_setup_boxes_the_surplus_coal() -> None:
    state = ENGINE.setup(4, 1, ENGINE.Options(variant=True))
    assert [d.stock for d in state.directors] == [3, 3, 3, 3]
    assert (state.supply, state.box) == (0, 8)
    assert state.die_card is not None and len(state.die_pile) == 5


# --------------------------------------------------------------------------- Example 12


def _example12(b_hand: list[int], seed: int) -> MineState:
    state = build(
        4,
        round=6,
        die_holder=C,
        stocks=[2, 2, 2, 4],
        scores=[17, 17, 17, 15],
        hands={A: [1, 25, 49, STRIKE], B: b_hand, C: [26, 27, 58], D: [28]},
    )
    state.rng = Rng.from_seed(seed)
    rules._finish(state, "round_6", [])
    return state


def test_tie_broken_by_hand_then_by_rerolled_dice() -> None:
    # Seed 639 rolls 4, 4, 2, 5: C 4, A 4, then C 2, A 5.
    state = _example12([2, 3, 29, 52], seed=639)
    assert state.final is not None
    assert [[(r.director, r.value) for r in g] for g in state.final.rolls] == [
        [(C, 4), (A, 4)],
        [(C, 2), (A, 5)],
    ]
    res = ENGINE.result(state)
    assert res is not None and res.ranking == [B, A, C, D]
    assert "seat 1 over seat 0 by profession cards in hand (4-3)" in res.tiebreak
    assert "seat 0 over seat 2 by dice (4-4, then 5-2)" in res.tiebreak


def test_three_way_roll_off_settles_the_remaining_pair_at_once() -> None:
    # Seed 463 rolls 3, 5, 3, 6, 1: C 3, A 5, B 3, then C 6, B 1.
    state = _example12([2, 3, 29, STRIKE - 1], seed=463)
    assert state.final is not None
    assert [[(r.director, r.value) for r in g] for g in state.final.rolls] == [
        [(C, 3), (A, 5), (B, 3)],
        [(C, 6), (B, 1)],
    ]
    res = ENGINE.result(state)
    assert res is not None and res.ranking == [A, C, B, D]


# --------------------------------------------------------------------------- Example 13


def _example13() -> MineState:
    return build(
        3,
        round=3,
        die_holder=A,
        stocks=[1, 1, 1],
        all_passed=False,
        hands={
            A: [1, 2, 25, 55, 61],
            B: [5, 29, HIRING_DAY],
            C: [9, 10, 33, 34, STRIKE],
        },
    )


def test_placement_legality_and_turn_sequence() -> None:
    s = _example13()
    s, events = ENGINE.apply(s, A, PlaceCard(card=1, location="shelter", victim=B))
    assert of(events, ev.CardPlaced)[0].stack_opened
    assert ENGINE.view(s, None).directors[A].colour_cards == [C]
    s, _ = ENGINE.apply(s, B, PlaceCard(card=HIRING_DAY, location="events"))
    for bad, rule in [
        (PlaceCard(card=STRIKE, location="mine"), "event cards go on Events only"),
        (PlaceCard(card=9, location="events"), "only event cards go there"),
        (PlaceCard(card=9, location="expedition"), "nothing is ever placed there"),
    ]:
        with pytest.raises(IllegalAction, match=rule):
            ENGINE.apply(s, C, bad)
    s, _ = ENGINE.apply(s, C, PlaceCard(card=33, location="watchtower"))
    s, events = ENGINE.apply(s, A, PlaceCard(card=2, location="shelter", victim=B))
    assert not of(events, ev.CardPlaced)[0].stack_opened
    assert ENGINE.view(s, None).directors[A].stacks[0].size == 2
    s, _ = ENGINE.apply(s, B, PassTurn())
    s, events = ENGINE.apply(s, C, PlaceCard(card=9, location="shelter", victim=A))
    assert of(events, ev.CardPlaced)[0].stack_opened
    with pytest.raises(IllegalAction, match="cannot raid yourself"):
        ENGINE.apply(s, A, PlaceCard(card=55, location="shelter", victim=A))
    s, _ = ENGINE.apply(s, A, PlaceCard(card=55, location="shelter", victim=C))
    assert ENGINE.to_act(s) == frozenset({C})  # B passed and is skipped
    s, _ = ENGINE.apply(s, C, PlaceCard(card=10, location="mine"))
    s, _ = ENGINE.apply(s, A, PlaceCard(card=25, location="watchtower"))
    assert s.directors[A].done and s.directors[A].hand == [61]
    assert ENGINE.legal_actions(s, A) == []
    s, events = ENGINE.apply(s, C, PlaceCard(card=34, location="mine"))
    assert of(events, ev.FiredampCounted)  # the phase ended and resolution ran
    assert s.round == 4


def test_legal_actions_order_and_shape() -> None:
    s = _example13()
    legal = ENGINE.legal_actions(s, A)
    assert legal[0] == PlaceCard(card=1, location="shelter", victim=B)
    assert legal[1] == PlaceCard(card=1, location="shelter", victim=C)
    assert legal[2:5] == [
        PlaceCard(card=1, location=x) for x in ("watchtower", "mine", "recruitment")
    ]
    assert legal[-2] == PlaceCard(card=61, location="events")
    assert legal[-1] == PassTurn()
    assert len(legal) == 4 * 5 + 1 + 1
    assert ENGINE.legal_actions(s, B) == []


# --------------------------------------------------------------------------- Example 14


def test_gendarmes_cancel_raids_on_their_owner_only() -> None:
    k = Cards()
    state = build(
        3,
        round=1,
        stocks=[5, 0, 4],
        placed={
            0: [(GENDARMES, "events"), (k.br(), "shelter", 2)],
            1: [(k.m(), "shelter", 0), (k.m(), "shelter", 0)],
            2: [(k.m(), "watchtower")],
        },
    )
    _, events = resolve(state)
    r = raids(events)
    assert r[(1, 0)].outcome == "cancelled" and r[(1, 0)].taken == 0
    assert (r[(0, 2)].claim, r[(0, 2)].taken) == (2, 2)
    assert of(events, ev.StocksLooted)[0].after == (7, 0, 2)


# --------------------------------------------------------------------------- Example 15


def test_one_complete_round() -> None:
    k = Cards()
    b_cards = {"m1": k.m(), "m2": k.m(), "pb": k.pb()}
    c_cards = {"pb1": k.pb(), "fd": k.fd(), "pb2": k.pb(), "m": k.m()}
    a_cards = {"pb1": k.pb(), "m1": k.m(), "m2": k.m(), "pb2": k.pb()}
    hands = {
        A: [*a_cards.values(), k.m(), k.m(), k.m()],
        B: [*b_cards.values(), k.m(), k.m(), k.m(), k.m()],
        C: [*c_cards.values(), k.m(), k.m(), k.m(), k.m()],
    }
    s = build(
        3, round=2, die_holder=B, stocks=[2, 3, 1], scores=[1, 1, 0], hands=hands, all_passed=False
    )
    assert s.supply == 14
    moves: list[tuple[int, Any]] = [
        (B, PlaceCard(card=b_cards["m1"], location="shelter", victim=A)),
        (C, PlaceCard(card=c_cards["pb1"], location="watchtower")),
        (A, PlaceCard(card=a_cards["pb1"], location="watchtower")),
        (B, PlaceCard(card=b_cards["m2"], location="mine")),
        (C, PlaceCard(card=c_cards["fd"], location="events")),
        (A, PlaceCard(card=a_cards["m1"], location="mine")),
        (B, PlaceCard(card=b_cards["pb"], location="recruitment")),
        (C, PlaceCard(card=c_cards["pb2"], location="mine")),
        (A, PlaceCard(card=a_cards["m2"], location="shelter", victim=B)),
        (B, PassTurn()),
        (C, PlaceCard(card=c_cards["m"], location="mine")),
        (A, PlaceCard(card=a_cards["pb2"], location="recruitment")),
    ]
    events: list[Event] = []
    for seat, action in moves:
        assert ENGINE.to_act(s) == frozenset({seat})
        s, events = ENGINE.apply(s, seat, action)
    assert of(events, ev.FiredampCounted)[0].firedamp == 1
    r = raids(events)
    assert r[(B, A)].outcome == "failed" and (r[(B, A)].attack, r[(B, A)].defence) == (2, 2)
    assert (r[(A, B)].claim, r[(A, B)].taken) == (2, 2)
    assert of(events, ev.StocksLooted)[0].after == (4, 1, 1)
    assert [(e.director, e.sold) for e in of(events, ev.CoalSold)] == [(B, 1), (C, 1), (A, 2)]
    x = extraction(events)
    assert [(x[d].blasted, x[d].taken) for d in (B, C, A)] == [(True, 0), (False, 3), (True, 0)]
    # Step 6 follows the revised §5.9 Decision: C, with no card at Recruitment, still draws
    # the base 2 (mine-examples.md example 15 still says "C draws 0 (hand 4)", written for
    # the old reading; the Decision in mine.md wins), so C ends the round with 6 cards.
    assert [(e.director, e.wanted, e.count) for e in of(events, ev.CardsDrawn)] == [
        (B, 3, 3),
        (C, 2, 2),
        (A, 3, 3),
    ]
    assert s.discard_pile == [
        b_cards["m1"],
        b_cards["m2"],
        b_cards["pb"],
        c_cards["fd"],
        c_cards["pb1"],
        c_cards["pb2"],
        c_cards["m"],
        a_cards["m2"],
        a_cards["pb1"],
        a_cards["m1"],
        a_cards["pb2"],
    ]
    assert [(d.score, d.stock, len(d.hand)) for d in s.directors] == [
        (3, 2, 6),
        (2, 0, 7),
        (1, 3, 6),
    ]
    assert s.supply == 15 and s.round == 3 and s.die_holder == C
    assert ENGINE.to_act(s) == frozenset({C})
