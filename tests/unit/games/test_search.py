"""The strong bot's search (app/games/search.py), over every game that determinizes."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import pytest

from app.games import REGISTRY, search
from app.games.base import Opponent, Result, SearchBudget, SearchStyle

BUDGET = SearchBudget(iterations=16, seconds=600.0)
STYLES = [
    SearchStyle(),
    SearchStyle(rollout_depth=4, rollout_level="normal", exploration=0.3),
    SearchStyle(rollout_depth=4, rollout_level="normal", candidates=3),
]


def test_a_shared_first_place_splits_the_win_with_automatic_opponents_too() -> None:
    alone = Result(scores={0: 9, 1: 5}, ranking=[0, 1], places={0: 1, 1: 2})
    assert search.win_shares(alone, 2) == [1.0, 0.0]
    tied = Result(scores={0: 9, 1: 9, 2: 1}, ranking=[0, 1, 2], places={0: 1, 1: 1, 2: 3})
    assert search.win_shares(tied, 3) == [0.5, 0.5, 0.0]
    hal = Opponent(id="hal", name="Hal", score=9, place=1)
    with_hal = Result(scores={0: 9}, ranking=[0], places={0: 1}, others=[hal])
    assert search.win_shares(with_hal, 1) == [0.5]
    lost = Result(scores={0: 3}, ranking=[0], places={0: 2}, others=[hal])
    assert search.win_shares(lost, 1) == [0.0]


@pytest.mark.parametrize(
    "style", STYLES, ids=["random-playouts", "normal-playouts", "improving-normal"]
)
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_search_makes_a_legal_move_that_a_seed_and_budget_decide(
    game_id: str, style: SearchStyle
) -> None:
    engine = REGISTRY[game_id]
    n = max(2, engine.info.min_players)
    state = engine.setup(n, 11, engine.Options())
    rng = random.Random(11)
    searched = 0
    while engine.result(state) is None and searched < 3:
        seat = min(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        if len(legal) > 1 and rng.random() < 0.2:
            view = engine.view(state, seat)
            picks = [
                search.choose(engine, view, seat, legal, random.Random(5), BUDGET, style)  # type: ignore[arg-type]
                for _ in range(2)
            ]
            assert picks[0] in legal and picks[0] == picks[1]
            searched += 1
        state = engine.apply(state, seat, legal[rng.randrange(len(legal))]).state
    assert searched == 3


# A toy game for the rollout search: seat 0 banks points, then seat 1 may raid them; the
# raider scores what it takes. "greedy" banks 3 but leaves them to a raid, and loses;
# "safe" banks 2 out of reach and wins; "meek" banks 1 out of reach and wins by less. Seat
# 1's bot always raids.
@dataclass(frozen=True)
class Toy:
    banked: int = 0
    raided: int = 0
    turn: int = 0


class ToyRules:
    GAINS: ClassVar[dict[str, tuple[int, bool]]] = {
        "greedy": (3, True),
        "safe": (2, False),
        "meek": (1, False),
    }

    def legal_actions(self, state: Toy, seat: int) -> list[str]:
        if state.turn == 0:
            return list(self.GAINS)
        return ["raid", "wait"]

    def to_act(self, state: Toy) -> frozenset[int]:
        return frozenset() if state.turn == 2 else frozenset({state.turn})

    def apply(self, state: Toy, seat: int, action: str) -> tuple[Toy, list[object]]:
        if state.turn == 0:
            gain, exposed = self.GAINS[action]
            return Toy(banked=gain, raided=4 if exposed else 0, turn=1), []
        took = min(state.raided, state.banked) if action == "raid" else 0
        return Toy(banked=state.banked - took, raided=took, turn=2), []

    def result(self, state: Toy) -> Result | None:
        if state.turn < 2:
            return None
        first = 0 if state.banked > state.raided else 1
        return Result(
            scores={0: state.banked, 1: state.raided},
            ranking=[first, 1 - first],
            places={first: 1, 1 - first: 2},
        )


class ToyEngine:
    rules = ToyRules()
    search_style = SearchStyle(candidates=2, rollout_level="normal", rollout_depth=4)

    def __init__(self, easy_picks: list[str], normal: str = "greedy") -> None:
        self.easy_picks = easy_picks
        self.normal = normal
        self.normal_calls = 0

    def determinize(self, view: Toy, seat: int, rng: random.Random) -> Toy:
        return view

    def evaluate(self, state: Toy) -> list[float]:
        return [state.banked / 4, state.raided / 4]

    def playout_view(self, state: Toy, seat: int) -> Toy:
        return state

    def bot(self, view: Toy, legal: list[str], rng: random.Random, level: str) -> str:
        if view.turn == 1:
            return "raid"
        if level == "normal":
            self.normal_calls += 1
            return self.normal
        return self.easy_picks[rng.randrange(len(self.easy_picks))]


def _improve(engine: ToyEngine, seed: int = 1) -> str:
    legal = engine.rules.legal_actions(Toy(), 0)
    return search.choose(engine, Toy(), 0, legal, random.Random(seed), BUDGET)  # type: ignore[arg-type]


def test_the_rollout_search_plays_the_policys_move_on_and_sees_the_raid_it_invites() -> None:
    # One ply on, "greedy" banks most; played on by the opponent's policy, it is raided.
    engine = ToyEngine(easy_picks=["safe", "greedy"])
    assert _improve(engine) == "safe"
    assert engine.normal_calls >= 1


def test_the_rollout_search_keeps_the_policys_move_when_no_proposal_does_better() -> None:
    assert _improve(ToyEngine(easy_picks=["greedy"])) == "greedy"
    assert _improve(ToyEngine(easy_picks=["meek", "greedy"], normal="safe")) == "safe"


def test_the_rollout_search_weighs_only_the_moves_most_often_proposed() -> None:
    # With room for one proposal, the frequent "meek" is weighed and the rare "safe" is not.
    engine = ToyEngine(easy_picks=["meek"] * 9 + ["safe"])
    narrow = SearchStyle(candidates=1, rollout_level="normal", rollout_depth=4)
    legal = engine.rules.legal_actions(Toy(), 0)
    pick = search.choose(engine, Toy(), 0, legal, random.Random(3), BUDGET, narrow)  # type: ignore[arg-type]
    assert pick == "meek"
    assert _improve(engine, seed=3) == "safe"


def test_only_a_gain_the_rounds_agree_on_replaces_the_bots_move() -> None:
    steady = [[0.5, 0.6, 0.5], [0.4, 0.5, 0.4], [0.7, 0.8, 0.7]]
    assert search._proven_better(steady, caution=1.0) == 1
    # Candidate 2 gains more on average, but by one lucky round: its gain is not proven.
    lucky = [[0.5, 0.6, 0.5], [0.5, 0.6, 0.5], [0.0, 0.1, 1.0], [0.5, 0.55, 0.2]]
    assert search._proven_better(lucky, caution=1.0) == 1
    assert search._proven_better(lucky, caution=0.0) == 2
    assert search._proven_better([[0.0, 1.0, 1.0]], caution=0.0) == 0  # one round is no proof
    assert search._proven_better([[0.5, 0.4], [0.5, 0.5]], caution=0.0) == 0


# A toy of simultaneous rounds: both seats move, then the next round (three in all). Seat 0
# may "bank" 2 points, or take 1 and "bonus" for 0.5 more, a decision of its own that comes
# before seat 1's move; seat 1 always banks 2. Judged one move after its choice, "split" is
# judged after its bonus but before seat 1's move, and looks better than it is.
@dataclass(frozen=True)
class Rounds:
    points: tuple[float, float] = (0.0, 0.0)
    owing: frozenset[int] = frozenset({0, 1})
    bonus: bool = False
    round: int = 1


class RoundsRules:
    def legal_actions(self, state: Rounds, seat: int) -> list[str]:
        if seat == 0 and state.bonus:
            return ["bonus"]
        return ["bank", "split"] if seat == 0 else ["bank"]

    def to_act(self, state: Rounds) -> frozenset[int]:
        if state.round > 3:
            return frozenset()
        return frozenset({0}) if state.bonus else state.owing

    def apply(self, state: Rounds, seat: int, action: str) -> tuple[Rounds, list[object]]:
        gain = {"bank": 2.0, "split": 1.0, "bonus": 0.5}[action]
        points = list(state.points)
        points[seat] += gain
        owing = state.owing - {seat} if action != "bonus" else state.owing
        bonus = action == "split"
        if not owing and not bonus:
            return Rounds((points[0], points[1]), frozenset({0, 1}), False, state.round + 1), []
        return Rounds((points[0], points[1]), owing, bonus, state.round), []

    def result(self, state: Rounds) -> Result | None:
        if state.round <= 3:
            return None
        first = 0 if state.points[0] > state.points[1] else 1
        return Result(
            scores={0: int(state.points[0]), 1: int(state.points[1])},
            ranking=[first, 1 - first],
            places={first: 1, 1 - first: 2},
        )


class RoundsEngine:
    rules = RoundsRules()
    search_style = SearchStyle(candidates=1, rollout_level="normal", rollout_depth=1)

    def determinize(self, view: Rounds, seat: int, rng: random.Random) -> Rounds:
        return view

    def evaluate(self, state: Rounds) -> list[float]:
        lead = (state.points[0] - state.points[1]) / 20
        return [0.5 + lead, 0.5 - lead]

    def playout_view(self, state: Rounds, seat: int) -> Rounds:
        return state

    def bot(self, view: Rounds, legal: list[str], rng: random.Random, level: str) -> str:
        # the normal bot splits (its mistake); the easy one proposes banking
        return "split" if level == "normal" and "split" in legal else legal[0]


def test_a_settled_playout_judges_every_candidate_at_the_start_of_a_round() -> None:
    engine = RoundsEngine()
    legal = engine.rules.legal_actions(Rounds(), 0)
    hasty = engine.search_style
    settled = hasty._replace(settle=True)
    for seed in range(3):
        rng = random.Random(seed)
        assert search.choose(engine, Rounds(), 0, legal, rng, BUDGET, hasty) == "split"  # type: ignore[arg-type]
        rng = random.Random(seed)
        assert search.choose(engine, Rounds(), 0, legal, rng, BUDGET, settled) == "bank"  # type: ignore[arg-type]
