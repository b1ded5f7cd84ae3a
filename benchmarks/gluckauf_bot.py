"""Benchmark: the normal Glück Auf bot against two random-legal players.

Plays N seeded 3-player games through the ENGINE only (the bot sits at seat
``game % 3`` so it takes every position equally) and prints the bot's win rate
(shared first places count as a win) and games per second.

    python benchmarks/gluckauf_bot.py [--games 300] [--players 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.gluckauf import ENGINE
from app.games.gluckauf.rules import GluckaufOptions


def play_one(game: int, n_players: int) -> tuple[bool, int, float]:
    """Play one game; return (bot won, bot score, best random score)."""
    bot_seat = game % n_players
    state = ENGINE.setup(n_players, 1000 + game, GluckaufOptions())
    rng = random.Random(game)
    while (result := ENGINE.result(state)) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        level = "normal" if seat == bot_seat else "random"
        action = ENGINE.bot(ENGINE.view(state, seat), legal, rng, level)
        state, _ = ENGINE.apply(state, seat, action)
    others = max(v for s, v in result.scores.items() if s != bot_seat)
    return result.places[bot_seat] == 1, result.scores[bot_seat], others


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    wins = 0
    bot_total = 0
    other_total = 0.0
    for game in range(args.games):
        won, score, other = play_one(game, args.players)
        wins += won
        bot_total += score
        other_total += other
    elapsed = time.perf_counter() - start
    share = 1 / args.players
    print(
        f"gluckauf bot: {wins}/{args.games} wins = {wins / args.games:.1%} "
        f"(fair share {share:.1%}); mean score bot {bot_total / args.games:.1f} "
        f"vs best random {other_total / args.games:.1f}; "
        f"{args.games / elapsed:.1f} games/s"
    )


if __name__ == "__main__":
    main()
