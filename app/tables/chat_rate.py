"""The chat rate per player (PARTIDA_RATE_LIMIT_CHAT), shared by REST and the table socket.

Counted by the app's RateLimiter (in memory, or on Redis across instances), keyed by the
player, not by socket or address: a second socket or a REST client does not add budget.
"""

from __future__ import annotations

from functools import lru_cache

import limits

from app import errors
from app.security import RateLimiter


@lru_cache(maxsize=8)
def _limit(spec: str) -> limits.RateLimitItem:
    return limits.parse(spec)


async def check_chat_rate(limiter: RateLimiter, spec: str, player_id: str) -> None:
    """Count one chat line of ``player_id``; RateLimited when over ``spec`` ("20/minute")."""
    item = _limit(spec)
    if not await limiter.hit(item, "chat", player_id):
        raise errors.RateLimited(f"too many chat messages; the limit is {item}", reason="chat")
