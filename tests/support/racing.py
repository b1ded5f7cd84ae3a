"""Race tests: one action sent by many clients at once."""

from __future__ import annotations

import threading
from typing import Any

import httpx

from tests.support.client import Player
from tests.support.live import LiveServer
from tests.support.wsclient import Socket


def race(
    live: LiveServer,
    player: Player,
    tid: str,
    version: int,
    action: dict[str, Any],
    ids: list[str | None],
) -> list[dict[str, Any]]:
    """Send ``action`` from len(ids) clients at once, odd ones over WebSocket, the others over
    HTTP (an id of None: no idempotency id). Each answer is {"ok": reply} or the error body."""
    barrier = threading.Barrier(len(ids))
    answers: list[dict[str, Any]] = [{} for _ in ids]
    sockets = {
        i: Socket(f"{live.ws_url}/api/v1/tables/{tid}/ws?token={player.token}")
        for i in range(len(ids))
        if i % 2
    }
    for sock in sockets.values():
        sock.until(lambda f: f["type"] == "state")

    def send(i: int) -> None:
        barrier.wait()
        if i in sockets:
            ref = ids[i] or f"ws-{i}"
            sockets[i].send({"type": "action", "version": version, "action": action, "id": ref})
            frame = sockets[i].until(lambda f: f.get("ref") == ref)
            answers[i] = frame if frame["type"] == "error" else {"ok": frame}
        else:
            body: dict[str, Any] = {"version": version, "action": action}
            if ids[i] is not None:
                body["id"] = ids[i]
            with httpx.Client(base_url=live.url, timeout=30) as client:
                r = client.post(f"/api/v1/tables/{tid}/actions", json=body, headers=player.auth)
                answers[i] = {"ok": r.json()} if r.status_code == 200 else r.json()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(ids))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for sock in sockets.values():
        sock.close()
    return answers
