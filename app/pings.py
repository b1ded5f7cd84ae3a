"""The WebSocket protocol `python -m app` serves with: uvicorn's own, its keepalive pings
sent on a shared beat.

uvicorn pings each socket ``ws_ping_interval`` after it opened, on a timer of its own: with
1,000 quiet sockets that is 50 wake-ups of the process a second (≈ 0.1 ms each on a small
VM, before any work). Here every socket's next ping falls on the next whole ``PING_BEAT``
after its interval, so the pings due in the same second go out in one wake-up (and their
pongs come back together). A ping goes out at most ``PING_BEAT`` later than uvicorn's;
the pong timeout, the close on a missing pong and everything else are uvicorn's.
"""

from __future__ import annotations

import math

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

PING_BEAT = 1.0


class BeatPingProtocol(WebSocketsSansIOProtocol):
    def schedule_ping(self) -> None:
        assert self.ping_interval is not None
        when = math.ceil((self.loop.time() + self.ping_interval) / PING_BEAT) * PING_BEAT
        self.ping_timer = self.loop.call_at(when, self.send_keepalive_ping)
