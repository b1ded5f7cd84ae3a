"""Leak tests on the engine: a seat never sees its own unplayed values, spectators no unplayed value.

The hidden things are the actual card codes: a seat's own unplayed cards and the undealt cards
(for a seat); every unplayed card and the undealt cards (for a spectator). They are compared
with every string in the view JSON, in the visible events, and in their ``describe`` lines.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.games.base import Event, IllegalAction
from app.games.luz import ENGINE
from app.games.luz.actions import PlayCard
from app.games.luz.data import COLOUR_NAMES
from app.games.luz.events import DealStarted
from app.games.luz.rules import LuzOptions, LuzState

_QUOTED_CARD = re.compile(r'"([RYGBP]\d{1,2})"')


def _cards_in(model: Any) -> set[str]:
    """Every card code that appears as a JSON string anywhere in a model's dump."""
    return set(_QUOTED_CARD.findall(model.model_dump_json()))


def hidden_from(state: LuzState, seat: int | None) -> set[str]:
    """The card codes ``seat`` (None = spectator) must never receive in this state."""
    hidden = set(state.undealt)
    for holder, hand in enumerate(state.hands):
        if seat is None or holder == seat:
            hidden |= {c for c in hand if c is not None}
    return hidden


_NAMED = {
    f"{names[c]} {v}": f"{c}{v}"
    for names in COLOUR_NAMES.values()
    for c in names
    for v in range(1, 13)
}
_NAMED_CARD = re.compile(
    r"\b("
    + "|".join(sorted({n for names in COLOUR_NAMES.values() for n in names.values()}))
    + r") (\d{1,2})\b"
)
_CODE = re.compile(r"\b[RYGBP]\d{1,2}\b")


def _describe_leaks(line: str, hidden: set[str]) -> set[str]:
    """Hidden cards named in a text line, as a code (``R6``) or in words (``red 6``, ``rojo 6``)."""
    named = {_NAMED[f"{m.group(1)} {m.group(2)}"] for m in _NAMED_CARD.finditer(line)}
    return (set(_CODE.findall(line)) | named) & hidden


def assert_no_leak(state: LuzState, seat: int | None) -> None:
    hidden = hidden_from(state, seat)
    view = ENGINE.view(state, seat)
    leaked = _cards_in(view) & hidden
    assert not leaked, f"the view of {seat} leaks {leaked}"
    dumped = view.model_dump()
    assert "rng" not in dumped and "undealt" not in dumped


def assert_events_hide(
    before: LuzState, after: LuzState, played: str | None, events: list[Event]
) -> None:
    """Events of one apply: up to a DealStarted they belong to the old deal, then the new one."""
    n = before.n_players
    for seat in [*range(n), None]:
        hidden = hidden_from(before, seat) - ({played} if played else set())
        for event in events:
            if isinstance(event, DealStarted):
                hidden = hidden_from(after, seat)
            if not event.is_visible_to(seat):
                continue
            assert not (_cards_in(event) & hidden), f"{event.type} leaks to {seat}"
            for locale in ("en", "es"):
                line = ENGINE.describe(event, locale)  # type: ignore[arg-type]
                assert not _describe_leaks(line, hidden), f"{line!r} leaks to {seat}"


def test_hand_shown_is_never_visible_to_its_holder_or_spectators() -> None:
    state = ENGINE.setup(4, 5, LuzOptions(first_player=0))
    # finish deal 1 to collect the events dealing deal 2
    rng = random.Random(5)
    events: list[Event] = []
    while state.deal == 1:
        (seat,) = ENGINE.to_act(state)
        state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    shown = [e for e in events if e.type == "hand_shown"]
    assert len(shown) == 4
    for event in shown:
        holder = event.seat  # type: ignore[attr-defined]
        assert event.visible_to == frozenset(range(4)) - {holder}
        assert not event.is_visible_to(None)
    dealt = next(e for e in events if e.type == "hands_dealt")
    assert dealt.visible_to is None
    assert not _cards_in(dealt)


@pytest.mark.parametrize("n", [3, 4, 5])
@given(
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    manual=st.booleans(),
    strict=st.booleans(),
)
def test_no_view_or_event_leaks_a_hidden_card(
    n: int, seed: int, manual: bool, strict: bool
) -> None:
    rng = random.Random(seed)
    options = LuzOptions(manual_sort_direction=manual, strict_memory=strict)
    state, dealt = ENGINE.start(n, seed, options)  # deal 1's announcement, from the setup
    assert_events_hide(state, state, None, dealt)
    while ENGINE.result(state) is None:
        for viewer in [*range(n), None]:
            assert_no_leak(state, viewer)
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        legal = ENGINE.legal_actions(state, seat)
        assert "value" not in json.dumps([a.model_dump(mode="json") for a in legal])
        action = rng.choice(legal)
        played = state.hands[seat][action.slot] if isinstance(action, PlayCard) else None
        new, events = ENGINE.apply(state, seat, action)
        assert_events_hide(state, new, played, events)
        state = new
    for viewer in [*range(n), None]:
        assert_no_leak(state, viewer)


def test_illegal_play_messages_name_colours_only() -> None:
    rng = random.Random(3)
    for seed in range(20):
        state = ENGINE.setup(4, seed, LuzOptions())
        while ENGINE.result(state) is None:
            (seat,) = ENGINE.to_act(state)
            legal = ENGINE.legal_actions(state, seat)
            if isinstance(legal[0], PlayCard):
                own = {c for c in state.hands[seat] if c is not None}
                for slot in range(10):
                    if PlayCard(slot=slot) in legal:
                        continue
                    with pytest.raises(IllegalAction) as info:
                        ENGINE.apply(state, seat, PlayCard(slot=slot))
                    assert not _describe_leaks(info.value.message, own)
                    assert "§" in info.value.message
            state = ENGINE.apply(state, seat, rng.choice(legal)).state
