"""Glück Auf's bot levels (issue 21): easy, normal, strong, and the judgement the search uses.

The ladder (benchmarks/ladder.py) measures how the levels rank; these tests hold what must
always be true: every level picks a legal action from its seat's view, the same seed picks
the same, and ``evaluate`` gives every seat prospects in [0, 1] that end on the result.
"""

from __future__ import annotations

import random

import pytest

from app.games import search
from app.games.base import SearchBudget
from app.games.gluckauf import ENGINE
from app.games.gluckauf.bot import evaluate, finish_mining
from app.games.gluckauf.rules import GluckaufOptions, GluckaufState

TINY = SearchBudget(iterations=12, seconds=30.0)


def _states(n: int, seed: int, level: str = "random") -> list[GluckaufState]:
    """Every state of a seeded game with ``level`` bots at every seat, the last one finished."""
    s = ENGINE.setup(n, seed, GluckaufOptions())
    assert isinstance(s, GluckaufState)
    rng = random.Random(seed)
    out = [s]
    while ENGINE.result(s) is None:
        (seat,) = ENGINE.to_act(s)
        legal = ENGINE.legal_actions(s, seat)
        s = ENGINE.apply(s, seat, ENGINE.bot(ENGINE.view(s, seat), legal, rng, level)).state
        out.append(s)
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_evaluate_gives_every_seat_prospects_in_0_1_and_ends_on_the_result(n: int) -> None:
    states = _states(n, 40 + n)
    for s in states[::9]:
        prospects = evaluate(s)
        assert len(prospects) == n and all(0.0 <= p <= 1.0 for p in prospects)
    final = states[-1]
    result = ENGINE.result(final)
    assert result is not None
    prospects = evaluate(final)
    winner = result.ranking[0]
    assert prospects[winner] == max(prospects)
    if list(result.places.values()).count(1) == 1:
        assert all(prospects[winner] > p for seat, p in enumerate(prospects) if seat != winner)


def test_evaluate_sees_identical_seats_as_even() -> None:
    s = ENGINE.setup(2, 3, GluckaufOptions())
    assert isinstance(s, GluckaufState)
    twin = s.model_copy(deep=True)
    twin.players[1] = twin.players[0].model_copy(deep=True)
    assert evaluate(twin) == pytest.approx([0.5, 0.5])


def test_finish_mining_plays_out_the_mining_under_way_and_leaves_its_input() -> None:
    mining = [s for s in _states(2, 11, "normal") if s.phase == "mining"]
    assert mining
    for s in mining[::5]:
        before = s.model_dump_json()
        done = finish_mining(s)
        assert s.model_dump_json() == before
        assert done.phase not in ("mining", "two_for_one")
    other = _states(2, 11)[0]
    assert finish_mining(other) is other


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_level_plays_legal_moves_to_the_end_and_repeats_itself(level: str) -> None:
    first = _states(3, 5, level)
    again = _states(3, 5, level)
    assert first[-1].model_dump_json() == again[-1].model_dump_json()
    assert ENGINE.result(first[-1]) is not None


def test_the_search_picks_a_legal_move_from_its_view_and_repeats_itself() -> None:
    states = _states(2, 9)
    for s in (states[10], states[len(states) // 2], states[-2]):
        (seat,) = ENGINE.to_act(s)
        legal = ENGINE.legal_actions(s, seat)
        view = ENGINE.view(s, seat)
        choice = search.choose(ENGINE, view, seat, legal, random.Random(1), TINY)
        assert choice in legal
        again = search.choose(ENGINE, view, seat, legal, random.Random(1), TINY)
        assert again == choice


def test_the_levels_are_offered() -> None:
    # Strong since its search beats the normal bot on the ladder (docs/BOTS.md).
    assert ENGINE.info.bot_levels == ("easy", "normal", "strong", "random")
