"""Singular or plural for the readable lines of every game (Spanish and English).

Both languages use the singular for exactly one and the plural otherwise (zero included:
"0 cards", "0 cartas"), so one rule serves both; the words come from the caller.
"""

from __future__ import annotations


def form(n: int, one: str, other: str) -> str:
    """``one`` when ``n`` is 1, else ``other`` (a verb or article that agrees with n)."""
    return one if n == 1 else other


def count(n: int, one: str, other: str) -> str:
    """``n`` and the noun that agrees with it: ``count(1, "card", "cards") == "1 card"``."""
    return f"{n} {form(n, one, other)}"
