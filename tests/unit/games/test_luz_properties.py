"""Property tests: random seeded Luz games at 3, 4 and 5 players, every invariant after every action."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from app.games.base import Event, GameOver, IllegalAction, NotYourTurn, Result
from app.games.luz import ENGINE
from app.games.luz.actions import ChooseHighEnd, LuzAction, PlaceBet, PlayCard
from app.games.luz.data import deck
from app.games.luz.events import DealScored, DealStarted, TrickWon
from app.games.luz.rules import LuzOptions, LuzState, deal_points, trick_winner, trump_of

ACTIONS: TypeAdapter[Any] = TypeAdapter(LuzAction)


@st.composite
def tables(draw: st.DrawFn, n: int) -> tuple[int, int, LuzOptions]:
    """A seed and options for an ``n``-player table."""
    seed = draw(st.integers(min_value=0, max_value=2**64 - 1))
    options = LuzOptions(
        first_player=draw(st.none() | st.integers(min_value=0, max_value=n - 1)),
        trump=draw(st.sampled_from(["yellow", "none"])),
        safety_miss_from=draw(st.sampled_from(["bet", "nearest"])),
        first_player_rotation=draw(st.sampled_from(["left", "fixed"])),
        manual_sort_direction=draw(st.booleans()),
        strict_memory=draw(st.booleans()),
    )
    return n, seed, options


def check_invariants(state: LuzState) -> None:
    """Cards conserved, trick bookkeeping consistent, scores = sum of deal points."""
    n = state.n_players
    held = [c for hand in state.hands for c in hand if c is not None]
    played = [p.card for t in state.tricks for p in t.plays] + [p.card for p in state.trick]
    everything = held + played + state.undealt
    assert Counter(everything) == Counter(deck(n)), "cards are not conserved"
    assert len(state.undealt) == 10
    for seat in range(n):
        in_hand = sum(1 for c in state.hands[seat] if c is not None)
        played_by = sum(1 for t in state.tricks for p in t.plays if p.seat == seat)
        played_by += sum(1 for p in state.trick if p.seat == seat)
        assert in_hand + played_by == 10
    assert len(state.tricks) <= 10
    assert sum(state.tricks_won) == len(state.tricks)
    for number, trick in enumerate(state.tricks, start=1):
        assert trick.number == number
        assert sorted(p.seat for p in trick.plays) == list(range(n))
        assert [p.seat for p in trick.plays] == [(trick.leader + i) % n for i in range(n)]
        assert trick.winner == trick_winner(trick.plays, trump_of(state.options))
    for seat in range(n):
        assert state.tricks_won[seat] == sum(1 for t in state.tricks if t.winner == seat)
    assert len(state.history) == state.deal - (0 if state.phase == "finished" else 1)
    for d, rows in enumerate(state.history, start=1):
        assert sum(r.won for r in rows) == 10, "a deal must have exactly 10 tricks"
        for r in rows:
            assert r.points == deal_points(
                d, r.bet, r.safety, r.won, state.options.safety_miss_from
            )
    for seat in range(n):
        assert state.scores[seat] == sum(rows[seat].points for rows in state.history)


def check_round_trips(state: LuzState, legal: list[Any]) -> None:
    dumped = state.model_dump_json()
    assert LuzState.model_validate_json(dumped).model_dump_json() == dumped
    assert LuzState.model_validate(state.model_dump(mode="json")).model_dump_json() == dumped
    for action in legal:
        data = action.model_dump(mode="json")
        assert ACTIONS.validate_python(data) == action
        assert ACTIONS.validate_json(action.model_dump_json()) == action
        # The server validates actions strictly, from JSON: nothing may need coercing.
        assert ACTIONS.validate_json(json.dumps(data).encode(), strict=True) == action


def unlisted_action(state: LuzState, seat: int, legal: list[Any]) -> Any:
    """An action of the right shape that is not in ``legal`` (None if every shape is legal)."""
    candidates: list[Any] = [PlayCard(slot=i) for i in range(-1, 11)]
    candidates += [PlaceBet(tricks=11), PlaceBet(tricks=-1), ChooseHighEnd(side="left")]
    candidates += [PlaceBet(tricks=3)]
    for action in candidates:
        if action not in legal:
            return action
    return None


def play_random_game(
    n: int, seed: int, options: LuzOptions, *, every_legal: bool = True
) -> tuple[LuzState, list[tuple[int, Any]], list[list[Event]]]:
    """Play a game with uniform legal actions, checking every invariant after every action.

    The first batch of events is the setup's (``start``), the others one per action.
    """
    rng = random.Random(seed)
    state, setup_events = ENGINE.start(n, seed, options)
    assert state.model_dump_json() == ENGINE.setup(n, seed, options).model_dump_json()
    log: list[tuple[int, Any]] = []
    batches: list[list[Event]] = [setup_events]
    limit = ENGINE.max_length(n)
    while (res := ENGINE.result(state)) is None:
        check_invariants(state)
        actors = ENGINE.to_act(state)
        assert actors, "a running game must have someone to act"
        for seat in range(n):
            if seat not in actors:
                assert ENGINE.legal_actions(state, seat) == []
        seat = rng.choice(sorted(actors))
        legal = ENGINE.legal_actions(state, seat)
        assert legal
        assert legal == ENGINE.legal_actions(state, seat), "legal_actions must be deterministic"
        check_round_trips(state, legal)
        before = state.model_dump_json()
        if every_legal:
            for action in legal:  # every listed action, sent back as JSON, is accepted
                ENGINE.apply(state, seat, action.model_dump(mode="json"))
        bad = unlisted_action(state, seat, legal)
        if bad is not None:
            with pytest.raises(IllegalAction):
                ENGINE.apply(state, seat, bad)
        others = [s for s in range(n) if s not in actors]
        if others:
            with pytest.raises((NotYourTurn, IllegalAction)):
                ENGINE.apply(state, others[0], legal[0])
        action = rng.choice(legal)
        new, events = ENGINE.apply(state, seat, action)
        assert state.model_dump_json() == before, "apply mutated its input"
        log.append((seat, action))
        batches.append(events)
        state = new
        assert len(log) <= limit, "the game exceeded max_length"
    check_invariants(state)
    assert ENGINE.to_act(state) == frozenset()
    assert all(ENGINE.legal_actions(state, s) == [] for s in range(n))
    with pytest.raises(GameOver):
        ENGINE.apply(state, 0, PlayCard(slot=0))
    check_result(state, res)
    return state, log, batches


def check_result(state: LuzState, res: Result) -> None:
    assert res.scores == dict(enumerate(state.scores))
    assert sorted(res.ranking) == list(range(state.n_players))
    ordered = [res.scores[s] for s in res.ranking]
    assert ordered == sorted(ordered, reverse=True)
    for a in res.ranking:
        for b in res.ranking:
            assert (res.places[a] == res.places[b]) == (res.scores[a] == res.scores[b])
    assert res.places[res.ranking[0]] == 1
    assert ("tied" in res.tiebreak) == (len(set(state.scores)) < state.n_players)


def check_events(n: int, batches: list[list[Event]]) -> None:
    """4 deals, each announced once and alike, 10 tricks per deal, one winner per trick.

    ``batches[0]`` are the setup's events: deal 1 starts there, announced exactly as the
    later deals are (DealStarted, the public HandsDealt, one HandShown per seat that all
    but its holder see), and nothing else happens there.
    """
    flat = [e for batch in batches for e in batch]
    deals = [e for e in flat if isinstance(e, DealStarted)]
    assert [d.deal for d in deals] == [1, 2, 3, 4]
    announcement = [
        ("hands_dealt", None, None),
        *(("hand_shown", s, frozenset(range(n)) - {s}) for s in range(n)),
    ]
    for deal in deals:
        at = flat.index(deal)
        following = flat[at + 1 : at + 2 + n]
        assert [(e.type, getattr(e, "seat", None), e.visible_to) for e in following] == (
            announcement
        ), f"deal {deal.deal} is announced differently"
    assert batches[0] == [deals[0], *flat[1 : n + 2]]
    tricks = [e for e in flat if isinstance(e, TrickWon)]
    assert len(tricks) == 40
    assert [t.trick_no for t in tricks] == list(range(1, 11)) * 4
    for t in tricks:
        assert len(t.cards) == n and t.seat in {p.seat for p in t.cards}
    assert len([e for e in flat if isinstance(e, DealScored)]) == 4


def check_replay(
    n: int, seed: int, options: LuzOptions, log: list[tuple[int, Any]], final: LuzState
) -> None:
    """Setup from seed + options (as JSON) and the action log (as JSON) rebuilds the state."""
    replay = ENGINE.setup(n, seed, LuzOptions.model_validate(options.model_dump(mode="json")))
    for seat, action in log:
        replay = ENGINE.apply(replay, seat, action.model_dump(mode="json")).state
    assert replay.model_dump_json() == final.model_dump_json()
    assert ENGINE.result(replay) == ENGINE.result(final)


@pytest.mark.parametrize("n", [3, 4, 5])
@given(data=st.data())
def test_random_games_keep_every_invariant_and_replay(n: int, data: st.DataObject) -> None:
    n, seed, options = data.draw(tables(n))
    raw = json.dumps(options.model_dump(mode="json")).encode()
    assert TypeAdapter(ENGINE.Options).validate_json(raw, strict=True) == options
    final, log, batches = play_random_game(n, seed, options)
    check_events(n, batches)
    check_replay(n, seed, options, log, final)
