"""Ginkgopolis (Xavier Georges, Pearl Games 2012), 1-5 players, solo against Hal.

Exports ``ENGINE``, the one object the platform knows (``app.games.base.Engine``): the
shared :class:`~app.games.base.GameEngine` over Ginkgopolis' ``rules``, ``view``, ``bot``,
``describe`` (its ``message``) and ``undo`` (rules in ``shared/rules/ginkgopolis.md``).
"""

from __future__ import annotations

from app.games.base import GameEngine, GameInfo, Refusal, SearchStyle

from . import bot, rules
from .actions import Action, ActionModel
from .describe import message
from .determinize import determinize
from .events import EventUnion
from .figures import FIGURES
from .rules import GinkgopolisOptions, GinkgopolisState
from .undo import undoable
from .view import GinkgopolisView, playout_view, view, view_json

__all__ = ["ENGINE", "GinkgopolisOptions", "GinkgopolisState", "GinkgopolisView"]

ENGINE: GameEngine[GinkgopolisState, GinkgopolisOptions, ActionModel, GinkgopolisView] = GameEngine(
    info=GameInfo(
        id="ginkgopolis",
        title="Ginkgopolis",
        min_players=1,
        max_players=5,
        bot_levels=("easy", "normal", "strong", "random"),
    ),
    state=GinkgopolisState,
    options=GinkgopolisOptions,
    action=Action,
    event=EventUnion,
    view_model=GinkgopolisView,
    figures=FIGURES,
    max_length=rules.max_length,
    rules=rules,
    # rules.start checks only the player count: a solo table stored before its options
    # were refused must still replay, and solo those options do nothing.
    check_options_at_start=False,
    view=view,
    playout_view=playout_view,
    view_json=view_json,
    bots={"easy": bot.easy, "normal": bot.choose},
    message=message,
    undoable=undoable,
    not_an_action=Refusal("not a Ginkgopolis action", "ginkgopolis.not_an_action"),
    determinize=determinize,
    automatic_opponents=rules.automatic_opponents,
    evaluate=bot.evaluate,
    # A tree with random playouts wastes the tiles and resources evaluate counts (solo, 45%
    # against Hal; normal wins 57%). The normal bot's move is weighed against the three its
    # easy self proposes most, each played on by normal play for 12 moves and to the start of
    # the next round (judged mid-round, a move that adds a decision of its own looked better
    # than it is): solo 80% against Hal, 78.8% of 40 two-player games against normal and,
    # in 80 games each, 46.3%, 38.1% and 36.9% at three, four and five players (docs/BOTS.md).
    search_style=SearchStyle(candidates=3, rollout_level="normal", rollout_depth=12, settle=True),
)
