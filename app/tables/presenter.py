"""How a table reads to the outside: the table object, each seat's picture of the game, and
the readable lines of its log and result in a language (API.md "GET table", "GET state").

One presenter for every path that shows a table (REST, the socket's frames, the replay), so
they cannot drift apart; it only ever shows a seat its own view.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from app import refusals
from app.fairness import commitment
from app.games.base import Engine, Locale, action_adapter, parse_event
from app.games.messages import SeatRef, msg, render
from app.tables import clocks
from app.tables.outcomes import (
    final_standing,
    final_text,
    platform_text,
    reranked,
    resign_messages,
)
from app.tables.snapshot import (
    FINISHED,
    PLAYING,
    Snapshot,
    iso,
    may_undo,
    public_cancel_vote,
)

log = logging.getLogger("partida.tables")

# Events the table itself records (no engine knows them): their messages in the catalogue.
PLATFORM_EVENTS = frozenset({"action_undone", "clock_timeout"})
# The event every game logs when its rules end it (docs/API-EXTENSIONS.md "Resign").
GAME_ENDED = "game_ended"


class Presenter:
    def __init__(self, presence: Callable[[str], set[str]], now: Callable[[], float]) -> None:
        # Who has a socket open to a table in this process ("connected" on each seat).
        self.presence = presence
        # The table service's clock: the clocks shown are read by the time the clocks kept
        # are charged by.
        self.now = now

    def table_public(
        self, snap: Snapshot, viewer_id: str | None = None, lang: Locale | None = None
    ) -> dict[str, Any]:
        """The table as API.md shows it; a private table's invite code only to its players."""
        online = self.presence(snap.id)
        public = {
            "id": snap.id,
            "game": snap.game,
            "options": snap.options,
            "status": snap.status,
            "version": snap.version,
            "seats": [
                {
                    "seat": s.seat,
                    "player": {"id": s.player_id, "name": s.player_name} if s.player_id else None,
                    "bot": s.bot_level is not None,
                    "bot_level": s.bot_level,
                    "connected": s.bot_level is not None or (s.player_id in online),
                    "taken_over": s.taken_over,
                    "takeover_votes": len(s.takeover_votes),
                    "resigned": s.resigned,
                }
                for s in snap.seats
            ],
            "time_control": snap.time_control.model_dump(),
            "owner": {"id": snap.owner_id, "name": snap.owner_name},
            "created_at": iso(snap.created_at),
            "private": snap.private,
            "result": (
                self.with_result_text(snap.engine, snap.result, lang)
                if snap.status == FINISHED
                else None
            ),
            "seed_commitment": commitment(snap.seed_secret) if snap.seed_secret else None,
            "on_resign": snap.on_resign,
            "cancel_vote": public_cancel_vote(snap),
            "next_table": snap.next_table,
        }
        if snap.private and viewer_id is not None and snap.seat_of(viewer_id) is not None:
            public["invite_code"] = snap.invite_code
        return public

    def picture(
        self,
        snap: Snapshot,
        seat: int | None,
        events: list[dict[str, Any]] | None = None,
        lang: Locale | None = None,
    ) -> dict[str, Any]:
        """The caller's picture of the table (API.md "GET state"): only its seat's view.

        With ``lang``, the result also carries ``tiebreak_text`` (:meth:`with_result_text`)."""
        engine = snap.engine
        to_act = snap.to_act()
        cached = snap.renders.pictures.get(seat)
        if cached is None:
            view: dict[str, Any] | None = None
            legal: list[dict[str, Any]] = []
            if snap.state is not None:
                view = engine.view_json(snap.state, seat, snap.renders.view_parts)
                # A resigned seat sends nothing more (its bot plays it).
                if seat is not None and seat in to_act and not snap.seats[seat].resigned:
                    legal = [
                        a.model_dump(mode="json") for a in engine.legal_actions(snap.state, seat)
                    ]
            cached = snap.renders.pictures[seat] = (view, legal)
        view, legal = cached
        picture: dict[str, Any] = {
            "version": snap.version,
            "status": snap.status,
            "game": snap.game,
            "to_act": to_act,
            "seat": seat,
            "view": view,
            "legal_actions": legal,
            "result": self.with_result_text(snap.engine, snap.result, lang),
        }
        picture["undoable"] = may_undo(snap, seat)
        if snap.status == PLAYING and snap.time_control.clock != "none":
            picture["clock"] = clocks.public_clocks(snap.time_control, snap.clocks, self.now())
        if events is not None:
            picture["events"] = events
        return picture

    def with_text(
        self, snap: Snapshot, events: list[dict[str, Any]], lang: Locale | None
    ) -> list[dict[str, Any]]:
        """The events with what people read of each, in ``lang`` (``text``) and as the
        catalogue's message (``message``, which the browser renders naming the players)."""
        if lang is None:
            return events
        return [{**e, **self.readable(snap.engine, e, lang, snap.result)} for e in events]

    def with_result_text(
        self, engine: Engine, result: dict[str, Any] | None, lang: Locale | None
    ) -> dict[str, Any] | None:
        """The result, and with ``lang`` also ``tiebreak_text``: the game's explanation of the
        ties for people in that language (seats as the log names them, "" when nothing needs
        explaining). ``tiebreak`` stays as it is. Without a language, or if the game cannot
        describe the result, the result as it is."""
        if result is None or lang is None:
            return result
        made = platform_text(result, lang)
        if made is not None:
            return {**result, "tiebreak_text": made}
        try:
            # The game's explanation of the final ranking, then the resignations.
            text = final_text(engine, result, lang)
        except Exception:
            # A result stored by an older engine version may not parse any more.
            log.warning("result not describable", extra={"game": engine.info.id})
            return result
        # The resignation lines (the end of tiebreak_text) as message trees, for a client
        # that names the seats' players.
        messages = [m.to_json() for m in resign_messages(result)]
        return {**result, "tiebreak_text": text, "resign_messages": messages}

    def readable(
        self,
        engine: Engine,
        event: dict[str, Any],
        lang: Locale,
        result: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """``text`` and ``message`` of a logged event: the table's own, or the game's (only its
        type when it no longer parses). ``result`` is the table's final result, if any: when
        resignations re-ranked it, the game's ``game_ended`` line reads the final ranking
        (outcomes.final_standing), not the one the rules alone gave."""
        kind = event.get("type")
        message = None
        if kind in PLATFORM_EVENTS:
            message = msg(f"table.line.{kind}", seat=SeatRef(event["seat"]))
        elif kind == GAME_ENDED and result is not None and reranked(result):
            try:
                standing = final_standing(engine, result)
                return {"text": render(standing, lang), "message": standing.to_json()}
            except Exception:
                # A game without a catalogue, or a result an older engine wrote.
                log.warning("final ranking not describable", extra={"game": engine.info.id})
        if message is not None:
            return {"text": render(message, lang), "message": message.to_json()}
        try:
            item = parse_event(engine, event)
        except Exception:
            # An event stored by an older engine version may not parse any more; the
            # log still shows it, as its type.
            log.warning("event not describable", extra={"type": kind})
            return {"text": str(kind)}
        return {"text": engine.describe(item, lang), "message": engine.message(item).to_json()}

    def describe(self, engine: Engine, event: dict[str, Any], lang: Locale) -> str:
        """The readable line of a logged event in ``lang``."""
        text: str = self.readable(engine, event, lang)["text"]
        return text

    def readable_action(
        self, engine: Engine, action: dict[str, Any], lang: Locale
    ) -> dict[str, Any]:
        """``action_text`` and ``action_message`` of a logged action (only its type when it
        no longer parses)."""
        try:
            item = action_adapter(engine).validate_python(action)
        except Exception:
            # An action stored by an older engine version may not parse any more.
            log.warning("action not describable", extra={"type": action.get("type")})
            return {"action_text": str(action.get("type", ""))}
        return {
            "action_text": engine.describe(item, lang),
            "action_message": engine.message(item).to_json(),
        }


def validation_details(exc: ValidationError) -> list[dict[str, Any]]:
    """Pydantic errors without the echoed input (it may be large) and with JSON-safe ctx."""
    return refusals.validation_details(exc.errors(include_url=False))
