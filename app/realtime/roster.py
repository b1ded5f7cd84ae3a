"""Who has a socket open to which table in this process.

Its own object, made before the table service and the hub: the service asks it who is
connected (presence), the hub adds and removes sockets, and neither holds the other for it.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar


class Socket(Protocol):
    @property
    def player_id(self) -> str | None: ...


S = TypeVar("S", bound=Socket)


class Roster(Generic[S]):
    def __init__(self) -> None:
        self.tables: dict[str, set[S]] = {}

    def connected_players(self, table_id: str) -> set[str]:
        return {c.player_id for c in self.tables.get(table_id, ()) if c.player_id is not None}

    def connected_by_table(self) -> list[tuple[str, set[str]]]:
        """(table, players with a socket open here) for every table with sockets."""
        return [(t, self.connected_players(t)) for t in list(self.tables)]

    def count(self) -> int:
        return sum(len(c) for c in self.tables.values())
