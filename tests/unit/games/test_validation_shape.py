"""Issue 19.2: one validation shape per engine.

Every engine's rules module decides whether a seat may take an action with one check,
``action_problem(state, seat, action)``: None if it may, else the RulesError that ``apply``
raises. ``legal_actions`` lists exactly what that check accepts. Over seeded games of every
engine this holds the three to each other at every step: each listed action passes the
check; each candidate action (listed ones sent by every other seat, listed ones with a
field changed, actions listed earlier in the game) that the check accepts is listed, and
each one it refuses ``apply`` refuses with the very same error (class, message, reason,
params).
"""

from __future__ import annotations

import importlib
import random
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any, Literal, get_args, get_origin

import pytest
from pydantic import BaseModel, ValidationError

from app.games import REGISTRY
from app.games.base import Engine, RulesError
from tests.support.playthrough import play_steps
from tests.support.unions import union_members

Problem = Callable[[Any, int, Any], RulesError | None]

# Candidates tried per step, at most: enough to meet every refusal many times over a game,
# few enough that the four engines take seconds.
PER_STEP = 24


def _problem(game: str) -> Problem:
    rules = importlib.import_module(f"app.games.{game}.rules")
    check: Problem = rules.action_problem
    return check


def _games(engine: Engine) -> Iterator[tuple[int, int, str]]:
    """Two games per engine: the fewest seats with bots, the most with random players."""
    yield engine.info.min_players, 19, "normal"
    yield engine.info.max_players, 1019, "random"


def _literals(annotation: Any) -> list[Any]:
    """The values a field's ``Literal`` (possibly inside an optional or a union) allows."""
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    if get_origin(annotation) in (typing.Union, types.UnionType):
        return [v for arg in get_args(annotation) for v in _literals(arg)]
    return []


def _invented(
    kinds: list[type[BaseModel]],
    now: dict[str, list[Any]],
    fields: dict[str, list[Any]],
    rng: random.Random,
) -> Iterator[BaseModel]:
    """Actions of every kind put together from field values of the actions listed now, of
    those listed earlier in the game and of those the action models allow: a source of
    candidates that does not come from legal_actions alone, so that an action the check
    accepts but legal_actions forgets is found too."""
    for kind in kinds:
        for _ in range(4):
            data: dict[str, Any] = {}
            for name, info in kind.model_fields.items():
                if name == "type":
                    continue
                pool = [*fields.get(name, []), *_literals(info.annotation), None]
                current = now.get(name)
                data[name] = rng.choice(current if current and rng.random() < 0.6 else pool)
            try:
                yield kind.model_validate(data)
            except ValidationError:
                continue


def _changed(value: Any, pool: list[Any]) -> list[Any]:
    """Values to put in a field instead of ``value``: its neighbours, and what the same field
    held in other actions."""
    out: list[Any] = list(pool)
    if isinstance(value, bool):
        out.append(not value)
    elif isinstance(value, int):
        out.extend([value - 1, value + 1, -1, 99])
    elif isinstance(value, tuple | list) and len(value) == 2:
        x, y = value
        out.extend([(x + 1, y), (x, y - 1)])
    elif isinstance(value, str):
        out.append(value + "x")
    out.append(None)
    return [v for v in out if v != value]


def _mutations(action: BaseModel, fields: dict[str, list[Any]]) -> Iterator[BaseModel]:
    """The action with one field changed, for every change the action model accepts."""
    data = action.model_dump()
    for name, value in data.items():
        if name == "type":
            continue
        for other in _changed(value, fields.get(name, [])):
            try:
                yield type(action).model_validate({**data, name: other})
            except ValidationError:
                continue


def _same_error(got: RulesError, expected: RulesError) -> None:
    assert type(got) is type(expected), (got, expected)
    assert (got.code, got.message, got.reason, got.params) == (
        expected.code,
        expected.message,
        expected.reason,
        expected.params,
    )


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_legal_actions_apply_and_the_refusal_come_from_one_check(game: str) -> None:
    engine = REGISTRY[game]
    problem = _problem(game)
    rng = random.Random(game)
    kinds = union_members(engine.Action)
    refused: dict[str, int] = {}
    for n, seed, level in _games(engine):
        seen: list[BaseModel] = []
        fields: dict[str, list[Any]] = {}
        for step in play_steps(engine, n, seed, level):
            state, seat, legal = step.state, step.seat, step.legal
            now: dict[str, list[Any]] = {}
            for action in legal:
                assert problem(state, seat, action) is None, (game, seat, action)
                for name, value in action.model_dump().items():
                    now.setdefault(name, []).append(value)
                    pool = fields.setdefault(name, [])
                    if value not in pool and len(pool) < 40:
                        pool.append(value)
            candidates: list[BaseModel] = [*legal, *seen[-60:]]
            for action in rng.sample(legal, min(4, len(legal))):
                candidates.extend(_mutations(action, fields))
            tried = rng.sample(candidates, min(PER_STEP, len(candidates)))
            tried.extend(_invented(kinds, now, fields, rng))
            for s in range(n):
                listed = legal if s == seat else engine.legal_actions(state, s)
                for action in tried:
                    expected = problem(state, s, action)
                    if expected is None:
                        assert action in listed, (game, s, action, "accepted but not listed")
                        continue
                    assert action not in listed, (game, s, action, "listed but refused")
                    with pytest.raises(RulesError) as caught:
                        engine.apply(state, s, action)
                    _same_error(caught.value, expected)
                    key = expected.reason or type(expected).__name__
                    refused[key] = refused.get(key, 0) + 1
            seen.extend(rng.sample(legal, min(3, len(legal))))
    # The candidates reach well past "not your turn": the rules of the actions themselves.
    assert len(refused) >= 5, (game, refused)
    assert sum(refused.values()) > 200, (game, refused)
