"""MINE! (Aurélien Assié, Arvelys): the engine object ``ENGINE`` (rules/mine.md).

``ENGINE`` is the shared :class:`~app.games.base.GameEngine` over MINE!'s ``rules`` (the
dummy director plays inside ``apply``), ``view``, ``bot`` (easy, normal; strong searches over
``determinize`` and ``bot.evaluate``), ``message`` (describe.py) and ``undo``.
"""

from __future__ import annotations

from app.games.base import TO_THE_END, GameEngine, GameInfo, Refusal, SearchStyle
from app.games.mine import bot, rules
from app.games.mine.actions import Action, MineAction
from app.games.mine.describe import message
from app.games.mine.determinize import determinize
from app.games.mine.events import EventUnion
from app.games.mine.figures import FIGURES
from app.games.mine.rules import MineOptions, MineState
from app.games.mine.undo import undoable
from app.games.mine.view import MineView, view, view_json

__all__ = ["ENGINE", "MineOptions", "MineState", "MineView"]

ENGINE: GameEngine[MineState, MineOptions, MineAction, MineView] = GameEngine(
    info=GameInfo(
        id="mine",
        title="MINE!",
        min_players=2,
        max_players=6,
        bot_levels=("easy", "normal", "strong", "random"),
    ),
    state=MineState,
    options=MineOptions,
    action=Action,
    event=EventUnion,
    view_model=MineView,
    figures=FIGURES,
    max_length=rules.max_length,
    rules=rules,
    view=view,
    view_json=view_json,
    bots={"easy": bot.easy, "normal": bot.choose},
    message=message,
    undoable=undoable,
    not_an_action=Refusal("not a MINE! action", "mine.not_an_action"),
    determinize=determinize,
    automatic_opponents=rules.automatic_opponents,
    evaluate=bot.evaluate,
    # A tree keeps apart the many cards that play alike and, from four players on, drowns
    # in the other seats' branches: it lost to normal. Weighing the normal bot's move
    # against the others its easy self proposes, each played out to the end in worlds whose
    # face-down placements lean as directors place them, beats normal at every count
    # (docs/BOTS.md: 77.5% of 40 two-player games).
    search_style=SearchStyle(candidates=6, rollout_level="normal", rollout_depth=TO_THE_END),
)
