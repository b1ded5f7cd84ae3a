"""One final ranking says everything about a game resignations re-ranked (issue 35).

For every game: real finished games whose seats tie, with one or two seats resigned
("last": ranked after everybody still in). ``result.places``, ``result.tiebreak``,
``tiebreak_text`` (es, en) and the ``game_ended`` log line (es, en) must all read the one
final ranking: no explanation gives a seat another place than ``places`` gives it, none
explains a tie of a seat that resigned (its resignation ranked it), and the ``game_ended``
line lists every seat at its final place and ends with the same explanation.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from app.games import REGISTRY
from app.games.base import Engine, describe_event
from app.games.messages import LOCALES, Items, Message, SeatRef
from app.tables.outcomes import final_messages, resign_messages, with_resignations
from app.tables.presenter import Presenter
from tests.support.playthrough import play_steps

PRESENTER = Presenter(lambda _table: set(), lambda: 0.0)
SEATS = 4
# Parameters through which a tie's message names seats by number (counted from 1).
_NUMBERED = ("first", "last", "list")


def _finished(engine: Engine, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A random game of four played to its end: the engine's result and its game_ended."""
    steps = list(play_steps(engine, SEATS, seed, "random"))
    result = engine.result(steps[-1].next_state)
    assert result is not None
    ended = [e.model_dump(mode="json") for e in steps[-1].events if e.type == "game_ended"]
    assert len(ended) == 1, f"{engine.info.id}: the last move logs one game_ended"
    return result.model_dump(mode="json"), ended[0]


def _tied_games(engine: Engine, wanted: int = 3) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Finished games where two seats tie on score (the places tell how the rules broke it)."""
    found = 0
    for seed in range(400):
        result, ended = _finished(engine, seed)
        scores = list(result["scores"].values())
        if len(set(scores)) < len(scores):
            found += 1
            yield result, ended
            if found == wanted:
                return
    raise AssertionError(f"{engine.info.id}: no tie in 400 games")


def _resignations() -> Iterator[tuple[int, ...]]:
    """Every seat alone, and every two seats in either order (two always stay in)."""
    yield from ((s,) for s in range(SEATS))
    yield from itertools.permutations(range(SEATS), 2)


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, Message):
        for param in value.params.values():
            yield from _walk(param)
    elif isinstance(value, Items):
        for item in value.items:
            yield from _walk(item)
    elif isinstance(value, SeatRef) and value.label is not None:
        yield from _walk(value.label)


def _seats_named(message: Message) -> set[int]:
    """The seats a message names: as seats, or by number in a tie's list of seats."""
    seats = {v.seat for v in _walk(message) if isinstance(v, SeatRef)}
    for part in _walk(message):
        if isinstance(part, Message):
            for name in _NUMBERED:
                value = part.params.get(name)
                numbers = value.items if isinstance(value, Items) else (value,)
                seats |= {n - 1 for n in numbers if isinstance(n, int) and not isinstance(n, bool)}
    return seats


def _check_explanation(engine: Engine, final: dict[str, Any]) -> None:
    """The game's explanation of the ties reads the final places and leaves resigned seats
    to their own lines."""
    places = {int(k): v for k, v in final["places"].items()}
    resigned = set(final["resigned"])
    explanation = final_messages(engine, final)
    assert explanation[1:] == resign_messages(final)
    for part in _walk(explanation[0]):
        if not isinstance(part, Message):
            continue
        named = _seats_named(part)
        # MINE! names its dummy director as a director past the seats: not a seat.
        named = {s for s in named if s < SEATS}
        assert not named & resigned, (engine.info.id, part, final)
        if isinstance(part.params.get("place"), int):
            assert all(places[s] == part.params["place"] for s in named), (part, places)


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_places_tiebreak_texts_and_the_end_line_read_one_final_ranking(game: str) -> None:
    engine = REGISTRY[game]
    moved = 0
    for result, ended in _tied_games(engine):
        for resigned in _resignations():
            final = with_resignations(result, list(resigned), "last", engine)
            places = {int(k): v for k, v in final["places"].items()}
            moved += places != {int(k): v for k, v in result["places"].items()}
            _check_explanation(engine, final)
            english = PRESENTER.with_result_text(engine, final, "en")
            assert english is not None
            # The English record is the English reading of the final ranking.
            assert final["tiebreak"] == english["tiebreak_text"]
            for lang in LOCALES:
                shown = PRESENTER.with_result_text(engine, final, lang)
                assert shown is not None
                text = shown["tiebreak_text"]
                # It ends with a line per resigned seat, in the order they resigned.
                assert len(text.splitlines()) >= len(resigned)
                line = PRESENTER.readable(engine, ended, lang, final)
                rows = line["text"].splitlines()
                # The same explanation closes the end's line...
                if text:
                    assert rows[-len(text.splitlines()) :] == text.splitlines()
                # ...after every seat and automatic opponent at its final place.
                listed = line["message"]["params"]["lines"]["list"][1:]
                by_seat = {
                    row["params"]["who"]["seat"]: row["params"]["place"]
                    for row in listed
                    if row.get("key", "").startswith("table.line.final_place")
                    and isinstance(row["params"]["who"], dict)
                    and "seat" in row["params"]["who"]
                }
                assert by_seat == places
                others = [
                    row["params"]["place"]
                    for row in listed
                    if row.get("key", "").startswith("table.line.final_place")
                    and "seat" not in row["params"]["who"]
                ]
                assert others == [o["place"] for o in final.get("others", [])]
                flagged = {
                    row["params"]["who"]["seat"]
                    for row in listed
                    if row.get("key") == "table.line.final_place_resigned"
                }
                assert flagged == set(resigned)
                assert "null" not in line["text"] and "None" not in line["text"]
    # The resignations did move seats in these games (the places the texts must follow).
    assert moved > 0


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_without_resignations_the_engine_says_it_all(game: str) -> None:
    """A result no resignation re-ranked keeps the engine's own record and end line."""
    engine = REGISTRY[game]
    result, ended = _finished(engine, 1)
    for mode, resigned in (("last", []), ("bot", [0])):
        final = with_resignations(result, resigned, mode, engine)
        assert final["tiebreak"] == result["tiebreak"] and final["places"] == result["places"]
        for lang in LOCALES:
            line = PRESENTER.readable(engine, ended, lang, final)
            assert line["text"] == describe_event(engine, ended, lang)
