"""The shortcuts the Ginkgopolis engine takes for speed give what the slow ways give.

``trusted`` builds a model without validating it, ``_fork`` shares what the engine never changes in place: each is held here to the
model, the method or the copy it replaces. (The replay and golden tests hold the whole
engine to its old behaviour; these name the part that broke.)
"""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from app.games.ginkgopolis import ENGINE
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
