"""The AsyncAPI document of the table WebSocket, generated from the frame models.

Served at /asyncapi.json and linked from /docs; the client frames are the
models that ws.py validates with, so the document cannot drift from the code.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from app.api.schemas import ChatMessagePublic, ErrorBody, StateOut, TablePublic
from app.realtime.ws import ActionFrame, AuthFrame, ChatFrame, PingFrame, SyncFrame, UndoFrame


class StateFrame(StateOut):
    """The seat's picture of the table (a spectator's: seat null), sent on connect, after
    every change and in answer to action, undo, sync and auth frames."""

    type: Literal["state"]
    ref: str | int | None = Field(
        default=None, description="the id of the action frame this answers"
    )
    events_complete: bool | None = Field(
        default=None,
        description="false: the client was too far behind; take the snapshot, fetch /log",
    )
    view: dict[str, Any] | None = Field(
        default=None, description="the seat's view (absent from a delta frame)"
    )
    base_version: int | None = Field(
        default=None, description="delta mode: the version of the view the patch applies to"
    )
    view_patch: list[dict[str, Any]] | None = Field(
        default=None,
        description="delta mode (?delta=1): RFC 6902 JSON Patch from the view at base_version",
    )


class TableFrame(BaseModel):
    """The table object (seats, presence, status) on connect and whenever it changes: a
    seat resigns, a cancel vote moves, the game is cancelled, "Play again" makes the
    next table (`next_table`); `table: null` with `deleted` once the table is deleted."""

    type: Literal["table"]
    table: TablePublic | None
    deleted: str | None = None


class ErrorFrame(BaseModel):
    """A refused, malformed or rate-limited frame, as the REST error envelope (`ref`: that
    frame's id); the socket stays open, except after auth failure (4401), an unknown
    table (4404) or silence before its first frame (4408)."""

    type: Literal["error"]
    error: ErrorBody
    ref: str | int | None = None


class PongFrame(BaseModel):
    """The answer to ping."""

    type: Literal["pong"]


class ChatMessageFrame(BaseModel):
    """A line of table chat, sent to every socket of the table (the sender's too)."""

    type: Literal["chat"]
    message: ChatMessagePublic


CLIENT_FRAMES: dict[str, type[BaseModel]] = {
    "action": ActionFrame, "undo": UndoFrame, "sync": SyncFrame, "ping": PingFrame, "auth": AuthFrame, "chat": ChatFrame,
}  # fmt: skip
SERVER_FRAMES: dict[str, type[BaseModel]] = {
    "state": StateFrame, "table": TableFrame, "error": ErrorFrame, "pong": PongFrame, "chat": ChatMessageFrame,
}  # fmt: skip

_DESCRIPTIONS = {
    "action": "Act: one element of legal_actions with the version it came from (id: idempotency key).",
    "undo": "Take back your own last action; `version` is the table's current version (POST /tables/{id}/undo).",
    "sync": "Send me the current state now, with the events after `version` (without one: those this socket was not sent yet).",
    "ping": "Keep-alive; answered with pong.",
    "auth": "Authenticate a spectator socket (the token query parameter does the same).",
    "chat": "A line of table chat.",
}


_QUERY = {
    "type": "object",
    "properties": {
        "token": {"type": "string", "description": "bearer token; absent = spectator"},
        "since": {
            "type": "integer",
            "description": "last version seen: the first state frame carries the missed events",
        },
        "lang": {
            "type": "string",
            "enum": ["es", "en"],
            "description": "every event in this socket's state frames also carries `text`, the "
            "game's readable line for it in that language, and `message`, the same line as a "
            "catalogue key with parameters (as /log?lang=), and a finished "
            "table's `result` (in state and table frames) also carries `tiebreak_text`, the "
            "game's explanation of the ties for people (as /state?lang=); without it, neither",
        },
        "delta": {
            "type": "string",
            "enum": ["1", "true"],
            "description": "opt-in view patches: the first state frame and the answer to every "
            "sync or auth carry the full `view`; each later state frame carries `base_version` "
            "and `view_patch` (RFC 6902 JSON Patch: add, remove, replace) instead; send sync to "
            "get a full view again",
        },
    },
}


def asyncapi_document(title: str = "Partida table channel", version: str = "1.0") -> dict[str, Any]:
    schemas: dict[str, Any] = {}
    messages: dict[str, Any] = {}

    def add(prefix: str, name: str, model: type[BaseModel]) -> dict[str, str]:
        schema = TypeAdapter(model).json_schema(ref_template="#/components/schemas/{model}")
        for def_name, definition in schema.pop("$defs", {}).items():
            schemas.setdefault(def_name, definition)
        schemas[model.__name__] = schema
        key = f"{prefix}_{name}"
        doc = model.__doc__ or ""
        messages[key] = {
            "name": key,
            "title": f"{name} ({'client → server' if prefix == 'client' else 'server → client'})",
            "summary": _DESCRIPTIONS[name] if prefix == "client" else " ".join(doc.split()),
            "contentType": "application/json",
            "payload": {"$ref": f"#/components/schemas/{model.__name__}"},
        }
        return {"$ref": f"#/components/messages/{key}"}

    publish = [add("client", n, m) for n, m in CLIENT_FRAMES.items()]
    subscribe = [add("server", n, m) for n, m in SERVER_FRAMES.items()]
    return {
        "asyncapi": "2.6.0",
        "info": {
            "title": title,
            "version": version,
            "description": "One WebSocket per table (API.md). Malformed frames are answered with an "
            "error frame; the socket closes only for auth failure (4401), an unknown table (4404), "
            "oversized frames (1009), flooding (1008) or silence before its first frame (4408).",
        },
        "channels": {
            "/api/v1/tables/{table_id}/ws": {
                "parameters": {"table_id": {"schema": {"type": "string"}}},
                "bindings": {"ws": {"query": _QUERY, "bindingVersion": "0.1.0"}},
                "publish": {"message": {"oneOf": publish}},
                "subscribe": {"message": {"oneOf": subscribe}},
            }
        },
        "components": {"messages": messages, "schemas": schemas},
    }
