"""The catalog of games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import FigureName, GameId, RatingsDep, ServiceDep
from app.api.schemas import ERRORS, GamePublic
from app.tables.figures import FigurePicture, FigureSummary, figure_list, figure_picture

router = APIRouter(tags=["games"], responses=ERRORS)


@router.get("/games", response_model=list[GamePublic])
async def list_games(service: ServiceDep) -> list[dict[str, Any]]:
    """Every game, with its player counts and the JSON Schemas of its options and actions."""
    return service.games_public()


@router.get("/games/{game_id}/leaderboard")
async def leaderboard(game_id: GameId, ratings: RatingsDep) -> list[dict[str, Any]]:
    """The best-rated players of a game."""
    return await ratings.leaderboard(game_id)


# Plain functions: FastAPI runs them on its thread pool, so the first request for a game's
# figures (which plays the positions through the engine) does not hold up the event loop.
@router.get("/games/{game_id}/figures", response_model=list[FigureSummary])
def list_figures(game_id: GameId, service: ServiceDep) -> list[dict[str, str]]:
    """The example positions of the game's "How to play" page: name and caption of each."""
    return figure_list(service.engine(game_id))


@router.get("/games/{game_id}/figures/{name}", response_model=FigurePicture)
def get_figure(game_id: GameId, name: FigureName, service: ServiceDep) -> dict[str, Any]:
    """One example position, shaped like the table's state frame (only the seat's view)."""
    return figure_picture(service.engine(game_id), name)
