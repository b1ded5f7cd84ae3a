"""MINE! rules not covered by a worked example: passes, dummy discards, clean-up, round 6."""

from __future__ import annotations

from app.games.base import Event
from app.games.mine import ENGINE, rules
from app.games.mine import events as ev
from app.games.mine.actions import PassTurn, PlaceCard
from app.games.mine.data import ALL_CARD_IDS
from tests.unit.games.test_mine_examples import build, of, resolve


def test_a_pass_is_final_for_the_round() -> None:
    state = build(
        3,
        round=2,
        die_holder=0,
        stocks=[1, 1, 1],
        all_passed=False,
        hands={0: [1, 2], 1: [5, 6], 2: [9, 10]},
    )
    state, _ = ENGINE.apply(state, 0, PassTurn())
    state, _ = ENGINE.apply(state, 1, PlaceCard(card=5, location="mine"))
    state, _ = ENGINE.apply(state, 2, PlaceCard(card=9, location="mine"))
    assert ENGINE.to_act(state) == frozenset({1})  # seat 0 is skipped
    assert ENGINE.legal_actions(state, 0) == []


def test_empty_hand_passes_automatically() -> None:
    state = build(
        3,
        round=2,
        die_holder=0,
        stocks=[1, 1, 1],
        all_passed=False,
        hands={0: [1], 1: [5, 6], 2: [9, 10]},
    )
    state, events = ENGINE.apply(state, 0, PlaceCard(card=1, location="mine"))
    state, events = ENGINE.apply(state, 1, PlaceCard(card=5, location="mine"))
    state, events = ENGINE.apply(state, 2, PlaceCard(card=9, location="mine"))
    passes = of(events, ev.PlacementPassed)
    assert [(e.director, e.reason) for e in passes] == [(0, "empty_hand")]
    assert ENGINE.to_act(state) == frozenset({1})


def test_four_cards_end_a_directors_placement() -> None:
    state = build(
        2,
        round=2,
        die_holder=0,
        stocks=[1, 1],
        all_passed=False,
        hands={0: [1, 2, 3, 4, 25], 1: [5, 6, 7, 8, 29]},
    )
    for i in range(4):
        state, _ = ENGINE.apply(state, 0, PlaceCard(card=[1, 2, 3, 4][i], location="mine"))
        if i < 3:
            state, _ = ENGINE.apply(state, 1, PlaceCard(card=[5, 6, 7][i], location="mine"))
    assert state.directors[0].done and ENGINE.to_act(state) == frozenset({1})
    assert ENGINE.legal_actions(state, 0) == []


def test_dummy_discards_lowest_extraction_then_lowest_total_then_highest_id() -> None:
    # The dummy (director 2) holds 9 cards after its draws: it must drop one.
    hand = [1, 2, 25, 26, 49, 52, 53, 55, 58]
    state = build(
        2,
        dummy=True,
        round=2,
        die_holder=0,
        stocks=[0, 0, 0],
        hands={0: [3], 1: [4], 2: hand},
        all_passed=True,
    )
    state.phase = "discard"
    state.report = rules.RoundReport(round=2, discarded=[0, 0, 0])
    events: list[Event] = []
    state.directors[2].hand.extend([53 + 1])  # WA 54: 10 cards now
    state.directors[2].hand.sort()
    rules._advance(state, events)
    dropped = [e.card for e in of(events, ev.CardDiscarded)]
    # EXT 0: WA 52/53/54 (total 5) and BR 55 (total 5): highest id first.
    assert dropped == [55, 54]
    assert all(e.automatic for e in of(events, ev.CardDiscarded))


def test_clean_up_passes_the_die_left_through_the_dummy() -> None:
    state = build(
        2, dummy=True, round=2, die_holder=1, stocks=[0, 0, 0], hands={0: [3], 1: [4], 2: [5, 6]}
    )
    state, events = resolve(state, 0)
    cleaned = of(events, ev.RoundCleanedUp)[0]
    assert cleaned.next_die_holder == 2 and state.die_holder == 2 and state.round == 3
    assert of(events, ev.RoundStarted)[0].die_holder == 2


def test_variant_die_card_is_set_aside_at_clean_up() -> None:
    state = build(
        2,
        variant=True,
        round=2,
        die_holder=0,
        stocks=[0, 0],
        supply=0,
        box=20,
        hands={0: [3], 1: [4]},
        die_card="D4",
    )
    state.die_pile = ["D2", "D6"]
    state.used_die_cards = ["D1"]
    state, events = resolve(state, 0)
    assert state.used_die_cards == ["D1", "D4"]
    assert state.die_card == "D2" and state.die_pile == ["D6"]
    started = of(events, ev.RoundStarted)[0]
    assert (started.die_card, started.mine_max, started.sale_max) == ("D2", 5, 2)


def test_round_six_ends_after_the_hand_limit_and_clean_up() -> None:
    rest = [c for c in ALL_CARD_IDS if c not in (1, 2, 3, 4, 5, 6, 7, 8, 49, 9)]
    state = build(
        2,
        round=6,
        die_holder=0,
        stocks=[0, 0],
        all_passed=True,
        hands={0: [1, 2, 3, 4, 5, 6, 7, 8], 1: [9]},
        placed={0: [(49, "recruitment")]},
        draw_pile=rest,
    )
    state, events = resolve(state, 1)
    assert state.phase == "discard" and ENGINE.to_act(state) == frozenset({0})
    for _ in range(5):
        state, events = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state.phase == "over"
    assert of(events, ev.RoundCleanedUp)[0].next_die_holder is None
    assert of(events, ev.GameEnded)[0].reason == "round_6"
    assert state.discard_pile[-1] == 49


def test_dummy_stops_drawing_when_no_profession_card_is_left() -> None:
    profs = [c for c in ALL_CARD_IDS if c <= 60]
    # Seats 0 and 1 draw their base 2 first (§5.9.1): profs[36:40] lie on top for them.
    state = build(
        2,
        dummy=True,
        round=2,
        die_holder=0,
        stocks=[0, 0, 0],
        all_passed=True,
        hands={0: profs[:18], 1: profs[18:36]},
        placed={2: [(profs[40], "recruitment")]},
        draw_pile=[*profs[36:40], 61, 62, 63, 64, profs[59]],
        discard_pile=[65, 66, 67, 68, 69, 70],
    )
    state.directors[2].hand = profs[41:59]
    state, events = resolve(state, 0)
    drawn = {e.director: (e.wanted, e.count) for e in of(events, ev.CardsDrawn)}
    assert drawn[2] == (3, 1)
    assert [e.card for e in of(events, ev.DummyEventReplaced)] == [61, 62, 63, 64]
    assert not of(events, ev.DrawPileReshuffled)
