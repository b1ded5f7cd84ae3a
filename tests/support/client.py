"""A small API.md client for tests (sync httpx)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx


@dataclass
class Player:
    id: str
    name: str
    token: str
    http: httpx.Client

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.http.get(path, headers=self.auth, **kw)

    def post(self, path: str, json: Any = None, **kw: Any) -> httpx.Response:
        return self.http.post(path, json=json, headers=self.auth, **kw)

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def state(self, table_id: str) -> dict[str, Any]:
        r = self.get(f"/api/v1/tables/{table_id}/state")
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def act(
        self, table_id: str, version: int, action: dict[str, Any], **extra: Any
    ) -> httpx.Response:
        return self.post(
            f"/api/v1/tables/{table_id}/actions", {"version": version, "action": action, **extra}
        )


def new_player(http: httpx.Client, name: str) -> Player:
    r = http.post("/api/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    body = r.json()
    return Player(body["id"], body["name"], body["token"], http)


def make_table(
    owner: Player, game: str, seats: int, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    r = owner.post("/api/v1/tables", {"game": game, "seats": seats, "options": options or {}})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def acting(players: list[Player], tid: str) -> tuple[Player, dict[str, Any]]:
    """The first player with a legal action, and the state they see."""
    for p in players:
        s = p.state(tid)
        if s["legal_actions"]:
            return p, s
    raise AssertionError("nobody to act")
