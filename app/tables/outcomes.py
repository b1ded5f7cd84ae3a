"""Results the table makes itself, when a game ends other than by its rules alone
(issue 18.3): resignations, an early end when every other seat has resigned, a game
cancelled by agreement, a game the host ended. Pure functions over the result's JSON (API.md ``result``), shared
by the table service, the ratings and ``python -m app.verify``.

- ``on_resign: "last"`` (the default): a resigned seat is ranked after every seat still in
  the game and every automatic opponent (the result's ``others``: Ginkgopolis' Hal, MINE!'s
  dummy director, who never resign), whatever its score; among resigned seats the one who
  held on longer ranks better. A bot still plays out the seat's moves (no engine can drop a
  seat mid-game), so the game goes on for the others while two or more seats remain in it
  and at least one of them is a person's; otherwise it ends at once (``early_result``). A
  solo game resigned therefore ends at once, lost to the automatic opponent.
- ``on_resign: "bot"``: a bot finishes the seat and the seat keeps the place it reaches,
  unless no person is left in the game: bots would finish it for nobody, so it ends at
  once as with "last" (``game_goes_on``).

Either way the result lists the resigned seats (``resigned``, in the order they resigned)
and ``places`` is what ratings read, so a rating always follows the result shown.

One final ranking says everything (issue 35): when "last" re-ranks the seats, the ties
are explained from it (:func:`final_messages`: the game explains the ties of the seats
still in, by their final places, then a line per resigned seat), and that one explanation
is the result's English ``tiebreak``, its ``tiebreak_text`` in any language and the end of
the ``game_ended`` line (:func:`final_standing`), whose places are ``places``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Literal

from app.games.base import Engine, Opponent, Result, by_seat, describe_result
from app.games.messages import Locale, Message, Param, SeatRef, lines, msg, render, strings

log = logging.getLogger("partida.tables")

OnResign = Literal["last", "bot"]
RESIGN_MODES: tuple[str, ...] = ("last", "bot")
DEFAULT_ON_RESIGN: OnResign = "last"


def _place_of(result: dict[str, Any], seat: int, index: int) -> int:
    places = result.get("places") or {}
    place = places.get(str(seat), places.get(seat))
    return int(place) if isinstance(place, int) else index + 1


def with_resignations(
    result: dict[str, Any], resigned: Sequence[int], mode: str, engine: Engine
) -> dict[str, Any]:
    """The engine's result with the resigned seats (in the order they resigned) applied:
    with "last" they move to the end of the ranking, the latest to resign first, below
    the seats still in and the automatic opponents (``others``), who keep the engine's
    order and ties among them. Scores and details stay the engine's; ``tiebreak`` then
    explains the final ranking in English (:func:`final_text`), not the engine's. Without
    resignations, the result as it is."""
    if not resigned:
        return result
    out = {**result, "resigned": list(resigned), "on_resign": mode}
    if mode != "last":
        return out
    out_seats = set(resigned)
    ranking = [int(s) for s in result.get("ranking") or []]
    others = [dict(o) for o in result.get("others") or []]
    original = {seat: _place_of(result, seat, index) for index, seat in enumerate(ranking)}
    staying = [s for s in ranking if s not in out_seats]
    # Everyone still in, seats and automatic opponents, by their place in the engine's result.
    still_in = [original[s] for s in staying] + [int(o.get("place", 0)) for o in others]
    places: dict[str, int] = {}
    for seat in staying:
        places[str(seat)] = 1 + sum(1 for place in still_in if place < original[seat])
    for other in others:
        other["place"] = 1 + sum(1 for place in still_in if place < int(other.get("place", 0)))
    tail = list(reversed(resigned))
    for index, seat in enumerate(tail):
        places[str(seat)] = len(still_in) + 1 + index
    out["ranking"] = staying + tail
    out["places"] = places
    if others:
        out["others"] = others
    try:
        out["tiebreak"] = final_text(engine, out, "en")
    except Exception:
        # Words must never stop a game from ending: the engine's record, then the seats out.
        log.warning("final ranking not describable", extra={"game": engine.info.id})
        out["tiebreak"] = " ".join(
            t for t in (result.get("tiebreak"), *resign_lines(out, "en")) if t
        )
    return out


def reranked(result: dict[str, Any]) -> bool:
    """Did resignations ("last") re-rank the engine's result? Then the final ranking, not
    the engine's, is what every text about it reads (an early end has texts of its own)."""
    return (
        result.get("on_resign") == "last"
        and bool(result.get("resigned"))
        and not result.get("ended_early")
        and not result.get("cancelled")
    )


def _still_in(result: dict[str, Any]) -> dict[str, Any]:
    """The result as far as the seats still in go: their ranking and final places (the
    automatic opponents too). Scores and details stay whole, as the engine wrote them."""
    out = {int(s) for s in result.get("resigned") or ()}
    return {
        **result,
        "ranking": [s for s in result.get("ranking") or () if int(s) not in out],
        "places": {k: v for k, v in (result.get("places") or {}).items() if int(k) not in out},
    }


def _explained(result: dict[str, Any]) -> dict[str, Any]:
    """What the game explains the ties of: when resignations re-ranked the result, only
    the seats still in, at their final places (a resigned seat no longer ties with
    anybody: its resignation ranked it)."""
    return _still_in(result) if reranked(result) else result


def final_messages(engine: Engine, result: dict[str, Any]) -> list[Message]:
    """How the result's ranking came about, for people: the game's explanation of its ties
    (:func:`_explained`), then (:func:`resign_messages`) a line per resigned seat."""
    return [engine.message(Result.model_validate(_explained(result))), *resign_messages(result)]


