"""The pictures of the "How to play" pages: each game's ``figures``, served like a table frame.

A figure is a real position (setup from a fixed seed, then legal actions) and the seat
it is seen from. Only ``view(state, seat)`` of it leaves the server, in the shape of
the table's state frame, so the game's own renderer draws it as at the table. Figures
are deterministic, so each is computed once per process and kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from app import errors
from app.games.base import Engine, Figure, dump


class FigureSummary(BaseModel):
    name: str
    caption: str


class FigurePicture(BaseModel):
    """The table state frame of one figure (version 0, never an actual table)."""

    game: str
    name: str
    caption: str
    seat: int | None = Field(description="the seat the figure is seen from; null = a spectator")
    version: int = 0
    status: str = Field(description="playing, or finished when the figure shows a final result")
    to_act: list[int]
    view: dict[str, Any]
    legal_actions: list[dict[str, Any]] = Field(description="empty for a spectator")
    result: dict[str, Any] | None


# (id of the engine object, figure name) -> picture; engines are process-wide singletons.
_PICTURES: dict[tuple[int, str], dict[str, Any]] = {}


def _builders(engine: Engine) -> Mapping[str, Callable[[], Figure]]:
    # An engine that has no figures yet simply lists none (the page says so).
    figures: Mapping[str, Callable[[], Figure]] = getattr(engine, "figures", None) or {}
    return figures


def _picture(engine: Engine, name: str, figure: Figure) -> dict[str, Any]:
    state, seat = figure.state, figure.seat
    result = engine.result(state)
    legal = engine.legal_actions(state, seat) if seat is not None else []
    return {
        "game": engine.info.id,
        "name": name,
        "caption": figure.caption,
        "seat": seat,
        "version": 0,
        "status": "playing" if result is None else "finished",
        "to_act": sorted(engine.to_act(state)),
        "view": dump(engine.view(state, seat)),
        "legal_actions": [dump(action) for action in legal],
        "result": None if result is None else dump(result),
    }


def figure_picture(engine: Engine, name: str) -> dict[str, Any]:
    """The picture of one named figure; NotFound when the game has no figure of that name."""
    key = (id(engine), name)
    cached = _PICTURES.get(key)
    if cached is None:
        build = _builders(engine).get(name)
        if build is None:
            known = ", ".join(_builders(engine)) or "none yet"
            raise errors.NotFound(
                f"the game '{engine.info.id}' has no figure '{name}'; its figures: {known}",
                reason="figure",
            )
        cached = _PICTURES[key] = _picture(engine, name, build())
    return cached


def figure_list(engine: Engine) -> list[dict[str, str]]:
    """Every figure of the game, in the engine's order, with its caption."""
    return [
        {"name": name, "caption": figure_picture(engine, name)["caption"]}
        for name in _builders(engine)
    ]
