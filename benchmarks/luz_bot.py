"""Benchmark: the Luz "normal" bot at one seat against random-legal seats, through the ENGINE only.

    python benchmarks/luz_bot.py [--games 500] [--players 4]

Each game g uses seed g; the bot's seat rotates (g mod N) so it is not always first. The bot
decides from ``ENGINE.view(state, seat)`` only. A shared first place counts as a win for
every seat sharing it (also for the random seats), so "its share" is 1/N.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.luz import ENGINE, LuzOptions


def play(seed: int, n: int, bot_seat: int) -> tuple[bool, int, list[tuple[int, int, bool]]]:
    """Play one game; return (bot won, bot score, bot's (bet, won, safety) per deal)."""
    state = ENGINE.setup(n, seed, LuzOptions())
    rng = random.Random(seed)
    while (result := ENGINE.result(state)) is None:
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal_actions(state, seat)
        if seat == bot_seat:
            action = ENGINE.bot(ENGINE.view(state, seat), legal, rng, "normal")
            assert action in legal
        else:
            action = ENGINE.bot(ENGINE.view(state, seat), legal, rng, "random")
        state = ENGINE.apply(state, seat, action).state
    rows = [(r[bot_seat].bet, r[bot_seat].won, r[bot_seat].safety) for r in state.history]
    return result.places[bot_seat] == 1, result.scores[bot_seat], rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    n = args.players
    wins = 0
    total = 0
    hits = 0
    deals = 0
    diff = 0
    start = time.perf_counter()
    for g in range(args.games):
        won, score, rows = play(g, n, g % n)
        wins += won
        total += score
        for bet, tricks, safety in rows:
            deals += 1
            diff += tricks - bet
            hits += tricks == bet or (safety and tricks == bet + 1)
    elapsed = time.perf_counter() - start
    print(f"Luz bot vs {n - 1} random seats, {args.games} games ({n} players)")
    print(f"win rate: {wins / args.games:.1%} (share {1 / n:.1%})")
    print(
        f"mean score: {total / args.games:.1f}; bets hit: {hits / deals:.1%}; "
        f"mean (won - bet): {diff / deals:+.2f}"
    )
    print(f"speed: {args.games / elapsed:.1f} games/s")


if __name__ == "__main__":
    main()
