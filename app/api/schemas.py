"""Request and response bodies of the public API (API.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
)

from app.tables.clocks import TimeControl


class RequestBody(BaseModel):
    """Every request body of the API: taken exactly as published. JSON says what type a value
    is, so nothing is coerced: ``"7"``, ``7.0`` or ``true`` for an integer, ``"yes"`` or ``1``
    for a boolean, a number for a string, and a field the body does not have, are each a 422
    validation_error naming the field (the same strictness as actions and options)."""

    model_config = ConfigDict(strict=True, extra="forbid")


def _iso_text(value: Any) -> Any:
    if not isinstance(value, str):
        raise ValueError("a moment is an ISO 8601 string, e.g. 2026-01-01T00:00:00Z")
    return value


#: A moment in a request body: JSON has no dates, so an ISO 8601 string and nothing else
#: (strict pydantic would refuse the string too, as it validates the parsed body; a number
#: would be read as seconds since 1970).
IsoDateTime = Annotated[datetime, Field(strict=False), BeforeValidator(_iso_text)]


def _clean_name(value: str) -> str:
    value = " ".join(value.split())
    if not value or any(not ch.isprintable() for ch in value):
        raise ValueError("a name needs at least one visible character and no control characters")
    return value


#: A player's name wherever a client sets one (sign-up, the admin's rename): spaces folded,
#: at least one visible character, no control characters.
PlayerName = Annotated[
    str, Field(min_length=1, max_length=40, examples=["Ana"]), AfterValidator(_clean_name)
]

#: A client's idempotency key (an action's or an undo's ``id``): any text of at most 64
#: characters without control characters (PostgreSQL cannot store NUL).
IdempotencyKey = Annotated[
    str,
    Field(max_length=64, pattern=r"^[^\x00-\x1f\x7f]*$", description="idempotency key"),
]


class PlayerCreate(RequestBody):
    name: PlayerName
    access_code: str | None = Field(
        default=None, max_length=200, description="needed when the server has an access code"
    )


class PlayerPublic(BaseModel):
    id: str
    name: str


class PlayerMe(PlayerPublic):
    webhook_url: str | None = Field(default=None, description="where turn alerts are POSTed")


class PlayerUpdate(RequestBody):
    webhook_url: str | None = Field(
        description="POSTed {event: your_turn, table_id, game, seat, version} when it becomes your turn; null to stop"
    )


class ChatCreate(RequestBody):
    text: str = Field(min_length=1, max_length=500)


class ChatMessagePublic(BaseModel):
    id: int
    player: PlayerPublic
    text: str
    at: str


class PlayerCreated(PlayerPublic):
    token: str = Field(description="bearer secret; shown once, stored only as a hash")


class TableCreate(RequestBody):
    game: str = Field(examples=["luz"])
    options: dict[str, Any] | None = Field(default=None, description="the game's options_schema")
    seats: int | None = Field(default=None, ge=1, le=12, description="number of seats")
    private: bool = Field(default=False, description="unlisted; joinable only with its invite code")
    time_control: TimeControl | None = Field(
        default=None, description="turn clocks and what happens to an absent player's seat"
    )
    on_resign: Literal["last", "bot"] = Field(
        default="last",
        description="a player who resigns is ranked last (a bot plays out their moves), or "
        "a bot finishes their seat and keeps the place it reaches",
    )


class JoinRequest(RequestBody):
    invite: str | None = Field(
        default=None, max_length=64, description="a private table's invite code"
    )


class BotCreate(RequestBody):
    level: str | None = Field(
        default=None, max_length=16, description="one of the game's bot_levels"
    )


# No action nests deeper than this (a few levels at most); deeper is refused before any
# engine or serializer walks it.
MAX_ACTION_DEPTH = 32


def nesting_depth(data: Any) -> int:
    """How deeply ``data`` nests (iteratively: a deep value cannot exhaust the stack)."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            deepest = max(deepest, depth)
            todo.extend((item, depth + 1) for item in value)
    return deepest


class ActionRequest(RequestBody):
    model_config = ConfigDict(
        json_schema_extra={
            "description": "action: one element of legal_actions, sent back verbatim"
        }
    )

    version: int = Field(description="the version the client acted on")
    action: dict[str, Any] = Field(description="an action of the table's game (see components)")
    id: IdempotencyKey | None = None

    @field_validator("action", mode="before")
    @classmethod
    def _shallow(cls, value: Any) -> Any:
        if nesting_depth(value) > MAX_ACTION_DEPTH:
            raise ValueError(f"an action nests at most {MAX_ACTION_DEPTH} levels deep")
        return value