def final_text(engine: Engine, result: dict[str, Any], lang: Locale) -> str:
    """:func:`final_messages` as text, one per line ("" when nothing needs explaining)."""
    ties = describe_result(engine, _explained(result), lang)
    return "\n".join(line for line in (ties, *resign_lines(result, lang)) if line)


def final_standing(engine: Engine, result: dict[str, Any]) -> Message:
    """The ``game_ended`` line of a result the resignations re-ranked: every seat and
    automatic opponent at its final place (``places``, ``others``) with its score, then
    the same explanation as ``tiebreak_text`` (:func:`final_messages`)."""
    scores = by_seat(result.get("scores") or {})
    places = by_seat(result.get("places") or {})
    out = {int(s) for s in result.get("resigned") or ()}
    entries: list[tuple[int, Param, int, bool]] = [
        (int(places.get(int(s), i + 1)), SeatRef(int(s)), scores.get(int(s), 0), int(s) in out)
        for i, s in enumerate(result.get("ranking") or ())
    ]
    for other in result.get("others") or ():
        key = f"{engine.info.id}.participant.{other.get('id')}"
        name: Param = msg(key) if key in strings(key, "en") else str(other.get("name", ""))
        entries.append((int(other.get("place", 0)), name, int(other.get("score", 0)), False))
    entries.sort(key=lambda e: e[0])  # stable: the ranking's order among equal places
    count = {place: sum(1 for e in entries if e[0] == place) for place, *_ in entries}
    rows: list[Message] = [msg("table.line.game_ended")]
    for place, who, score, resigned in entries:
        key = "table.line.final_place_resigned" if resigned else "table.line.final_place"
        rows.append(msg(key, place=place, shared=count[place] > 1, who=who, score=score))
    return lines([*rows, *final_messages(engine, result)])


def game_goes_on(mode: str, in_play: Sequence[int], humans_in_play: Sequence[int]) -> bool:
    """Does the game go on after a resignation? Never once no person is left in it, whatever
    the rule: bots would finish it for nobody, and a game left to them alone (a solo game
    resigned, every person gone) only keeps a result waiting that is already decided. With
    "last", also not once a single seat is left: it has won."""
    if not humans_in_play:
        return False
    return mode != "last" or len(in_play) >= 2


def early_result(
    seat_count: int, resigned: Sequence[int], others: Sequence[Opponent] = ()
) -> dict[str, Any]:
    """The result of a game that ended because (with "last") too few seats remained:
    everyone still in shares first place, the seats and the automatic opponents
    (``others``, with their scores so far: games.base.automatic_opponents), then the
    resigned seats, latest first. No scores for the seats: the game did not reach its
    scoring."""
    out_seats = set(resigned)
    staying = [s for s in range(seat_count) if s not in out_seats]
    tail = list(reversed(resigned))
    places = {str(s): 1 for s in staying}
    for index, seat in enumerate(tail):
        places[str(seat)] = len(staying) + len(others) + 1 + index
    result: dict[str, Any] = {
        "scores": {},
        "ranking": staying + tail,
        "places": places,
        "tiebreak": "the game ended early: every other seat resigned"
        if staying
        else "the game ended early: every seat resigned",
        "details": {},
        "resigned": list(resigned),
        "on_resign": "last",
        "ended_early": True,
    }
    if others:
        result["others"] = [
            o.model_copy(update={"place": 1}).model_dump(mode="json") for o in others
        ]
    return result


def cancelled_result() -> dict[str, Any]:
    """A game its players agreed to cancel: no ranking, no winner, not rated."""
    return {
        "scores": {},
        "ranking": [],
        "places": {},
        "tiebreak": "the players agreed to cancel the game",
        "details": {},
        "cancelled": True,
    }


def host_ended_result() -> dict[str, Any]:
    """A game the host stopped before its end (the admin API): no ranking, not rated. Its
    shape is the one stored since the admin API came: ``python -m app.verify`` compares it."""
    return {
        "scores": {},
        "ranking": [],
        "tiebreak": "the game was ended by the host before its end",
        "ended_by_admin": True,
    }


def resign_messages(result: dict[str, Any]) -> list[Message]:
    """For people, after the engine's explanation of the ties: who resigned, and what it
    meant for their place."""
    mode = result.get("on_resign")
    if mode not in RESIGN_MODES or result.get("ended_early"):
        return []
    return [
        msg(f"table.result.resigned_{mode}", seat=SeatRef(int(seat)))
        for seat in result.get("resigned") or ()
    ]


def resign_lines(result: dict[str, Any], lang: Locale) -> list[str]:
    """:func:`resign_messages` as text (seats numbered from 1, as the log lines number them)."""
    return [render(m, lang) for m in resign_messages(result)]


def platform_message(result: dict[str, Any]) -> Message | None:
    """What people read of a result the table made (cancelled, ended early); None for an
    engine's result (the engine explains its own ties)."""
    if result.get("cancelled"):
        return msg("table.result.cancelled")
    if result.get("ended_early"):
        # Nobody left in but the automatic opponents (a solo game resigned): they won.
        everyone = set(result.get("resigned") or ()) >= set(result.get("ranking") or ())
        return msg("table.result.ended_all_resigned" if everyone else "table.result.ended_early")
    return None


def platform_text(result: dict[str, Any], lang: Locale) -> str | None:
    """:func:`platform_message` as text."""
    message = platform_message(result)
    return None if message is None else render(message, lang)
