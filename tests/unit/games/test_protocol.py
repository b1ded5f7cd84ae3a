"""One conformance suite over every registered game (and the test game).

Plays seeded games with bots (every level; the strong one on a small budget) at every seat and checks
the engine protocol: to_act non-empty until the result, the game ends within
max_length, every legal action round-trips through JSON and applies, an
unlisted action is refused, the state round-trips, apply never mutates its
input, replay from seed + log equals the final state. Also: a seat that owes no decision
is refused at every step, simultaneous rounds included; the rules-page figures are
states the engine accepts, every emitted event parses back through ``Event``, and an
action ``undoable`` allows revealed nothing and drew no chance. The step-by-step checks
count what they checked, so none of them can pass by meeting nothing to check.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from app.games import REGISTRY
from app.games.base import (
    STRONG,
    Engine,
    Figure,
    IllegalAction,
    NotYourTurn,
    RulesError,
    SearchBudget,
    action_adapter,
    automatic_opponents,
    parse_action,
    parse_event,
)
from tests.support.pickgame import PICK
from tests.support.playthrough import Step, draws, play_steps, sample_games
from tests.support.unions import type_names

#: A few searches per move, and no clock: the same game whatever the machine's speed.
SMALL_SEARCH = SearchBudget(iterations=2, seconds=60.0)

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
        # The strong level searches at every move with a small budget: it plays whole games
        # from its determinized worlds, which must hold at every point of a game.
        if level == STRONG:
            action = engine.bot(view, legal, rng, level, seat=seat, budget=SMALL_SEARCH)
        else:
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
# Whole games with a copy checked every seventh step are the dearest examples: two fifths of
# the profile's count (8 games per engine in CI, 800 under `long`); each engine's own
# property tests play random games besides.
@settings(max_examples=settings.default.max_examples * 2 // 5)
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
    # The automatic opponents a table ranks when it ends the game early (a solo game
    # resigned) are those the result ranks, from the first state to the last.
    named = [(o.id, o.name) for o in result.others]
    for state in (engine.setup(n, seed, engine.Options()), final):
        assert [(o.id, o.name) for o in automatic_opponents(engine, state)] == named


#: Options besides the defaults that the step-by-step checks also play, because they open
#: phases a default game never reaches: the Ginkgopolis character draft (§16.2) and the Luz
#: high-end choice (§5.2), both simultaneous rounds.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "ginkgopolis": [{"characters": "draft"}],
    "luz": [{"manual_sort_direction": True}],
}


def _games(engine: Engine) -> Iterator[tuple[int, Step]]:
    """The steps of one seeded bot game per player count and bot level, with the default
    options and with each of the game's VARIANTS, each with the table's player count."""
    variants = VARIANTS.get(engine.info.id, [])
    for options in [engine.Options(), *map(engine.Options.model_validate, variants)]:
        for n, seed, level in sample_games(engine, per_count=1):
            for step in play_steps(engine, n, seed, level, options):
                yield n, step


#: The games with simultaneous rounds, where several seats owe a decision at once, and
#: whether their seats choose among different things there: in Ginkgopolis each from its
#: own draft pile, hand and tiles (§16.2, §6.1, §10); in Luz every sorter between the same
#: two high ends (§5.2, option ``manual_sort_direction``). The others have one seat at a time.
SIMULTANEOUS = {"ginkgopolis": True, "luz": False}

#: The refusals a game gives a seat for a decision it has already taken this deal or round,
#: which it checks before whose turn it is (Luz, rules.apply: "repeated decision, turn"), so
#: that the message names the rule. Any other seat outside to_act gets NotYourTurn.
REPEATED_DECISION = {"luz": {"luz.bet_final", "luz.high_end_chosen"}}


def _refusal(engine: Engine, state: Any, seat: int, action: Any) -> RulesError | None:
    """The error ``apply`` raised for ``seat`` taking ``action``, or None if it accepted it."""
    try:
        engine.apply(state, seat, action)
    except RulesError as error:
        return error
    return None


def _owed_nothing(game_id: str, error: RulesError | None) -> bool:
    """Whether ``error`` is the refusal of a seat that owes no decision now: NotYourTurn, or
    the game's own refusal of a decision taken twice."""
    if isinstance(error, NotYourTurn):
        return error.code == "not_your_turn"
    return (
        isinstance(error, IllegalAction)
        and error.code == "illegal_action"
        and error.reason in REPEATED_DECISION.get(game_id, set())
    )


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_an_action_from_a_seat_not_to_act_is_refused(game_id: str) -> None:
    """At every step of the sample games: every seat outside to_act is refused the action just
    taken (NotYourTurn, or the game's refusal of a repeated decision). In a simultaneous round
    also: the seat that has just chosen while others still choose is refused each of its
    choices again (the same refusal), and a seat that must choose is refused the choices of
    another seat that it could not make itself (IllegalAction: its turn, but not its card or
    tile). Each kind must have been tried, or the test would pass checking nothing."""
    engine = ENGINES[game_id]
    idle = together = again = crossed = 0
    for n, step in _games(engine):
        to_act = engine.to_act(step.state)
        where = f"{game_id}, {n} seats, seat {step.seat} to take {step.action!r}"
        for seat in sorted(set(range(n)) - to_act):
            idle += 1
            error = _refusal(engine, step.state, seat, step.action)
            assert _owed_nothing(game_id, error), f"{where}: idle seat {seat} got {error!r}"
        if len(to_act) < 2:
            continue
        together += 1
        waiting = engine.to_act(step.next_state)
        if waiting and step.seat not in waiting:
            for action in step.legal:
                again += 1
                error = _refusal(engine, step.next_state, step.seat, action)
                assert _owed_nothing(game_id, error), f"{where}: chose {action!r} again: {error!r}"
        # Each seat tries the choices of the next seat that must choose (every pair would
        # multiply the cost of a five-seat selection without finding anything new).
        seats = sorted(to_act)
        for seat, other in zip(seats, seats[1:] + seats[:1], strict=True):
            own = engine.legal_actions(step.state, seat)
            for action in engine.legal_actions(step.state, other):
                if action in own:
                    continue
                crossed += 1
                error = _refusal(engine, step.state, seat, action)
                assert isinstance(error, IllegalAction), (
                    f"{where}: seat {seat} took seat {other}'s {action!r}: {error!r}"
                )
                assert error.code == "illegal_action", where
    assert idle > 0, f"{game_id}: no seat was ever idle, so no wrong seat was tried"
    assert (together > 0) == (game_id in SIMULTANEOUS), (
        f"{game_id}: {together} steps had several seats to act; SIMULTANEOUS says otherwise"
    )
    if game_id in SIMULTANEOUS:
        assert again > 0, f"{game_id}: no seat that had chosen was tried again"
        assert (crossed > 0) == SIMULTANEOUS[game_id], (
            f"{game_id}: {crossed} choices of other seats tried; SIMULTANEOUS says otherwise"
        )


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


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_every_emitted_event_parses_back_through_the_event_union(game_id: str) -> None:
    engine = ENGINES[game_id]
    declared = set(type_names(engine.Event))
    for _n, step in _games(engine):
        for event in step.events:
            assert event.type in declared, f"{game_id}: {event.type} is not in Event"
            data = event.model_dump(mode="json")
            parsed = parse_event(engine, json.loads(json.dumps(data)))
            assert type(parsed) is type(event), f"{game_id}: {event.type}"
            assert parsed.model_dump(mode="json") == data, f"{game_id}: {event.type}"


