"""Leak tests of the MINE! view and events (rules/mine.md §8).

The main check is a counterfactual: re-deal every card hidden from a viewer (other seats'
hands and face-down cards, the dummy's hand and plan, the draw pile) and change the Rng and
the die-card pile; the viewer's view must not change at all.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.games.base import Event, Rng, Seat
from app.games.mine import ENGINE
from app.games.mine import events as ev
from app.games.mine.data import IS_EVENT, LOCATION_STEP
from app.games.mine.rules import MineOptions, MineState


def perturb(state: MineState, viewer: Seat | None, rng: random.Random) -> MineState:
    """Re-deal everything ``viewer`` may not see, keeping sizes and card types per slot."""
    s = MineState.model_validate(state.model_dump())
    slots: list[tuple[list[int], int]] = []  # (container, index)
    for d in s.directors:
        if d.seat is not None and d.seat == viewer:
            continue
        slots += [(d.hand, i) for i in range(len(d.hand))]
    slots += [(s.draw_pile, i) for i in range(len(s.draw_pile))]
    hidden_placed = []
    for d in s.directors:
        if d.seat is not None and d.seat == viewer:
            continue
        hidden_placed += [p for p in d.placed if LOCATION_STEP[p.location] > s.revealed_step]
    hidden_placed += list(s.dummy_plan)
    pool_events = [c[i] for c, i in slots if IS_EVENT[c[i]]] + [
        p.card for p in hidden_placed if IS_EVENT[p.card]
    ]
    pool_prof = [c[i] for c, i in slots if not IS_EVENT[c[i]]] + [
        p.card for p in hidden_placed if not IS_EVENT[p.card]
    ]
    rng.shuffle(pool_events)
    rng.shuffle(pool_prof)
    for c, i in slots:
        c[i] = (pool_events if IS_EVENT[c[i]] else pool_prof).pop()
    for p in hidden_placed:
        p.card = (pool_events if IS_EVENT[p.card] else pool_prof).pop()
    for d in s.directors:
        d.hand.sort()
    s.rng = Rng(seed=rng.getrandbits(64), draws=rng.randrange(1000))
    rng.shuffle(s.die_pile)
    return s


def check_views(state: MineState, rng: random.Random, every_seat: bool = False) -> None:
    """Check the spectator and one random seat (every seat when asked)."""
    viewers: list[Seat | None] = [None]
    viewers += list(range(state.n_seats)) if every_seat else [rng.randrange(state.n_seats)]
    for viewer in viewers:
        view = ENGINE.view(state, viewer)
        for dv in view.directors:
            own = viewer is not None and dv.seat == viewer
            assert (dv.hand is not None) == own
            for p in dv.placed:
                if not own and not p.revealed:
                    assert p.card is None
        if viewer is None:
            assert view.hand is None
        dumped = view.model_dump_json()
        assert "draws" not in dumped and "rng" not in dumped and 'die_pile"' not in dumped
        other = perturb(state, viewer, rng)
        assert ENGINE.view(other, viewer).model_dump_json() == dumped, "view depends on hidden info"


def check_events(events: list[Event], after: MineState) -> None:
    reshuffled = any(isinstance(e, ev.DrawPileReshuffled) for e in events)
    for e in events:
        if isinstance(e, ev.CardsReceived):
            seat = after.directors[e.director].seat
            assert seat is not None and e.visible_to == frozenset({seat})
        elif isinstance(e, ev.OwnCardPlaced):
            assert e.visible_to == frozenset({after.directors[e.director].seat})
        else:
            assert e.visible_to is None
        if e.visible_to is None and not reshuffled:
            shown: list[int] = []
            if isinstance(e, ev.CardsRevealed):
                shown = [r.card for r in e.cards]
            elif isinstance(e, ev.CardDiscarded | ev.DummyEventReplaced):
                shown = [e.card]
            elif isinstance(e, ev.RoundCleanedUp):
                shown = list(e.discarded)
            hidden = set(after.draw_pile)
            for d in after.directors:
                hidden |= set(d.hand)
            assert not hidden & set(shown), "a public event shows a card that is hidden"
        fields: dict[str, Any] = e.model_dump()
        if e.visible_to is None and isinstance(e, ev.CardPlaced):
            assert "card" not in fields


# Under HYPOTHESIS_PROFILE=long this plays 2000 games: allow more than the 300 s default.
@pytest.mark.timeout(1800)
@given(st.integers(2, 6), st.booleans(), st.booleans(), st.integers(0, 2**32))
def test_views_and_events_leak_nothing(n: int, dummy: bool, variant: bool, seed: int) -> None:
    options = MineOptions(dummy=dummy and n < 6, variant=variant)
    state = ENGINE.setup(n, seed, options)
    rng = random.Random(seed)
    check_views(state, rng, every_seat=True)
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        phase = state.phase
        state, events = ENGINE.apply(state, seat, legal[rng.randrange(len(legal))])
        check_events(events, state)
        check_views(state, rng, every_seat=state.phase != phase)
    check_views(state, rng, every_seat=True)


def test_view_shows_own_face_down_cards_only_to_their_owner() -> None:
    state = ENGINE.setup(3, 7, MineOptions(first_player=0))
    state, _ = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    mine = ENGINE.view(state, 0).directors[0].placed[0]
    theirs = ENGINE.view(state, 1).directors[0].placed[0]
    spectator = ENGINE.view(None or state, None).directors[0].placed[0]
    assert mine.card == 1 and theirs.card is None and spectator.card is None
    assert theirs.location == "shelter" and theirs.victim == 1


def test_dummy_hand_is_visible_to_nobody() -> None:
    state = ENGINE.setup(2, 3, MineOptions())
    for viewer in (None, 0, 1):
        dv = ENGINE.view(state, viewer).directors[2]
        assert dv.hand is None and dv.is_dummy
        assert all(p.card is None for p in dv.placed)
