"""Identity: create a player, read yourself."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request, status

from app import errors
from app.api.deps import CurrentPlayer, OptionalPlayer, PlayerId, RatingsDep, ServiceDep
from app.api.schemas import ERRORS, MyTable, PlayerCreate, PlayerCreated, PlayerMe, PlayerUpdate
from app.security import client_ip
from app.tables.notify import check_webhook_url

router = APIRouter(tags=["players"], responses=ERRORS)


@router.post("/players", status_code=status.HTTP_201_CREATED, response_model=PlayerCreated)
async def create_player(body: PlayerCreate, service: ServiceDep, request: Request) -> PlayerCreated:
    """Create a player and return its bearer token (shown only here)."""
    code = service.settings.access_code
    limiter = request.app.state.limiter
    if code and not secrets.compare_digest((body.access_code or "").encode(), code.encode()):
        await limiter.failed_code(client_ip(request.scope))
        raise errors.Forbidden(
            "this server is private: ask its host for the access code", reason="access_code"
        )
    await limiter.check_new_player(client_ip(request.scope))
    player, token = await service.create_player(body.name)
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.get("/me", response_model=PlayerMe)
async def me(player: CurrentPlayer) -> PlayerMe:
    """The calling player."""
    return PlayerMe(id=player.id, name=player.name, webhook_url=player.webhook_url)


@router.patch("/me", response_model=PlayerMe)
async def update_me(body: PlayerUpdate, player: CurrentPlayer, service: ServiceDep) -> PlayerMe:
    """Set (or clear) the webhook that receives your turn alerts."""
    url = body.webhook_url
    if url is not None:
        url = await check_webhook_url(url, service.settings.webhook_allow_private)
    await service.lobby.set_webhook(player, url)
    return PlayerMe(id=player.id, name=player.name, webhook_url=url)


@router.get("/me/tables", response_model=list[MyTable])
async def my_tables(player: CurrentPlayer, service: ServiceDep) -> list[dict[str, Any]]:
    """Your tables, the ones where it is your turn first."""
    return await service.lobby.my_tables(player)


@router.get("/players/{player_id}")
async def player_page(
    player_id: PlayerId, ratings: RatingsDep, viewer: OptionalPlayer
) -> dict[str, Any]:
    """A player's ratings per game, stats and finished games (newest first; a private table's
    game only to the players who sat at it)."""
    return await ratings.player_page(player_id, viewer_id=viewer.id if viewer else None)