class SeatPublic(BaseModel):
    seat: int
    player: PlayerPublic | None
    bot: bool
    bot_level: str | None = None
    connected: bool
    taken_over: bool = Field(
        default=False, description="a bot plays for the seated player, who may take it back"
    )
    takeover_votes: int = Field(default=0, description="votes to hand this seat to a bot")
    resigned: bool = Field(
        default=False, description="the player resigned: a bot plays the seat for good"
    )


class CancelVote(BaseModel):
    proposed_by: PlayerPublic = Field(description="the owner, who proposed to cancel")
    agreed: list[int] = Field(description="seats whose players agreed")
    waiting: list[int] = Field(description="seats whose players have not answered yet")


class TablePublic(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    status: str
    version: int
    seats: list[SeatPublic]
    owner: PlayerPublic
    created_at: str
    private: bool = False
    time_control: TimeControl | None = None
    invite_code: str | None = Field(
        default=None, description="shown to the table's seated players only"
    )
    result: dict[str, Any] | None = Field(
        default=None,
        description="the final result, once finished: scores, ranking, places, tiebreak, "
        "details; with ?lang= (or a WebSocket's lang) also tiebreak_text",
    )
    seed_commitment: str | None = Field(
        default=None,
        description="sha256 commitment to the seed; the seed is revealed by /replay after the end",
    )
    on_resign: Literal["last", "bot"] = Field(
        default="last", description="what a resignation means at this table"
    )
    cancel_vote: CancelVote | None = Field(
        default=None, description="the owner's proposal to cancel the running game, if any"
    )
    next_table: str | None = Field(
        default=None, description='the table "Play again" made from this finished one'
    )


class MyTable(TablePublic):
    my_seat: int | None
    my_turn: bool


class CancelVoteRequest(RequestBody):
    agree: bool = Field(description="true: cancel the game; false: turn the proposal down")


class JoinOut(BaseModel):
    seat: int


class StateOut(BaseModel):
    version: int
    status: str
    game: str
    to_act: list[int]
    seat: int | None
    view: dict[str, Any] | None
    legal_actions: list[dict[str, Any]]
    result: dict[str, Any] | None = Field(
        description="the final result once finished (API.md): scores, ranking, places, "
        "tiebreak, details; with ?lang= (or a WebSocket's lang) also tiebreak_text, the "
        "game's explanation of the ties for people in that language, seats numbered from 1 "
        '("" when no tie needs explaining)'
    )
    events: list[dict[str, Any]] | None = None
    clock: dict[str, Any] | None = Field(
        default=None, description="the turn clocks, when the table has a time control"
    )
    undoable: bool = Field(
        default=False,
        description="whether the caller's seat may take the table's last move back now "
        "(POST /undo would accept it); false for spectators and every other seat",
    )


class UndoRequest(RequestBody):
    version: int = Field(description="the table's current version (right after your action)")
    id: IdempotencyKey | None = None


class LogOut(BaseModel):
    version: int
    events: list[dict[str, Any]]


class GamePublic(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    bot_levels: list[str] = Field(description="weakest first; random last")
    default_bot_level: str = Field(description="a bot added without a level plays at this one")
    options_schema: dict[str, Any]
    action_schema: dict[str, Any]


class ErrorBody(BaseModel):
    code: str
    message: str = Field(description="a sentence in English, for developers and logs")
    reason: str | None = Field(
        default=None,
        description="a finer code where one code covers refusals people tell apart "
        '(e.g. not_undoable "final"; an engine\'s "luz.follow"); a client words the refusal '
        "by (code, reason)",
    )
    params: dict[str, Any] | None = Field(
        default=None,
        description="the values the refusal is built from, by name (the scalar details "
        "included), for a client's own sentence",
    )


class ErrorEnvelope(BaseModel):
    error: ErrorBody


ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorEnvelope, "description": "unauthorized"},
    403: {"model": ErrorEnvelope, "description": "forbidden or not_seated"},
    404: {"model": ErrorEnvelope, "description": "not_found"},
    409: {
        "model": ErrorEnvelope,
        "description": "a conflict (stale_version, not_your_turn, table_full, ...)",
    },
    413: {"model": ErrorEnvelope, "description": "payload_too_large"},
    422: {"model": ErrorEnvelope, "description": "validation_error or illegal_action"},
    429: {"model": ErrorEnvelope, "description": "rate_limited"},
    503: {
        "model": ErrorEnvelope,
        "description": "unavailable: the database cannot be reached; retry after Retry-After s",
    },
}
