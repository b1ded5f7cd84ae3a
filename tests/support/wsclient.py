"""A WebSocket test client over websockets' sync API that keeps every frame it received."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.sync.client import ClientConnection, connect


class Socket:
    def __init__(self, url: str) -> None:
        self._context = connect(url, open_timeout=10, max_size=2**22)
        self.conn: ClientConnection = self._context.__enter__()
        self.frames: list[dict[str, Any]] = []

    def send(self, frame: dict[str, Any] | str) -> None:
        self.conn.send(frame if isinstance(frame, str) else json.dumps(frame))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame = json.loads(self.conn.recv(timeout=timeout))
        self.frames.append(frame)
        return frame  # type: ignore[no-any-return]

    def until(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching frame")
            frame = self.recv(timeout=left)
            if predicate(frame):
                return frame

    def state_at(self, version: int, timeout: float = 10) -> dict[str, Any]:
        """The newest state frame at ``version`` or later (one already received counts)."""
        for frame in reversed(self.frames):
            if frame["type"] == "state":
                if frame["version"] >= version:
                    return frame
                break
        return self.until(lambda f: f["type"] == "state" and f["version"] >= version, timeout)

    def close(self) -> None:
        self._context.__exit__(None, None, None)
