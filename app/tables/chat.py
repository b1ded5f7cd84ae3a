"""Table chat: stored with the table, fanned out like state ("table T has chat message N")."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app import errors
from app.db.models import ChatMessage, Player, utcnow
from app.realtime.broker import ChatPosted
from app.tables.service import TableService
from app.tables.snapshot import iso

MAX_CHAT_LENGTH = 500


def _public(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.id,
        "player": {"id": message.player_id, "name": message.player_name},
        "text": message.text,
        "at": iso(message.created_at),
    }


def clean_text(raw: Any) -> str:
    if not isinstance(raw, str):
        raise errors.ValidationFailed("a chat message is a string", reason="not_text", field="text")
    text = " ".join(raw.split())
    if not text:
        raise errors.ValidationFailed(
            "a chat message needs some visible text", reason="empty_text", field="text"
        )
    if len(text) > MAX_CHAT_LENGTH:
        raise errors.ValidationFailed(
            f"chat messages are at most {MAX_CHAT_LENGTH} characters",
            reason="too_long",
            params={"max_length": MAX_CHAT_LENGTH},
            field="text",
        )
    if any(not ch.isprintable() for ch in text):
        raise errors.ValidationFailed(
            "chat messages cannot hold control characters",
            reason="control_characters",
            field="text",
        )
    return text


class Chat:
    def __init__(self, service: TableService) -> None:
        self.service = service

    async def post(
        self, table_id: str, player: Player, text: Any, invite: str | None = None
    ) -> dict[str, Any]:
        """Store a line from a player seated at the table (watchers read the chat, never post).

        To a player who may not read a private table, it does not exist (404)."""
        snap = await self.service.visible_snapshot(table_id, player, invite)
        if snap.seat_of(player.id) is None:
            raise errors.NotSeated("only the players seated at this table can chat here")
        text = clean_text(text)
        message = ChatMessage(
            table_id=table_id,
            player_id=player.id,
            player_name=player.name,
            text=text,
            created_at=utcnow(),
        )
        async with self.service.sessionmaker() as session, session.begin():
            session.add(message)
        await self.service.broker.publish(ChatPosted(table_id, message.id))
        return _public(message)

    async def messages(
        self,
        table_id: str,
        since: int = 0,
        limit: int = 200,
        *,
        viewer: Player | None = None,
        invite: str | None = None,
    ) -> list[dict[str, Any]]:
        await self.service.visible_snapshot(table_id, viewer, invite)
        async with self.service.sessionmaker() as session:
            rows = (
                (
                    await session.execute(
                        select(ChatMessage)
                        .where(ChatMessage.table_id == table_id, ChatMessage.id > since)
                        .order_by(ChatMessage.id.desc())
                        .limit(limit)
                    )
                )
                .scalars()
                .all()
            )
        return [_public(m) for m in reversed(rows)]

    async def message(self, message_id: int) -> dict[str, Any] | None:
        async with self.service.sessionmaker() as session:
            found = await session.get(ChatMessage, message_id)
        return _public(found) if found is not None else None
