"""Tables: create, list, read, join, leave, add bots, start."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Path, Response, status

from app.api.deps import (
    CurrentPlayer,
    GameFilter,
    OptionalPlayer,
    ResultLang,
    ServiceDep,
    TableId,
)
from app.api.schemas import ERRORS, BotCreate, JoinOut, JoinRequest, TableCreate, TablePublic

router = APIRouter(prefix="/tables", tags=["tables"], responses=ERRORS)


@router.post("", status_code=status.HTTP_201_CREATED, response_model=TablePublic)
async def create_table(
    body: TableCreate, player: CurrentPlayer, service: ServiceDep
) -> dict[str, Any]:
    """Create a table; the creator takes seat 0."""
    snap = await service.create_table(
        player, body.game, body.options, body.seats, body.private, body.time_control
    )
    return service.table_public(snap, player.id)


@router.get("", response_model=list[TablePublic])
async def list_tables(
    service: ServiceDep,
    player: OptionalPlayer,
    status: Literal["open", "playing", "finished"] | None = None,
    game: GameFilter = None,
) -> list[dict[str, Any]]:
    """Tables, newest first, optionally by status and game (private ones only to their players)."""
    return await service.list_tables(status, game, player)


@router.get("/{table_id}", response_model=TablePublic)
async def get_table(
    table_id: TableId,
    service: ServiceDep,
    player: OptionalPlayer,
    lang: ResultLang = None,
) -> dict[str, Any]:
    """One table: seats, status, version, owner."""
    snap = await service.snapshot(table_id)
    return service.table_public(snap, player.id if player else None, lang)


@router.post("/{table_id}/join", response_model=JoinOut)
async def join_table(
    table_id: TableId, player: CurrentPlayer, service: ServiceDep, body: JoinRequest | None = None
) -> JoinOut:
    """Take the lowest free seat (a private table needs its invite code)."""
    _, seat = await service.join(table_id, player, body.invite if body else None)
    return JoinOut(seat=seat)


@router.post("/{table_id}/leave", status_code=status.HTTP_204_NO_CONTENT)
async def leave_table(table_id: TableId, player: CurrentPlayer, service: ServiceDep) -> Response:
    """Give up your seat (only before the start); an owner's empty table is removed."""
    await service.leave(table_id, player)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/{table_id}/bots", response_model=TablePublic)
async def add_bot(
    table_id: TableId, player: CurrentPlayer, service: ServiceDep, body: BotCreate | None = None
) -> dict[str, Any]:
    """Seat a bot in the lowest free seat (owner only)."""
    snap, _ = await service.add_bot(table_id, player, body.level if body else None)
    return service.table_public(snap, player.id)


@router.post("/{table_id}/start", response_model=TablePublic)
async def start_table(
    table_id: TableId, player: CurrentPlayer, service: ServiceDep
) -> dict[str, Any]:
    """Deal and begin (owner only; every seat must be taken)."""
    return service.table_public(await service.start(table_id, player), player.id)


@router.post("/{table_id}/seats/{seat}/takeover", response_model=TablePublic)
async def vote_takeover(
    table_id: TableId,
    player: CurrentPlayer,
    service: ServiceDep,
    seat: int = Path(ge=0, le=11),
) -> dict[str, Any]:
    """Vote to hand an absent player's seat to a bot (a majority of the other players decides)."""
    return service.table_public(await service.vote_takeover(table_id, player, seat), player.id)


@router.post("/{table_id}/take-back", response_model=TablePublic)
async def take_back(
    table_id: TableId, player: CurrentPlayer, service: ServiceDep
) -> dict[str, Any]:
    """Take your seat back from the bot that was playing it."""
    return service.table_public(await service.take_back(table_id, player), player.id)
