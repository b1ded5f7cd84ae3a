"""Luz, the stained-glass trick-taking game where you see every hand but your own.

Exports :data:`ENGINE`, the one object the platform knows (``app.games.base.Engine``):
the shared :class:`~app.games.base.GameEngine` over Luz's :mod:`rules`, :mod:`view`,
:mod:`bot`, :mod:`describe`, :mod:`memory` and :mod:`undo`.
"""

from __future__ import annotations

from app.games.base import GameEngine, GameInfo, Refusal
from app.games.luz import bot, rules
from app.games.luz.actions import ChooseHighEnd, LuzAction, PlaceBet, PlayCard
from app.games.luz.data import MAX_PLAYERS, MIN_PLAYERS, max_length
from app.games.luz.describe import message
from app.games.luz.determinize import determinize
from app.games.luz.events import LuzEvent
from app.games.luz.figures import FIGURES
from app.games.luz.memory import redact_log
from app.games.luz.rules import LuzOptions, LuzState
from app.games.luz.undo import undoable, why_final
from app.games.luz.view import LuzView, view, view_json

__all__ = ["ENGINE", "LuzOptions", "LuzState", "LuzView"]

ENGINE: GameEngine[LuzState, LuzOptions, ChooseHighEnd | PlaceBet | PlayCard, LuzView] = GameEngine(
    info=GameInfo(
        id="luz",
        title="Luz",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        bot_levels=("easy", "normal", "strong", "random"),
    ),
    state=LuzState,
    options=LuzOptions,
    action=LuzAction,
    event=LuzEvent,
    view_model=LuzView,
    figures=FIGURES,
    max_length=max_length,
    rules=rules,
    view=view,
    view_json=view_json,
    bots={"easy": bot.easy, "normal": bot.choose},
    determinize=determinize,
    evaluate=bot.evaluate,
    message=message,
    undoable=undoable,
    why_final=why_final,
    # With ``strict_memory``, while the game runs: no older trick's cards (§6 note 2).
    redact_log=redact_log,
    not_an_action=Refusal("not a Luz action", "luz.not_an_action"),
)
