"""A third-party Partida client in one file: joins a table and plays random legal actions.

Uses only httpx, websockets and the public protocol (API.md):

    python examples/random_bot.py http://127.0.0.1:8000 TABLE_ID [--name Robo] [--token TOKEN]

Without --token it creates a player. It joins the table if it holds no seat
there yet, then plays its seat over the WebSocket until the game ends.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys

import httpx
import websockets


async def play(base: str, table_id: str, name: str, token: str | None, seed: int | None) -> int:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        if token is None:
            created = (
                (await http.post("/api/v1/players", json={"name": name})).raise_for_status().json()
            )
            token = created["token"]
        auth = {"Authorization": f"Bearer {token}"}
        me = (await http.get("/api/v1/me", headers=auth)).raise_for_status().json()
        table = (await http.get(f"/api/v1/tables/{table_id}")).raise_for_status().json()
        if not any(s["player"] and s["player"]["id"] == me["id"] for s in table["seats"]):
            joined = await http.post(f"/api/v1/tables/{table_id}/join", headers=auth)
            if joined.status_code != 200:
                print("cannot join:", joined.json()["error"]["message"], file=sys.stderr)
                return 1
            print(f"{me['name']} sits at seat {joined.json()['seat']}")

    ws_url = base.replace("http", "ws", 1) + f"/api/v1/tables/{table_id}/ws?token={token}"
    async with websockets.connect(ws_url) as ws:
        async for raw in ws:
            frame = json.loads(raw)
            if frame["type"] == "error":
                print("server said:", frame["error"]["message"], file=sys.stderr)
                await ws.send(json.dumps({"type": "sync"}))
            elif frame["type"] == "state":
                if frame["status"] == "finished":
                    print("game over:", json.dumps(frame["result"]))
                    return 0
                if frame["legal_actions"]:
                    action = rng.choice(frame["legal_actions"])
                    await ws.send(
                        json.dumps(
                            {"type": "action", "version": frame["version"], "action": action}
                        )
                    )
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("base_url")
    parser.add_argument("table_id")
    parser.add_argument("--name", default="RandomBot")
    parser.add_argument("--token")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args()
    return asyncio.run(
        play(args.base_url.rstrip("/"), args.table_id, args.name, args.token, args.seed)
    )


if __name__ == "__main__":
    sys.exit(main())
