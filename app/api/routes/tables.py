"""Tables: create, list, read, join, leave, add bots, start."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Path, Query, Request, Response, status

from app.api.deps import (
    CurrentPlayer,
    GameFilter,
    Invite,
    OptionalPlayer,
    ResultLang,
    ServiceDep,
    TableId,
    VisibleTable,
)
from app.api.schemas import ERRORS, BotCreate, JoinOut, JoinRequest, TableCreate, TablePublic
from app.security import client_ip
from app.tables.lobby import MAX_CURSOR, MAX_PAGE

NEXT_CURSOR = "X-Next-Cursor"

router = APIRouter(prefix="/tables", tags=["tables"], responses=ERRORS)


@router.post("", status_code=status.HTTP_201_CREATED, response_model=TablePublic)
async def create_table(
    body: TableCreate, player: CurrentPlayer, service: ServiceDep
) -> dict[str, Any]:
    """Create a table; the creator takes seat 0."""
    snap = await service.lobby.create_table(
        player, body.game, body.options, body.seats, body.private, body.time_control,
        body.on_resign,
    )  # fmt: skip
    return service.presenter.table_public(snap, player.id)


@router.get(
    "",
    response_model=list[TablePublic],
    responses={
        200: {
            "headers": {
                NEXT_CURSOR: {
                    "description": "the cursor of the next page (absent on the last page)",
                    "schema": {"type": "string"},
                },
                "Link": {
                    "description": 'the next page as <url>; rel="next"',
                    "schema": {"type": "string"},
                },
            }
        }
    },
)
async def list_tables(
    request: Request,
    response: Response,
    service: ServiceDep,
    player: OptionalPlayer,
    status: Literal["open", "playing", "finished"] | None = None,
    game: GameFilter = None,
    limit: int = Query(default=MAX_PAGE, ge=1, le=MAX_PAGE, description="tables per page"),
    cursor: str | None = Query(
        default=None,
        description="X-Next-Cursor of the previous page",
        # Published, but enforced by the lobby: every cursor it did not issue, a long one
        # too, gets the same refusal naming the cursor.
        json_schema_extra={"maxLength": MAX_CURSOR},
    ),
) -> list[dict[str, Any]]:
    """Tables, newest first, optionally by status and game (private ones only to their players).

    One page at a time: when more follow, the X-Next-Cursor header (and Link rel="next") gives
    the cursor to pass back for the next page."""
    tables, following = await service.lobby.list_tables(status, game, player, limit, cursor)
    if following is not None:
        response.headers[NEXT_CURSOR] = following
        nxt = request.url.include_query_params(cursor=following)
        response.headers["Link"] = f'<{nxt.path}?{nxt.query}>; rel="next"'
    return tables


@router.get("/{table_id}", response_model=TablePublic)
async def get_table(
    table_id: TableId,
    service: ServiceDep,
    player: OptionalPlayer,
    lang: ResultLang = None,
    invite: Invite = None,
) -> dict[str, Any]:
    """One table: seats, status, version, owner (a private one only to its players and to
    holders of its invite code; to anybody else it does not exist)."""
    snap = await service.visible_snapshot(table_id, player, invite)
    return service.presenter.table_public(snap, player.id if player else None, lang)


@router.post("/{table_id}/join", response_model=JoinOut)
async def join_table(
    table_id: TableId,
    player: CurrentPlayer,
    service: ServiceDep,
    request: Request,
    body: JoinRequest | None = None,
) -> JoinOut:
    """Take the lowest free seat (a private table needs its invite code)."""
    invite = body.invite if body else None
    # Invite codes are guessed no faster than players are created from one address;
    # checked for any table, so that the answer does not tell a private table from none.
    if invite:
        await request.app.state.limiter.check_code_budget(client_ip(request.scope))
    _, seat = await service.lobby.join(table_id, player, invite)
    return JoinOut(seat=seat)


@router.post(
    "/{table_id}/leave", status_code=status.HTTP_204_NO_CONTENT, dependencies=[VisibleTable]
)
async def leave_table(table_id: TableId, player: CurrentPlayer, service: ServiceDep) -> Response:
    """Give up your seat (only before the start); an owner's empty table is removed."""
    await service.lobby.leave(table_id, player)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/{table_id}/bots", response_model=TablePublic, dependencies=[VisibleTable])
async def add_bot(
    table_id: TableId, player: CurrentPlayer, service: ServiceDep, body: BotCreate | None = None
) -> dict[str, Any]:
    """Seat a bot in the lowest free seat (owner only)."""
    snap, _ = await service.lobby.add_bot(table_id, player, body.level if body else None)
    return service.presenter.table_public(snap, player.id)


@router.post("/{table_id}/start", response_model=TablePublic, dependencies=[VisibleTable])
async def start_table(
    table_id: TableId, player: CurrentPlayer, service: ServiceDep
) -> dict[str, Any]:
    """Deal and begin (owner only; every seat must be taken)."""
    return service.presenter.table_public(await service.lobby.start(table_id, player), player.id)


@router.post(
    "/{table_id}/seats/{seat}/takeover", response_model=TablePublic, dependencies=[VisibleTable]
)
async def vote_takeover(
    table_id: TableId,
    player: CurrentPlayer,
    service: ServiceDep,
    seat: int = Path(ge=0, le=11),
) -> dict[str, Any]:
    """Vote to hand an absent player's seat to a bot (a majority of the other players decides)."""
    return service.presenter.table_public(
        await service.absence.vote_takeover(table_id, player, seat), player.id
    )


@router.post("/{table_id}/take-back", response_model=TablePublic, dependencies=[VisibleTable])
async def take_back(
    table_id: TableId, player: CurrentPlayer, service: ServiceDep
) -> dict[str, Any]:
    """Take your seat back from the bot that was playing it."""
    return service.presenter.table_public(
        await service.absence.take_back(table_id, player), player.id
    )
