"""One conformance suite over every registered game (and the test game).

Plays seeded games with bots (normal and random levels) at every seat and checks
the engine protocol: to_act non-empty until the result, the game ends within
max_length, every legal action round-trips through JSON and applies, an
unlisted action is refused, the state round-trips, apply never mutates its
input, replay from seed + log equals the final state. Also: the rules-page figures are
states the engine accepts, every emitted event parses back through ``Event``, and an
action ``undoable`` allows revealed nothing and drew no chance.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from app.games import REGISTRY
from app.games.base import Engine, Figure, RulesError, action_adapter, parse_action, parse_event
from tests.support.pickgame import PICK
from tests.support.playthrough import draws, play_steps, sample_games
from tests.support.unions import type_names

ENGINES: dict[str, Engine] = {"pick": PICK, **REGISTRY}  # type: ignore[dict-item]


def _dump(model: BaseModel) -> str:
    return json.dumps(model.model_dump(mode="json"), sort_keys=True)


def play(
    engine: Engine, n: int, seed: int, level: str, check_every: int = 1
) -> tuple[Any, list[tuple[int, Any]]]:
    options = engine.Options()
    state = engine.setup(n, seed, options)
    log: list[tuple[int, Any]] = []
    rng = random.Random(seed)
    adapter = action_adapter(engine)
    for step in range(engine.max_length(n) + 1):
        result = engine.result(state)
        to_act = engine.to_act(state)
        if result is not None:
            assert not to_act
            return state, log
        assert to_act, "nobody to act but no result"
        seat = min(to_act)
        legal = engine.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        for other in range(n):
            if other not in to_act:
                assert engine.legal_actions(state, other) == []
        view = engine.view(state, seat)
        action = engine.bot(view, legal, rng, level)
        assert action in legal
        if step % check_every == 0:
            for candidate in legal:
                assert adapter.validate_python(candidate.model_dump(mode="json")) == candidate
            before = _dump(state)
            restored = engine.State.model_validate(json.loads(before))
            assert _dump(restored) == before
            engine.apply(state, seat, legal[-1])
            assert _dump(state) == before, "apply mutated its input"
        state, _events = engine.apply(
            state, seat, parse_action(engine, action.model_dump(mode="json"))
        )
        log.append((seat, action.model_dump(mode="json")))
    raise AssertionError(f"game did not end within max_length={engine.max_length(n)}")


@pytest.mark.parametrize("game_id", sorted(ENGINES))
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), data=st.data())
def test_bots_play_to_the_end_and_replay_matches(
    game_id: str, seed: int, data: st.DataObject
) -> None:
    engine = ENGINES[game_id]
    n = data.draw(st.integers(engine.info.min_players, engine.info.max_players), label="players")
    level = data.draw(st.sampled_from(engine.info.bot_levels), label="level")
    final, log = play(engine, n, seed, level, check_every=7)
    replayed = engine.setup(n, seed, engine.Options())
    for seat, action in log:
        replayed, _ = engine.apply(replayed, seat, parse_action(engine, action))
    assert _dump(replayed) == _dump(final)
    result = engine.result(final)
    assert result is not None
    assert sorted(result.ranking) == list(range(n)) and set(result.scores) == set(range(n))


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_an_action_from_a_seat_not_to_act_is_refused(game_id: str) -> None:
    engine = ENGINES[game_id]
    n = engine.info.max_players
    state = engine.setup(n, 1234, engine.Options())
    to_act = engine.to_act(state)
    idle = [s for s in range(n) if s not in to_act]
    if not idle:
        pytest.skip("every seat acts at once at the start")
    actor = min(to_act)
    action = engine.legal_actions(state, actor)[0]
    with pytest.raises(RulesError):
        engine.apply(state, idle[0], action)


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_info_options_and_schemas_are_well_formed(game_id: str) -> None:
    engine = ENGINES[game_id]
    assert engine.info.id == game_id
    assert 1 <= engine.info.min_players <= engine.info.max_players
    assert "normal" in engine.info.bot_levels and "random" in engine.info.bot_levels
    json.dumps(engine.Options.model_json_schema())
    schema = action_adapter(engine).json_schema()
    assert (
        "oneOf" in schema or "anyOf" in schema or "$ref" in schema or schema.get("type") == "object"
    )
    assert engine.max_length(engine.info.max_players) > 0


# --------------------------------------------------------------------------- figures, events, undo


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_figures_are_real_states_the_engine_accepts(game_id: str) -> None:
    engine = ENGINES[game_id]
    figures = dict(engine.figures)
    if game_id in REGISTRY:
        assert len(figures) >= 3, f"{game_id}: the rules page needs at least 3 figures"
    for name, build in figures.items():
        figure = build()
        where = f"{game_id}/{name}"
        assert isinstance(figure, Figure), where
        assert isinstance(figure.caption, str) and figure.caption.strip(), where
        state, seat = figure.state, figure.seat
        assert isinstance(state, engine.State), where
        assert seat is None or (isinstance(seat, int) and seat >= 0), where
        dumped = _dump(state)
        assert _dump(engine.State.model_validate(json.loads(dumped))) == dumped, where
        assert _dump(build().state) == dumped, f"{where} is not deterministic"
        to_act = engine.to_act(state)
        result = engine.result(state)
        assert bool(to_act) == (result is None), where
        json.dumps(engine.view(state, seat).model_dump(mode="json"))
        if seat is not None:
            adapter = action_adapter(engine)
            for action in engine.legal_actions(state, seat):
                assert adapter.validate_python(action.model_dump(mode="json")) == action, where


def _games(engine: Engine) -> Any:
    for n, seed, level in sample_games(engine, per_count=1):
        yield from play_steps(engine, n, seed, level)


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_every_emitted_event_parses_back_through_the_event_union(game_id: str) -> None:
    engine = ENGINES[game_id]
    declared = set(type_names(engine.Event))
    for step in _games(engine):
        for event in step.events:
            assert event.type in declared, f"{game_id}: {event.type} is not in Event"
            data = event.model_dump(mode="json")
            parsed = parse_event(engine, json.loads(json.dumps(data)))
            assert type(parsed) is type(event), f"{game_id}: {event.type}"
            assert parsed.model_dump(mode="json") == data, f"{game_id}: {event.type}"


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_undoable_actions_reveal_nothing_and_draw_no_chance(game_id: str) -> None:
    """Whenever undoable says yes, applying the action showed nobody anything new (every
    event public) and the Rng did not move; checked for the chosen action at every step
    and for every legal action at some steps."""
    engine = ENGINES[game_id]
    checked = 0
    for index, step in enumerate(_games(engine)):
        before = draws(step.state)
        assert before, f"{game_id}: the state holds no Rng"
        candidates = step.legal if index % 5 == 0 else [step.action]
        for action in candidates:
            verdict = engine.undoable(step.state, step.seat, action)
            assert isinstance(verdict, bool), f"{game_id}: undoable gave {verdict!r}"
            if not verdict:
                continue
            checked += 1
            if action == step.action:
                after, events = step.next_state, step.events
            else:
                after, events = engine.apply(step.state, step.seat, action)
            hidden = [e.type for e in events if e.visible_to is not None]
            where = f"{game_id}: undoable {action!r}"
            assert hidden == [], f"{where} emitted events for some seats only: {hidden}"
            assert draws(after) == before, f"{where} drew chance"
