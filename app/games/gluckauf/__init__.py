"""Glück Auf (Coal Baron), Kramer & Kiesling: the rules engine (shared/rules/gluckauf.md).

Exports ``ENGINE``, the one object the platform knows (``app.games.base.Engine``): the
shared :class:`~app.games.base.GameEngine` over Glück Auf's ``rules``, ``view`` (with its
wire form ``view_json``), ``bot``, ``message`` and ``undo``.
"""

from __future__ import annotations

from app.games.base import TO_THE_END, GameEngine, GameInfo, Refusal, SearchStyle

from . import bot, rules
from .actions import Action, AnyAction
from .describe import message
from .determinize import determinize
from .events import GluckaufEvent
from .figures import FIGURES
from .rules import GluckaufOptions, GluckaufState
from .undo import undoable
from .view import GluckaufView, view, view_json

__all__ = ["ENGINE", "GluckaufOptions", "GluckaufState", "GluckaufView"]

ENGINE: GameEngine[GluckaufState, GluckaufOptions, AnyAction, GluckaufView] = GameEngine(
    info=GameInfo(
        id="gluckauf",
        title="Glück Auf (Coal Baron)",
        min_players=2,
        max_players=4,
        bot_levels=("easy", "normal", "strong", "random"),
    ),
    state=GluckaufState,
    options=GluckaufOptions,
    action=Action,
    event=GluckaufEvent,
    view_model=GluckaufView,
    figures=FIGURES,
    max_length=rules.max_length,
    rules=rules,
    view=view,
    view_json=view_json,
    bots={"easy": bot.easy, "normal": bot.choose},
    message=message,
    undoable=undoable,
    not_an_action=Refusal("not a Glück Auf action", "gluckauf.not_an_action"),
    determinize=determinize,
    evaluate=bot.evaluate,
    # A tree search trusts evaluate, which undervalues mining against factory tiles and
    # lost every game to normal; the normal bot's own games, played to the end, don't.
    search_style=SearchStyle(candidates=3, rollout_level="normal", rollout_depth=TO_THE_END),
)
