"""Automatic opponents in the result and on the board (issue 18.7): Hal in solo Ginkgopolis,
MINE!'s dummy director. They are ranked with the seats in ``Result.others`` so nobody reads
"place 2 of 1", and Hal's card is in the token-move decision the board draws."""

from __future__ import annotations

import random

from app.games.base import Result, dump
from app.games.ginkgopolis import ENGINE as GINKGOPOLIS
from app.games.ginkgopolis.actions import Select, Take
from app.games.ginkgopolis.rules import FinalScore, result
from app.games.mine import ENGINE as MINE
from app.games.mine.rules import MineOptions

from .test_ginkgopolis_examples import _solo_state


def test_the_token_move_for_hal_carries_his_revealed_card() -> None:
    s = _solo_state()
    s, _ = GINKGOPOLIS.apply(s, 0, Select(card="U-H"))
    s, _ = GINKGOPOLIS.apply(s, 0, Take(item="resource"))
    decision = GINKGOPOLIS.view(s, 0).decision
    assert decision is not None
    assert (decision.kind, decision.player, decision.card, decision.letter) == (
        "move_token",
        1,
        "U-D",
        "D",
    )


def _solo_over(you: int, hal: int) -> Result:
    s = _solo_state()
    s.phase = "over"
    s.final = [
        FinalScore(player=0, sp=you, districts=0, cards=0, tokens=0, total=you),
        FinalScore(player=1, sp=hal, districts=0, cards=0, tokens=0, total=hal),
    ]
    r = result(s)
    assert r is not None
    return r


def test_solo_result_ranks_hal_with_the_seat() -> None:
    lost = _solo_over(40, 52)
    assert lost.places == {0: 2}
    assert [(o.id, o.score, o.place) for o in lost.others] == [("hal", 52, 1)]
    won = _solo_over(60, 52)
    assert won.places == {0: 1} and [(o.id, o.place) for o in won.others] == [("hal", 2)]
    # a tie is Hal's (§15): you must have strictly more
    tie = _solo_over(52, 52)
    assert tie.places == {0: 2} and tie.others[0].place == 1
    # the stored JSON round-trips
    assert Result.model_validate(dump(lost)) == lost


def test_results_without_an_opponent_keep_their_json() -> None:
    plain = Result(scores={0: 3, 1: 2}, ranking=[0, 1], places={0: 1, 1: 2})
    assert "others" not in dump(plain)


def test_the_mine_dummy_is_ranked_in_others() -> None:
    state = MINE.setup(2, 11, MineOptions())
    rng = random.Random(11)
    while MINE.result(state) is None:
        (seat,) = MINE.to_act(state)
        legal = MINE.legal_actions(state, seat)
        state, _ = MINE.apply(state, seat, legal[rng.randrange(len(legal))])
    res = MINE.result(state)
    assert res is not None
    (dummy,) = res.others
    assert (dummy.id, dummy.place, dummy.score) == (
        "dummy",
        res.details["dummy"]["place"],
        res.details["dummy"]["score"],
    )
    assert sorted([*res.places.values(), dummy.place]) == [1, 2, 3]
