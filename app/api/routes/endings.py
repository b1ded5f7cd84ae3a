"""Ending a table other than by its rules, and the next one: resign, cancel by agreement,
delete an open table, play again (app.tables.endings)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response, status

from app.api.deps import CurrentPlayer, ServiceDep, TableId, VisibleTable
from app.api.schemas import ERRORS, CancelVoteRequest, TablePublic
from app.tables.endings import Endings

router = APIRouter(prefix="/tables/{table_id}", tags=["tables"], responses=ERRORS)


def get_endings(request: Request) -> Endings:
    # Holds no state of its own: everything it changes goes through the table service.
    return Endings(request.app.state.service)


EndingsDep = Annotated[Endings, Depends(get_endings)]


@router.post("/resign", response_model=TablePublic, dependencies=[VisibleTable])
async def resign(
    table_id: TableId, player: CurrentPlayer, service: ServiceDep, endings: EndingsDep
) -> dict[str, Any]:
    """Resign from the running game: a bot plays your seat from now on, and the table's
    on_resign says your result (last place, or the place the bot reaches)."""
    return service.presenter.table_public(await endings.resign(table_id, player), player.id)


@router.post("/cancel", response_model=TablePublic, dependencies=[VisibleTable])
async def propose_cancel(
    table_id: TableId, player: CurrentPlayer, service: ServiceDep, endings: EndingsDep
) -> dict[str, Any]:
    """Propose to cancel the running game (owner only, playing their own seat); every
    seated player still playing their seat must agree, and at least one besides the owner
    (409 cancel_needs_another_player when nobody else can). The proposal counts as the
    owner's yes."""
    return service.presenter.table_public(await endings.propose_cancel(table_id, player), player.id)


@router.post("/cancel/vote", response_model=TablePublic, dependencies=[VisibleTable])
async def vote_cancel(
    table_id: TableId,
    body: CancelVoteRequest,
    player: CurrentPlayer,
    service: ServiceDep,
    endings: EndingsDep,
) -> dict[str, Any]:
    """Answer the owner's proposal to cancel: when everybody agrees the game ends as
    cancelled (no winner, not rated); one refusal turns the proposal down."""
    snap = await endings.vote_cancel(table_id, player, body.agree)
    return service.presenter.table_public(snap, player.id)


@router.delete("", status_code=status.HTTP_204_NO_CONTENT, dependencies=[VisibleTable])
async def delete_table(table_id: TableId, player: CurrentPlayer, endings: EndingsDep) -> Response:
    """Delete your open table (owner only, before the start); its sockets are told it is gone."""
    await endings.delete(table_id, player)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/rematch",
    status_code=status.HTTP_201_CREATED,
    response_model=TablePublic,
    responses={200: {"model": TablePublic, "description": "the next table, already made"}},
    dependencies=[VisibleTable],
)
async def rematch(
    table_id: TableId,
    player: CurrentPlayer,
    service: ServiceDep,
    endings: EndingsDep,
    response: Response,
) -> dict[str, Any]:
    """Play again (seated players of a finished table): a new open table with the same game,
    options, seats, privacy, time control and resign rule; its players seated again at their
    seats, its bots again at their levels, you its owner. Made once: a second call, by any of
    the players, answers the same table (200)."""
    snap, created = await endings.rematch(table_id, player)
    if not created:
        response.status_code = status.HTTP_200_OK
    return service.presenter.table_public(snap, player.id)
