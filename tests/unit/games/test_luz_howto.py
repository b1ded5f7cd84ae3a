"""Luz "How to play" support: the Event union, the rules-page figures, undo and descriptions."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.base import IllegalAction, dump, parse_event
from app.games.luz import ENGINE, LuzOptions, LuzState
from app.games.luz.actions import ChooseHighEnd, PlaceBet, PlayCard
from app.games.luz.events import DealScored, GameEnded
from tests.unit.games.event_samples_luz import SAMPLES

_TABLES: list[tuple[int, int, dict[str, Any]]] = [
    (3, 1, {}),
    (4, 2, {"manual_sort_direction": True, "safety_miss_from": "nearest"}),
    (5, 3, {"trump": "none", "first_player_rotation": "fixed", "first_player": 4}),
]


def _games() -> list[list[tuple[LuzState, int, Any, list[Any]]]]:
    """Seeded random games: every step as (state before, seat, action, events)."""
    games = []
    for n, seed, options in _TABLES:
        state = ENGINE.setup(n, seed, LuzOptions.model_validate(options))
        rng = random.Random(seed)
        steps = []
        while ENGINE.result(state) is None:
            seat = rng.choice(sorted(ENGINE.to_act(state)))
            action = rng.choice(ENGINE.legal_actions(state, seat))
            after, events = ENGINE.apply(state, seat, action)
            steps.append((state, seat, action, events))
            state = after
        games.append(steps)
    return games


GAMES = _games()


def test_event_union_rebuilds_every_emitted_event() -> None:
    seen: set[str] = set()
    for steps in GAMES:
        for _, _, _, events in steps:
            for event in events:
                data = dump(event)
                again = parse_event(ENGINE, data)
                assert type(again) is type(event) and again == event
                seen.add(event.type)
    assert {"deal_started", "hand_shown", "high_end_chosen", "deal_scored", "game_ended"} <= seen


def test_samples_cover_every_event_type_and_parse() -> None:
    types = {s.type for s in SAMPLES}
    assert len(types) == len(SAMPLES) == 10
    for sample in SAMPLES:
        assert parse_event(ENGINE, dump(sample)) == sample


@pytest.mark.parametrize("name", list(ENGINE.figures))
def test_every_figure_builds_a_reachable_position(name: str) -> None:
    figure = ENGINE.figures[name]()
    assert isinstance(figure.state, LuzState) and figure.caption
    view = ENGINE.view(figure.state, figure.seat)
    assert view.viewer == figure.seat
    again = ENGINE.figures[name]()  # deterministic: the same picture every time
    assert dump(again.state) == dump(figure.state)


def test_figures_show_what_the_rules_page_says() -> None:
    figures = {name: build() for name, build in ENGINE.figures.items()}
    assert len(figures) >= 4
    opening = figures["opening"]
    assert opening.state.phase == "betting" and opening.seat in ENGINE.to_act(opening.state)
    follow = figures["follow"]
    legal = ENGINE.legal_actions(follow.state, follow.seat)
    hand = follow.state.hands[follow.seat]
    led = follow.state.trick[0].card[0]
    assert 2 <= len(legal) < sum(c is not None for c in hand)
    assert all(hand[a.slot][0] == led for a in legal)
    void = figures["void"]
    assert len(ENGINE.legal_actions(void.state, void.seat)) == sum(
        c is not None for c in void.state.hands[void.seat]
    )
    assert figures["scored"].state.history and figures["scored"].state.deal == 2
    assert figures["high_end"].state.phase == "choosing_high_end"
    assert ENGINE.result(figures["end"].state) is not None


# Every shape of Luz action, listed or not: the three kinds with every value they can take.
_EVERY_ACTION: list[Any] = [
    *(ChooseHighEnd(side=side) for side in ("left", "right")),
    *(PlaceBet(tricks=t, safety=s) for t in range(11) for s in (False, True)),
    *(PlayCard(slot=slot) for slot in range(10)),
]


@pytest.mark.parametrize("n", [3, 4, 5])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), manual=st.booleans())
def test_no_luz_action_is_ever_undoable(n: int, seed: int, manual: bool) -> None:
    """Bets, plays and high-end choices are all final (§5.2, §5.5, §5.6, §9): in every state
    of a random game, for every seat, no action (as a model or as its JSON) may be taken back."""
    state = ENGINE.setup(n, seed, LuzOptions(manual_sort_direction=manual))
    rng = random.Random(seed)
    while True:
        for seat in range(n):
            for action in _EVERY_ACTION:
                assert ENGINE.undoable(state, seat, action) is False, (seat, action)
                assert ENGINE.undoable(state, seat, dump(action)) is False, (seat, action)
        if ENGINE.result(state) is not None:
            break
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat))).state


def test_a_bet_just_placed_cannot_be_taken_back() -> None:
    """A bet shows nothing hidden and draws no chance, yet it is final (§5.5): it cannot be
    taken back, as the engine's refusal of a second bet says."""
    state = ENGINE.setup(3, 5, LuzOptions(first_player=0))
    bet = PlaceBet(tricks=2, safety=True)
    after, events = ENGINE.apply(state, 0, bet)
    assert all(e.visible_to is None for e in events) and after.rng == state.rng
    assert not ENGINE.undoable(state, 0, bet)
    with pytest.raises(IllegalAction, match=r"bets are final \(§5.5\)"):
        ENGINE.apply(after, 0, PlaceBet(tricks=3))


@pytest.mark.parametrize("locale", ["es", "en"])
def test_every_event_and_action_is_described(locale: str) -> None:
    items: list[Any] = [*SAMPLES, ChooseHighEnd(side="right"), PlaceBet(tricks=3), PlayCard(slot=1)]
    for steps in GAMES:
        items.extend(e for _, _, _, events in steps for e in events)
    for item in items:
        assert ENGINE.describe(item, locale).strip()  # type: ignore[arg-type]


def test_deal_scoring_is_explained_one_line_per_seat() -> None:
    scored = next(s for s in SAMPLES if isinstance(s, DealScored))
    for locale in ("es", "en"):
        lines = ENGINE.describe(scored, locale).split("\n")  # type: ignore[arg-type]
        assert len(lines) == 1 + len(scored.rows)
    en = ENGINE.describe(scored, "en").split("\n")
    assert "bet 2 tricks, won 2" in en[1] and "+10" in en[1] and "total 0 + 10 = 10" in en[1]
    assert "safety bead" in en[2] and "one trick more" in en[2] and "+5" in en[2]
    assert "missed by 2 tricks" in en[3] and "-10" in en[3] and "= -10" in en[3]
    es = ENGINE.describe(scored, "es").split("\n")
    assert "falla por 2 bazas" in es[3] and "ficha de seguridad" in es[2]


def test_nearest_miss_rule_is_explained() -> None:
    from app.games.luz.events import DealRow

    row = DealRow(seat=0, bet=2, safety=True, won=5, points=-10, total=-10)
    line = ENGINE.describe(DealScored(deal=2, rows=(row,)), "en")
    assert "missed by 2 tricks (from 3" in line


def test_game_end_gives_places_and_ties() -> None:
    ended = next(s for s in SAMPLES if isinstance(s, GameEnded))
    en = ENGINE.describe(ended, "en")
    assert "1st place (shared): seat 1 with 60 points" in en  # seats count from 1 in text
    assert "3rd place: seat 3 with 35 points" in en
    assert "share 1st place" in en
    es = ENGINE.describe(ended, "es")
    assert "1.º puesto (compartido): asiento 1 con 60 puntos" in es
    assert "comparten el primer puesto" in es
