"""Glück Auf lets a seat take back what reveals nothing (issue 35), and still nothing that
does: keeping nothing from a draw of five, the return step that ends the draw, and the
action that ends shift 1 or 2 while the delivered piles are public (``delivered_visible``).

Each such action met in random games is undoable unless its turn turns up a hidden tile or
card (a refill), and the judge of tests/unit/games/test_undo_reveals_nothing.py holds for
it: in every world the seat cannot tell from the real one, it sees the same events and the
same view afterwards. Taking it back restores the state exactly: the state before, whose
view and legal actions are the ones the seat had.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from app.games import REGISTRY
from app.games.base import dump
from app.games.gluckauf import actions as a
from app.games.gluckauf import events as ev
from tests.support.worlds import other_worlds

ENGINE = REGISTRY["gluckauf"]


def _case(state: Any, action: Any, events: list[Any]) -> str | None:
    """Which of the three take-backs ``action`` is, or None."""
    kinds = {type(e) for e in events}
    if isinstance(action, a.KeepItem) and action.item is None:
        return "keep_nothing"
    if ev.ItemsReturned in kinds and isinstance(action, a.ReturnItem | a.ChooseEnd):
        return "return_ends_draw"
    shift_ends = any(isinstance(e, ev.ShiftScored) and e.shift in (1, 2) for e in events)
    if shift_ends and state.options.delivered_visible:
        return "shift_ends_public"
    return None


def _steps(games: int) -> Iterator[tuple[Any, int, Any, Any, list[Any], random.Random]]:
    for seed in range(games):
        n = 2 + seed % 3
        options = ENGINE.Options.model_validate({"delivered_visible": seed % 2 == 0})
        state = ENGINE.setup(n, seed, options)
        rng = random.Random(seed)
        while ENGINE.to_act(state):
            seat = rng.choice(sorted(ENGINE.to_act(state)))
            action = rng.choice(ENGINE.legal_actions(state, seat))
            after, events = ENGINE.apply(state, seat, action)
            yield state, seat, action, after, list(events), rng
            state = after


def _reveals_a_tile_or_card(events: list[Any]) -> bool:
    """A refill turns up the top of a face-down pile: that turn stays final."""
    return any(isinstance(e, ev.SpaceRefilled) for e in events)


def test_what_reveals_nothing_can_be_taken_back_and_is_restored_exactly() -> None:
    seen: Counter[str] = Counter()
    for state, seat, action, after, events, rng in _steps(24):
        case = _case(state, action, events)
        if case is None:
            continue
        if any(isinstance(e, ev.ShiftScored) for e in events) and not (
            state.options.delivered_visible
        ):
            continue  # a return that ends a shift with hidden piles: final, rightly
        if _reveals_a_tile_or_card(events):
            assert not ENGINE.undoable(state, seat, action), (case, action)
            continue
        assert ENGINE.undoable(state, seat, action), (case, action, events)
        seen[case] += 1
        # The judge: the seat learns nothing it could not see, whatever the hidden parts.
        view_after, shown = dump(ENGINE.view(after, seat)), _shown(events, seat)
        for world in other_worlds(ENGINE, state, seat, rng):
            world_after, world_events = ENGINE.apply(world, seat, action)
            assert _shown(list(world_events), seat) == shown, case
            assert dump(ENGINE.view(world_after, seat)) == view_after, case
        # Taken back, the table is at the state before: the same state, view and choices,
        # and the action can be taken again with the same outcome.
        again, again_events = ENGINE.apply(state, seat, action)
        assert dump(again) == dump(after) and [dump(e) for e in again_events] == [
            dump(e) for e in events
        ]
        assert action in ENGINE.legal_actions(state, seat)
    assert seen["keep_nothing"] and seen["return_ends_draw"] and seen["shift_ends_public"], seen


def _shown(events: list[Any], seat: int) -> list[dict[str, Any]]:
    return [dump(e) for e in events if e.is_visible_to(seat)]


def test_a_shift_end_stays_final_while_the_delivered_piles_are_hidden() -> None:
    """Without ``delivered_visible`` the scoring reveals every pile: never taken back."""
    found = 0
    for state, seat, action, _after, events, _rng in _steps(12):
        if state.options.delivered_visible:
            continue
        if any(isinstance(e, ev.ShiftScored) for e in events):
            assert not ENGINE.undoable(state, seat, action)
            found += 1
    assert found
