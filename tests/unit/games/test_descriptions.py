"""Every event and action of every game reads as a sentence, in Spanish and in English.

The log and the rules pages show ``engine.describe(item, locale)``. Real events come
from seeded bot games (every player count, normal and random bots); the event types a
game rarely emits come from tests/unit/games/event_samples_<game>.py (``SAMPLES``),
written with each game. Every member of ``engine.Event`` must be covered, and every
legal action type seen in those games must be described too.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from typing import Any

import pytest
from pydantic import BaseModel

from app.games import REGISTRY
from app.games.base import Engine
from tests.support.pickgame import PICK
from tests.support.playthrough import play_steps, sample_games
from tests.support.unions import type_names, union_members

ENGINES: dict[str, Engine] = {"pick": PICK, **REGISTRY}  # type: ignore[dict-item]
LOCALES = ("es", "en")
EXAMPLES_PER_TYPE = 40  # distinct items described per type (enough variety, bounded time)

# Leftovers of a template that was never filled: {x}, %s, %(x)s, ${x}, <x>.
_PLACEHOLDER = re.compile(r"\{|\}|%\(?\w*\)?[sd]\b|\$\{|<[a-z_]+>")
# A plural left to the reader ("card(s)", "gana(n)", "jugador(es)"): the lines say 1 card, 2 cards.
_BOTH_NUMBERS = re.compile(r"\w\((s|n|es)\)")
# What people cannot find on a board or in a hand: raw coordinates ("[1, 3]") and, in
# Ginkgopolis, character codes ("C07") where the card has a name.
_RAW_CELL = re.compile(r"\[-?\d+, -?\d+\]")
_RAW_NAMES = {"ginkgopolis": re.compile(r"\bC\d\d\b")}

_PARAMS = sorted(ENGINES)


def _samples(game_id: str) -> list[BaseModel]:
    try:
        module = importlib.import_module(f"tests.unit.games.event_samples_{game_id}")
    except ModuleNotFoundError as err:
        if err.name != f"tests.unit.games.event_samples_{game_id}":
            raise
        return []
    return list(module.SAMPLES)


@cache
def _collected(game_id: str) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Examples by type: (events, legal actions) from the seeded games plus the samples."""
    engine = ENGINES[game_id]
    events: dict[str, list[Any]] = {}
    actions: dict[str, list[Any]] = {}

    def keep(bucket: dict[str, list[Any]], item: Any) -> None:
        examples = bucket.setdefault(item.type, [])
        if len(examples) < EXAMPLES_PER_TYPE and item not in examples:
            examples.append(item)

    for n, seed, level in sample_games(engine):
        for step in play_steps(engine, n, seed, level):
            for event in step.events:
                keep(events, event)
            for action in step.legal:
                keep(actions, action)
    for sample in _samples(game_id):
        keep(events, sample)
    return events, actions


def _check_line(game_id: str, engine: Engine, item: BaseModel) -> tuple[str, str]:
    lines = []
    for locale in LOCALES:
        text = engine.describe(item, locale)  # type: ignore[arg-type]
        where = f"{game_id} {item.type} ({locale}): {text!r} for {item!r}"
        assert isinstance(text, str) and text.strip(), where
        names = {type(item).__name__.lower(), item.type.lower(), item.type.replace("_", " ")}
        assert text.strip().lower() not in names, f"{where} is only the type's name"
        assert "None" not in text, where
        assert not _PLACEHOLDER.search(text), f"{where} has an unfilled placeholder"
        assert not _BOTH_NUMBERS.search(text), f"{where} leaves singular or plural open"
        assert not _RAW_CELL.search(text), f"{where} names a cell by its coordinates"
        raw = _RAW_NAMES.get(game_id)
        assert raw is None or not raw.search(text), f"{where} names a card by its code"
        assert all(line.strip() for line in text.split("\n")), f"{where} has an empty line"
        lines.append(text)
    return lines[0], lines[1]


@pytest.mark.parametrize("game_id", _PARAMS)
def test_every_event_type_is_described_in_both_languages(game_id: str) -> None:
    engine = ENGINES[game_id]
    events, _ = _collected(game_id)
    declared = type_names(engine.Event)
    missing = [t for t in declared if t not in events]
    assert missing == [], (
        f"{game_id}: no game or sample emitted {missing}; add them to "
        f"tests/unit/games/event_samples_{game_id}.py"
    )
    members = {m.__name__ for m in union_members(engine.Event)}
    translated = 0
    for examples in events.values():
        for event in examples:
            assert type(event).__name__ in members, f"{game_id}: {event!r} is not in Event"
            es, en = _check_line(game_id, engine, event)
            translated += es != en
    assert translated, f"{game_id}: the Spanish and English lines are all the same"


@pytest.mark.parametrize("game_id", _PARAMS)
def test_every_legal_action_type_seen_is_described(game_id: str) -> None:
    engine = ENGINES[game_id]
    _, actions = _collected(game_id)
    assert actions, f"{game_id}: the games offered no action"
    unknown = set(actions) - set(type_names(engine.Action))
    assert not unknown, f"{game_id}: legal actions outside the Action union: {unknown}"
    for examples in actions.values():
        for action in examples:
            _check_line(game_id, engine, action)


# A number written as text ("3", "-2", "+5"): a message's parameters carry numbers as JSON
# numbers, so that a client may format, compare or pluralise them (issue 35: MINE!'s die
# card limits were strings).
_NUMBER_TEXT = re.compile(r"[+-]?\d+(\.\d+)?")


def _number_texts(value: Any, where: str = "") -> list[str]:
    """The parameters of a message's JSON (``to_json``) that are numbers written as text."""
    if isinstance(value, dict):
        if "key" in value:
            params = value.get("params", {})
            return [t for k, v in params.items() for t in _number_texts(v, f"{where}.{k}")]
        return [t for k, v in value.items() for t in _number_texts(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [t for i, v in enumerate(value) for t in _number_texts(v, f"{where}.{i}")]
    if isinstance(value, str) and _NUMBER_TEXT.fullmatch(value):
        return [f"{where}={value!r}"]
    return []


@pytest.mark.parametrize("game_id", _PARAMS)
def test_the_numbers_of_every_line_are_json_numbers(game_id: str) -> None:
    """Every event and action type of the game (as the log's ``message`` gives them with
    ``?lang=``): no parameter is a number written as a string."""
    engine = ENGINES[game_id]
    events, actions = _collected(game_id)
    found = [
        f"{item.type}: {text}"
        for examples in (*events.values(), *actions.values())
        for item in examples
        for text in _number_texts(engine.message(item).to_json())
    ]
    assert not found, f"{game_id}: numbers as text in {found[:10]}"
