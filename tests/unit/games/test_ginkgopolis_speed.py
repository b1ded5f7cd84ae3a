"""The shortcuts the Ginkgopolis engine takes for speed give what the slow ways give.

``trusted`` builds a model without validating it, ``_fork`` shares what the engine never changes in place, events are looked up
by their values (``trusted.shared``), queued Steps and listed selections are made once, a legal selection is priced per building
rather than asked of ``selection_problem``: each is held here to the model, the method or the
copy it replaces. (The replay and golden tests hold the whole
engine to its old behaviour; these name the part that broke.)
"""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from app.games.ginkgopolis import ENGINE
from app.games.ginkgopolis import rules as R
from app.games.ginkgopolis.actions import Select
from app.games.ginkgopolis.events import BuiltUp, ItemsGained
from app.games.ginkgopolis.rules import Plan, Step, _fork, _plan, clone
from app.games.trusted import trusted
from tests.unit.games.event_samples_ginkgopolis import SAMPLES


def _same(a: BaseModel, b: BaseModel) -> None:
    assert type(a) is type(b)
    assert a == b
    assert list(a.__dict__) == list(b.__dict__)  # field order: the order of every dump
    assert a.model_fields_set == b.model_fields_set
    assert a.model_dump_json() == b.model_dump_json()
    assert a.model_dump_json(exclude_unset=True) == b.model_dump_json(exclude_unset=True)
    assert repr(a) == repr(b)


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.type)
def test_trusted_builds_the_model_validation_builds(event: BaseModel) -> None:
    given = {name: getattr(event, name) for name in event.model_fields_set}
    _same(trusted(type(event), **given), type(event)(**given))


def test_trusted_fills_defaults_and_factories_afresh() -> None:
    plan: Plan = {"kind": "gain", "player": 2, "colour": "B", "amount": 3, "cell": (1, -2)}
    _same(trusted(Step, **plan), Step(**plan))
    _same(trusted(Step, kind="end_round"), Step(kind="end_round"))
    step = Step.model_validate({"kind": "discard", "player": 1, "card": "R3"})
    _same(trusted(Step, **_plan(step)), step)


def test_a_fork_leaves_the_state_it_was_taken_from_alone() -> None:
    rng = random.Random(4)
    for seed in range(6):
        s = ENGINE.setup(2 + seed % 4, seed, ENGINE.Options())
        while ENGINE.to_act(s):
            seat = min(ENGINE.to_act(s))
            before = s.model_dump_json()
            fork = _fork(s)
            copy = clone(s)
            assert fork == s == copy  # (their fields set: those the copy replaced, as before)
            legal = ENGINE.legal_actions(s, seat)
            s, _ = ENGINE.apply(s, seat, legal[rng.randrange(len(legal))])
            assert fork.model_dump_json() == before == copy.model_dump_json()


def test_a_plan_waits_as_the_step_validation_makes_and_goes_on_as_its_plan() -> None:
    plans: list[Plan] = [
        {"kind": "gain", "player": 2, "colour": "B", "amount": 3, "cell": (1, -2), "card": "B4"},
        {"kind": "resolve", "player": 1},
        {"kind": "end_round"},
        {"kind": "gain", "player": 0, "colour": "Y", "amount": 1, "reason": "bonus C05"},
    ]
    for plan in plans:
        step = R._step_of(dict(plan))  # type: ignore[arg-type]
        _same(step, Step(**plan))
        assert R._step_of(dict(plan)) is step  # type: ignore[arg-type]
        assert _plan(step) == plan
        # a Step made elsewhere (validated, stored) gives its plan the slow way
        assert _plan(Step(**plan)) == plan


def test_listed_selections_are_the_models_validation_makes() -> None:
    for card, tile in [("U-A", None), ("U-A", "R7"), ("B12", "Y3"), ("R1", None)]:
        listed = R._SELECTS[card][tile]
        _same(listed, Select(card=card, tile=tile))
        assert R._SELECTS[card][tile] is listed


def test_looked_up_events_are_the_models_validation_makes() -> None:
    _same(R._GAINED_RESOURCES(1, 2, "U-B"), ItemsGained(player=1, resources=2, reason="U-B"))
    _same(
        R._GAINED_SP_FROM(0, 3, "neighbour", True, "Y7", (2, -1)),
        ItemsGained(player=0, sp=3, reason="neighbour", hal=True, building="Y7", cell=(2, -1)),
    )
    _same(
        R._GAINED_TILES_FROM(2, 1, "B4", "B4", (0, 1)),
        ItemsGained(player=2, tiles=1, reason="B4", building="B4", cell=(0, 1)),
    )
    _same(
        R._BUILT_UP(1, (0, 0), "R9", "B5", 3, 0, 1, False),
        BuiltUp(
            player=1,
            cell=(0, 0),
            tile="R9",
            card="B5",
            height=3,
            sp_cost=0,
            colour_cost=1,
            hal=False,
        ),
    )
    for cell in [(0, 0), (-3, 12), (5, -7)]:
        assert R._KEY[cell] == R.key(cell)


def _selection_problem_accepts(s: R.GinkgopolisState, seat: int) -> list[Select]:
    """The slow way: every card of the hand alone and with every tile, as the check sees it."""
    pl = s.players[seat]
    return [
        Select(card=card, tile=tile)
        for card in R.canon(pl.hand)
        for tile in [None, *pl.tiles]
        if R.selection_problem(s, seat, card, tile) is None
    ]


def test_selections_are_listed_as_the_check_accepts_them() -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(8):
        s = ENGINE.setup(2 + seed % 4, 50 + seed, ENGINE.Options())
        while ENGINE.to_act(s):
            seat = min(ENGINE.to_act(s))
            legal = ENGINE.legal_actions(s, seat)
            if s.phase == "select":
                assert legal == _selection_problem_accepts(s, seat)
                checked += 1
            s, _ = ENGINE.apply(s, seat, legal[rng.randrange(len(legal))])
    assert checked > 100
