"""The host's admin API (bearer PARTIDA_ADMIN_TOKEN)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Response, status
from pydantic import AfterValidator, Field

from app.api.deps import AdminDep, PlayerId, TableId
from app.api.schemas import ERRORS, IsoDateTime, PlayerName, RequestBody

router = APIRouter(prefix="/admin", tags=["admin"], responses=ERRORS)


class PlayerUpdate(RequestBody):
    name: PlayerName | None = None
    blocked: bool | None = None


def _in_utc(value: datetime) -> datetime:
    """The moment in UTC (a naive time is taken as UTC); a time whose UTC falls outside
    years 1-9999 (0001-01-01T00:00+14:00) is refused here, not by the database."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("the date falls outside years 1 to 9999 in UTC") from None


class PruneRequest(RequestBody):
    finished_before: Annotated[IsoDateTime, AfterValidator(_in_utc)] = Field(
        description="delete finished games that ended before this"
    )


@router.get("/tables")
async def list_all_tables(
    admin: AdminDep, status: Literal["open", "playing", "finished"] | None = None
) -> list[dict[str, Any]]:
    """Every table, private ones included."""
    return await admin.tables(status)


@router.delete("/tables/{table_id}", status_code=status.HTTP_204_NO_CONTENT)
async def delete_table(table_id: TableId, admin: AdminDep) -> Response:
    """Delete a table and its history."""
    await admin.delete_table(table_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/tables/{table_id}/end")
async def end_game(table_id: TableId, admin: AdminDep) -> dict[str, Any]:
    """End a stuck game (it is kept as finished, without a ranking)."""
    return await admin.end_game(table_id)


@router.get("/players")
async def list_players(admin: AdminDep) -> list[dict[str, Any]]:
    """Every player, blocked ones included."""
    return await admin.players()


@router.patch("/players/{player_id}")
async def update_player(player_id: PlayerId, body: PlayerUpdate, admin: AdminDep) -> dict[str, Any]:
    """Rename or block (unblock) a player; a blocked player's token stops working."""
    return await admin.update_player(player_id, body.name, body.blocked)


@router.post("/prune")
async def prune(body: PruneRequest, admin: AdminDep) -> dict[str, int]:
    """Delete finished games that ended before a date."""
    return {"deleted": await admin.prune_finished(body.finished_before)}
