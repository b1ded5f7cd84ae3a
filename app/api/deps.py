"""Dependencies for the routes: the table service and the calling player."""

from __future__ import annotations

import secrets
from typing import Annotated, Literal

from fastapi import Depends, Path, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app import errors
from app.db.models import Player
from app.security import RateLimiter, bearer_key, client_ip
from app.tables.admin import Admin
from app.tables.chat import Chat
from app.tables.ratings import Ratings
from app.tables.service import TableService

_bearer = HTTPBearer(auto_error=False, description="the token returned by POST /api/v1/players")


def get_service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


ServiceDep = Annotated[TableService, Depends(get_service)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def optional_player(service: ServiceDep, credentials: Credentials) -> Player | None:
    if credentials is None:
        return None
    player = await service.player_by_token(credentials.credentials)
    if player is None:
        raise errors.Unauthorized("unknown or revoked token", reason="bad_token")
    return player


async def current_player(player: Annotated[Player | None, Depends(optional_player)]) -> Player:
    if player is None:
        raise errors.Unauthorized("send Authorization: Bearer <token> (create a player first)")
    return player


CurrentPlayer = Annotated[Player, Depends(current_player)]
OptionalPlayer = Annotated[Player | None, Depends(optional_player)]


def is_admin(request: Request, credentials: Credentials) -> bool:
    """Whether the request carries the host's admin token (PARTIDA_ADMIN_TOKEN), compared in
    constant time; never without one configured."""
    token = request.app.state.settings.admin_token
    return bool(token) and (
        credentials is not None
        and secrets.compare_digest(credentials.credentials.encode(), token.encode())
    )


def require_admin(request: Request, credentials: Credentials) -> None:
    """The host's admin token (PARTIDA_ADMIN_TOKEN)."""
    if not request.app.state.settings.admin_token:
        raise errors.Forbidden(
            "this server has no admin token configured (PARTIDA_ADMIN_TOKEN)", reason="admin"
        )
    if not is_admin(request, credentials):
        raise errors.Unauthorized("send Authorization: Bearer <admin token>", reason="admin")


def get_admin(request: Request, _authorised: Annotated[None, Depends(require_admin)]) -> Admin:
    admin: Admin = request.app.state.admin
    return admin


AdminDep = Annotated[Admin, Depends(get_admin)]


def get_chat(request: Request) -> Chat:
    chat: Chat = request.app.state.chat
    return chat


ChatDep = Annotated[Chat, Depends(get_chat)]


def get_ratings(request: Request) -> Ratings:
    ratings: Ratings = request.app.state.ratings
    return ratings


RatingsDep = Annotated[Ratings, Depends(get_ratings)]

#: ``?lang=es|en`` on a table or its state: a finished table's result also carries
#: ``tiebreak_text``, the game's explanation of the ties for people, in that language.
ResultLang = Annotated[
    Literal["es", "en"] | None,
    Query(
        description="a finished table's result also carries tiebreak_text: the game's "
        "explanation of the ties for people, in this language",
    ),
]


# ------------------------------------------------------------------ path and query parameters
# Every parameter a client sends is bounded by its type, so no value of it reaches the
# database that a column cannot hold (PostgreSQL refuses NUL in text and INTEGER past
# 2**31-1, SQLite past 2**63-1): out of bounds is a 422 validation_error naming it.

#: The largest number a query parameter takes: PostgreSQL's INTEGER, the type of a table's
#: version (the columns compared with ``since`` and ``start``).
MAX_QUERY_INT = 2**31 - 1

#: The form of every id in a path: the server's ids (hex table and player ids) and the names
#: of games and figures all fit it. Nothing else names anything: NUL, non-ASCII (``²``),
#: separators or more than 64 characters are a 422 validation_error.
ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"

TableId = Annotated[str, Path(pattern=ID_PATTERN, description="a table's id")]
PlayerId = Annotated[str, Path(pattern=ID_PATTERN, description="a player's id")]
GameId = Annotated[str, Path(pattern=ID_PATTERN, description="a game's id (see GET /games)")]
FigureName = Annotated[str, Path(pattern=ID_PATTERN, description="a figure's name")]
GameFilter = Annotated[
    str | None, Query(pattern=ID_PATTERN, description="only the tables of this game")
]
Since = Annotated[
    int, Query(ge=0, le=MAX_QUERY_INT, description="only what came after this number")
]


def query_since(raw: str | None) -> int | None:
    """``since`` read by hand from a query string (the WebSocket's): ASCII digits up to
    MAX_QUERY_INT, else None. ``str.isdigit`` is no guard: it is true for ``²``, which
    ``int`` refuses, and for numbers no database column holds."""
    if raw is None or not raw.isascii() or not raw.isdecimal() or len(raw) > 10:
        return None
    value = int(raw)
    return value if value <= MAX_QUERY_INT else None


# A private table's invite code (the ?invite= of its invite link): lets a player who is not
# seated read the table (API-EXTENSIONS.md, Tables). Without it such a table is a 404.
async def invite_code(
    request: Request,
    invite: Annotated[
        str | None,
        Query(max_length=64, description="a private table's invite code (from its invite link)"),
    ] = None,
) -> str | None:
    """The code, once the caller's address may still try one: every wrong code presented
    anywhere is a guess (counted by the error handler), and guesses share the new-player
    budget (API-EXTENSIONS.md, Codes and the new-player budget)."""
    if invite:
        await request.app.state.limiter.check_code_budget(client_ip(request.scope))
    return invite


Invite = Annotated[str | None, Depends(invite_code)]


async def require_visible_table(
    table_id: TableId, player: OptionalPlayer, service: ServiceDep, invite: Invite = None
) -> None:
    """A route guard: a private table the caller may not read is a 404, as if it did not exist
    (its id is not confirmed), before the route's own rules can answer anything else."""
    await service.visible_snapshot(table_id, player, invite)


VisibleTable = Depends(require_visible_table)


async def replay_budget(request: Request) -> None:
    """The replay endpoints' own rate limit (per IP, and per token when one is sent)."""
    limiter: RateLimiter = request.app.state.limiter
    await limiter.check_replay(client_ip(request.scope), bearer_key(request.scope))


ReplayBudget = Depends(replay_budget)


async def replay_client(request: Request, player: OptionalPlayer) -> str:
    """Whose turn a replay's work waits for: the signed-in player's, else the address's."""
    return f"player:{player.id}" if player is not None else f"ip:{client_ip(request.scope)}"


ReplayClient = Annotated[str, Depends(replay_client)]
