"""Playing: the caller's state, actions, the public log, the replay."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query, Request, Response

from app.api.deps import (
    MAX_QUERY_INT,
    ChatDep,
    CurrentPlayer,
    Invite,
    OptionalPlayer,
    ReplayBudget,
    ReplayClient,
    ResultLang,
    ServiceDep,
    Since,
    TableId,
)
from app.api.schemas import (
    ERRORS,
    ActionRequest,
    ChatCreate,
    ChatMessagePublic,
    LogOut,
    StateOut,
    UndoRequest,
)
from app.tables.chat_rate import check_chat_rate

router = APIRouter(prefix="/tables/{table_id}", tags=["play"], responses=ERRORS)


@router.get("/state", responses={200: {"model": StateOut}})
async def get_state(
    table_id: TableId,
    player: OptionalPlayer,
    service: ServiceDep,
    lang: ResultLang = None,
    invite: Invite = None,
) -> dict[str, Any]:
    """The caller's picture: its seat's view and legal actions (spectators: the public view)."""
    return await service.moves.state_for(table_id, player, lang, invite)


@router.post("/actions", responses={200: {"model": StateOut}})
async def post_action(
    table_id: TableId, body: ActionRequest, player: CurrentPlayer, service: ServiceDep
) -> dict[str, Any]:
    """Send one element of legal_actions with the version it was taken from."""
    return await service.moves.act(table_id, player, body.version, body.action, body.id)


@router.post("/undo", responses={200: {"model": StateOut}})
async def post_undo(
    table_id: TableId, body: UndoRequest, player: CurrentPlayer, service: ServiceDep
) -> dict[str, Any]:
    """Take back your own last action, before anybody else acts (when the game allows it)."""
    return await service.moves.undo(table_id, player, body.version, body.id)


@router.get("/log", response_model=LogOut)
async def get_log(
    table_id: TableId,
    player: OptionalPlayer,
    service: ServiceDep,
    since: Since = 0,
    lang: Literal["es", "en"] | None = Query(
        default=None, description="add each event's readable line (text) in this language"
    ),
    invite: Invite = None,
) -> dict[str, Any]:
    """The events the caller may see after version ``since``, each with its version."""
    return await service.history.public_log(table_id, player, since, lang, invite)


# The replays come rendered (kept once rendered: a finished game never changes): no
# re-encoding on the event loop per request.
_RENDERED: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Successful Response",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


@router.get("/replay", dependencies=[ReplayBudget], responses=_RENDERED)
async def get_replay(
    table_id: TableId,
    service: ServiceDep,
    player: OptionalPlayer,
    client: ReplayClient,
    invite: Invite = None,
) -> Response:
    """The full history with hidden information (only after the game has ended)."""
    body = await service.history.replay(table_id, player, invite, client)
    return Response(body, media_type="application/json")


@router.get("/replay/steps", dependencies=[ReplayBudget], responses=_RENDERED)
async def get_replay_steps(
    table_id: TableId,
    service: ServiceDep,
    player: OptionalPlayer,
    client: ReplayClient,
    perspective: str = Query(
        default="full",
        pattern=r"^(full|spectator|[0-9]{1,2})$",
        description="full, spectator, or a seat number",
    ),
    start: int = Query(default=1, ge=1, le=MAX_QUERY_INT, description="first version"),
    count: int = Query(default=100, ge=1, le=500, description="how many versions"),
    invite: Invite = None,
    lang: Literal["es", "en"] | None = Query(
        default=None,
        description="add each event's readable line (text) and each action's (action_text) "
        "in this language",
    ),
) -> Response:
    """After the end: the game version by version, from one perspective (for the replay viewer)."""
    body = await service.history.replay_steps(
        table_id, perspective, start, count, player, invite, lang, client
    )
    return Response(body, media_type="application/json")


@router.get("/chat", response_model=list[ChatMessagePublic])
async def get_chat(
    table_id: TableId,
    chat: ChatDep,
    player: OptionalPlayer,
    since: Since = 0,
    invite: Invite = None,
) -> list[dict[str, Any]]:
    """The table's chat after message id ``since`` (oldest first, at most 200)."""
    return await chat.messages(table_id, since, viewer=player, invite=invite)


@router.post("/chat", status_code=201, response_model=ChatMessagePublic)
async def post_chat(
    table_id: TableId,
    body: ChatCreate,
    player: CurrentPlayer,
    chat: ChatDep,
    request: Request,
    invite: Invite = None,
) -> dict[str, Any]:
    """Say something at the table (its seated players only; everyone connected sees it)."""
    settings = request.app.state.settings
    await check_chat_rate(request.app.state.limiter, settings.rate_limit_chat, player.id)
    return await chat.post(table_id, player, body.text, invite)
