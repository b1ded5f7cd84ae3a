"""The WebSocket protocol `python -m app` serves with: uvicorn's own, its keepalive pings
sent on a shared beat, and permessage-deflate's window as the settings say.

uvicorn pings each socket ``ws_ping_interval`` after it opened, on a timer of its own: with
1,000 quiet sockets that is 50 wake-ups of the process a second (≈ 0.1 ms each on a small
VM, before any work). Here every socket's next ping falls on the next whole ``PING_BEAT``
after its interval, so the pings due in the same second go out in one wake-up (and their
pongs come back together). A ping goes out at most ``PING_BEAT`` later than uvicorn's;
the pong timeout, the close on a missing pong and everything else are uvicorn's.
"""

from __future__ import annotations

import math
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

PING_BEAT = 1.0


class BeatPingProtocol(WebSocketsSansIOProtocol):
    def schedule_ping(self) -> None:
        if self.ping_interval is None:
            return  # keepalive off: uvicorn schedules nothing then either
        when = math.ceil((self.loop.time() + self.ping_interval) / PING_BEAT) * PING_BEAT
        self.ping_timer = self.loop.call_at(when, self.send_keepalive_ping)


# uvicorn's own permessage-deflate: a 4 KB window and zlib's memLevel 5 (≈ 45 KB resident
# per socket once frames went through it).
UVICORN_WINDOW_BITS = 12


def serving_protocol(window_bits: int) -> type[WebSocketsSansIOProtocol]:
    """BeatPingProtocol, compressing with a window of ``2**window_bits`` bytes (and zlib's
    memLevel to match, as uvicorn pairs 12 with 5) when compression is on."""
    if window_bits == UVICORN_WINDOW_BITS:
        return BeatPingProtocol

    class SmallWindowProtocol(BeatPingProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.conn.available_extensions:
                self.conn.available_extensions = [
                    ServerPerMessageDeflateFactory(
                        server_max_window_bits=window_bits,
                        client_max_window_bits=window_bits,
                        compress_settings={"memLevel": max(1, window_bits - 7)},
                    )
                ]

    return SmallWindowProtocol
