"""ORM models: players, game tables, seats and the append-only action log."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.sql import false

from app.db.base import Base
from app.db.secret_columns import remember_secret_columns


def utcnow() -> datetime:
    return datetime.now(UTC)


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    is_blocked: Mapped[bool] = mapped_column(Boolean, default=False)
    webhook_url: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GameTable(Base):
    __tablename__ = "game_tables"
    __table_args__ = (
        Index("ix_game_tables_status_game", "status", "game"),
        # The lobby's keyset order (app.tables.lobby): newest first, then id.
        Index("ix_game_tables_created_at_id", "created_at", "id"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="open")
    seat_count: Mapped[int] = mapped_column(Integer)
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Secret columns: their values are masked in every log line (app.db.secret_columns).
    invite_code: Mapped[str] = mapped_column(
        String(32), default="", server_default="", info={"secret": True}
    )
    seed: Mapped[int] = mapped_column(BigInteger)
    seed_secret: Mapped[str] = mapped_column(
        String(64), default="", server_default="", info={"secret": True}
    )
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The time control chosen at creation (app.tables.clocks.TimeControl), and the running
    # clocks: per seat, seconds left in the bank and since when the seat has been due.
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    clocks: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # What a resignation means at this table (app.tables.outcomes): "last" (the seat is ranked
    # last, a bot plays out its moves) or "bot" (a bot finishes the seat and keeps its place).
    on_resign: Mapped[str] = mapped_column(String(8), server_default="last")
    # The owner's proposal to cancel the running game: {"by", "at", "yes": [player ids]}.
    cancel_vote: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # The table "Play again" made from this finished one (cleared if that table is deleted).
    next_table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True
    )

    owner: Mapped[Player] = relationship(lazy="joined")
    seats: Mapped[list[Seat]] = relationship(
        back_populates="table",
        order_by="Seat.seat",
        lazy="selectin",
        cascade="all, delete-orphan",
    )


class Seat(Base):
    __tablename__ = "seats"
    # One seat per player per table (an empty seat's NULL never collides); one player per
    # seat is the primary key (table_id, seat) with its single player column.
    __table_args__ = (UniqueConstraint("table_id", "player_id"),)

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True, index=True
    )
    # With a player still seated, a bot level means a bot plays for the absent player.
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Until when the seat's player counts as seen (any instance): while connected, a lease
    # in the future that the instance holding the socket renews; then the moment they left.
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Votes to hand this seat to a bot: [{"voter": player id, "at": epoch seconds}]; a vote
    # cast before the player was last seen no longer counts.
    takeover_votes: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    # When the seat's player resigned (a bot plays the seat from then on, for good).
    resigned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    table: Mapped[GameTable] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship(lazy="joined")


class ActionRecord(Base):
    """One accepted action: the log is the truth, the table's state is its cache."""

    __tablename__ = "action_log"
    __table_args__ = (
        UniqueConstraint("table_id", "version"),
        UniqueConstraint("table_id", "client_id"),
    )

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # "action": the seat's action; "undo": the seat took back the action of version
    # ``action["undoes"]`` and the table went back to the state before it.
    kind: Mapped[str] = mapped_column(String(16), default="action", server_default="action")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    """A line of table chat, stored with the table."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_table_id_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    player_name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Base):
    """A player's skill at one game (openskill's Plackett-Luce: mu and sigma)."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ServerSecret(Base):
    """A secret of the deployment made once and shared by all its instances (the key that
    signs lobby cursors when PARTIDA_SECRET_KEY is not set)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128), info={"secret": True})
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


remember_secret_columns(Base)
