"""How fast bots move at a table: the pace its creator chose, in seconds before each bot action.

A bot that answers at once leaves people unable to follow the game: several moves land
between two glances and the board jumps. The table's ``time_control.bot_pace`` names a
pause the bot driver waits before every action a bot takes, so each bot move reaches the
players as a step of its own (its own version and state frame) and the browser can show
it. "normal" is the server's ``PARTIDA_BOT_DELAY``; "fast" and "slow" are fixed paces that
never cross it (a host that makes bots instant keeps "slow" slow).
"""

from __future__ import annotations

import asyncio
from typing import Literal, TypeAlias

BotPace: TypeAlias = Literal["fast", "normal", "slow"]

FAST_SECONDS: float = 0.3
SLOW_SECONDS: float = 1.5


def bot_delay(pace: BotPace, server_delay: float) -> float:
    """Seconds a bot waits before each of its actions at a table of ``pace``.

    >>> bot_delay("fast", 0.6), bot_delay("normal", 0.6), bot_delay("slow", 0.6)
    (0.3, 0.6, 1.5)
    >>> bot_delay("fast", 0.0), bot_delay("slow", 3.0)
    (0.0, 3.0)
    """
    if pace == "fast":
        return min(FAST_SECONDS, server_delay)
    if pace == "slow":
        return max(SLOW_SECONDS, server_delay)
    return server_delay


async def pause(seconds: float) -> None:
    """Wait before one bot action (module-level so a test can count the pauses)."""
    if seconds > 0:
        await asyncio.sleep(seconds)
