"""Benchmark of the Ginkgopolis bot (issue 6).

1. N seeded 3-player games: the normal bot (rotating through seats 0, 1, 2) against two
   random-legal players; prints its win rate (a shared first place counts as a win).
2. N seeded solo games against Hal; prints the share of games the bot beats Hal.

    python benchmarks/ginkgopolis_bot.py [--games N] [--solo-games M]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.ginkgopolis import ENGINE
from app.games.ginkgopolis.rules import GinkgopolisOptions, GinkgopolisState


def play(n: int, seed: int, levels: list[str], options: GinkgopolisOptions) -> GinkgopolisState:
    """Play one game through the engine protocol only."""
    state = ENGINE.setup(n, seed, options)
    rng = random.Random(seed * 7919 + 1)
    for _ in range(ENGINE.max_length(n)):
        seats = sorted(ENGINE.to_act(state))
        if not seats:
            break
        seat = seats[0]
        legal = ENGINE.legal_actions(state, seat)
        action = ENGINE.bot(ENGINE.view(state, seat), legal, rng, levels[seat])
        state, _ = ENGINE.apply(state, seat, action)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--solo-games", type=int, default=None)
    parser.add_argument("--mode", default="sets", choices=["sets", "draft", "random"])
    args = parser.parse_args()
    solo_games = args.games if args.solo_games is None else args.solo_games
    options = GinkgopolisOptions(characters=args.mode)

    start = time.perf_counter()
    wins = 0
    margin = 0
    for g in range(args.games):
        bot_seat = g % 3
        levels = ["random"] * 3
        levels[bot_seat] = "normal"
        state = play(3, 10_000 + g, levels, options)
        res = ENGINE.result(state)
        assert res is not None
        if res.places[bot_seat] == 1:
            wins += 1
        best_other = max(v for s, v in res.scores.items() if s != bot_seat)
        margin += res.scores[bot_seat] - best_other
    elapsed = time.perf_counter() - start
    if args.games:
        print(
            f"3 players, normal bot vs 2 random: {wins}/{args.games} wins = {wins / args.games:.1%} "
            f"(fair share 33.3%), mean margin {margin / args.games:+.1f} SP, "
            f"{args.games / elapsed:.1f} games/s"
        )

    start = time.perf_counter()
    beat = 0
    for g in range(solo_games):
        state = play(1, 20_000 + g, ["normal"], options)
        res = ENGINE.result(state)
        assert res is not None
        beat += bool(res.details["beat_hal"])
    elapsed = time.perf_counter() - start
    if solo_games:
        print(
            f"solo vs Hal: the bot beats Hal in {beat}/{solo_games} games = {beat / solo_games:.1%}, "
            f"{solo_games / elapsed:.1f} games/s"
        )


if __name__ == "__main__":
    main()