#: Whether a game's rules let a seat take anything back: Luz never (§9 "No takebacks"); the
#: others have actions that reveal nothing and draw no chance.
TAKES_BACK = {"pick": True, "ginkgopolis": True, "gluckauf": True, "luz": False, "mine": True}


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_undoable_actions_reveal_nothing_and_draw_no_chance(game_id: str) -> None:
    """Whenever undoable says yes, applying the action showed nobody anything new (every
    event public) and the Rng did not move; checked for the chosen action at every step
    and for every legal action at some steps. The sample games must ask about every action
    type, and a game whose rules allow take-backs must have met some (or the check checked
    nothing); Luz must have said no to all."""
    engine = ENGINES[game_id]
    assert game_id in TAKES_BACK, f"{game_id}: say in TAKES_BACK whether its rules allow undo"
    allowed: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for index, (_n, step) in enumerate(_games(engine)):
        before = draws(step.state)
        assert before, f"{game_id}: the state holds no Rng"
        candidates = step.legal if index % 5 == 0 else [step.action]
        for action in candidates:
            verdict = engine.undoable(step.state, step.seat, action)
            assert isinstance(verdict, bool), f"{game_id}: undoable gave {verdict!r}"
            if not verdict:
                refused[action.type] += 1
                continue
            allowed[action.type] += 1
            if action == step.action:
                after, events = step.next_state, step.events
            else:
                after, events = engine.apply(step.state, step.seat, action)
            # Only the acting seat may be told something more, and only what it knew (the
            # order it put a draw's items back in): test_undo_reveals_nothing judges that.
            own = frozenset({step.seat})
            hidden = [e.type for e in events if e.visible_to not in (None, own)]
            where = f"{game_id}: undoable {action!r}"
            assert hidden == [], f"{where} emitted events for other seats only: {hidden}"
            assert draws(after) == before, f"{where} drew chance"
    asked = set(allowed) | set(refused)
    assert asked == set(type_names(engine.Action)), f"{game_id}: asked only about {asked}"
    if TAKES_BACK[game_id]:
        assert allowed, f"{game_id}: undoable never said yes, so nothing above was checked"
        assert refused, f"{game_id}: undoable never said no, not even to a revealing action"
    else:
        assert not allowed, f"{game_id}: the rules allow no take-back, but {dict(allowed)}"
