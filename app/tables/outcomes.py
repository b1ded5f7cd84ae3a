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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from app.games.base import Opponent
from app.games.messages import Locale, Message, SeatRef, msg, render

OnResign = Literal["last", "bot"]
RESIGN_MODES: tuple[str, ...] = ("last", "bot")
DEFAULT_ON_RESIGN: OnResign = "last"


def _place_of(result: dict[str, Any], seat: int, index: int) -> int:
    places = result.get("places") or {}
    place = places.get(str(seat), places.get(seat))
    return int(place) if isinstance(place, int) else index + 1


def with_resignations(result: dict[str, Any], resigned: Sequence[int], mode: str) -> dict[str, Any]:
    """The engine's result with the resigned seats (in the order they resigned) applied:
    with "last" they move to the end of the ranking, the latest to resign first, below
    the seats still in and the automatic opponents (``others``), who keep the engine's
    order and ties among them. Scores, tie-break and details stay the engine's. Without
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
    return out


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
