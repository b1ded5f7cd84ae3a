"""Benchmark the MINE! bot: N seeded 4-seat games, the normal bot against three random seats.

The bot's seat rotates with the game number. A win is a place of 1 (a shared first place
cannot happen: §6 roll-offs separate every tie). ``--selfplay`` seats the normal bot
everywhere instead and reports only the scores. Each run also gives the score spread (winner
minus last, the dummy included), which mine.md §2.5 asks to re-measure after the revised
recruitment draw. Usage:

    python benchmarks/mine_bot.py [--games 300] [--seats 4] [--variant] [--dummy] [--selfplay]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.mine import ENGINE
from app.games.mine.rules import MineOptions


def play(
    seed: int, seats: int, bot_seat: int | None, options: MineOptions
) -> tuple[int, int, int, int, int]:
    """Play one game (``bot_seat`` None: the normal bot at every seat).

    Return (place of the bot, its score, the best other seat's score, the winning score,
    the spread between the first and the last director, the dummy included).
    """
    state = ENGINE.setup(seats, seed, options)
    rng = random.Random(seed)
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        level = "normal" if bot_seat is None or seat == bot_seat else "random"
        action = ENGINE.bot(ENGINE.view(state, seat), legal, rng, level)
        state, _ = ENGINE.apply(state, seat, action)
    res = ENGINE.result(state)
    assert res is not None
    every = [d.score for d in state.directors]
    me = 0 if bot_seat is None else bot_seat
    others = max(v for s, v in res.scores.items() if s != me)
    return res.places[me], res.scores[me], others, max(every), max(every) - min(every)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--variant", action="store_true")
    parser.add_argument("--dummy", action="store_true")
    parser.add_argument("--selfplay", action="store_true")
    args = parser.parse_args()
    options = MineOptions(variant=args.variant, dummy=True if args.dummy else "auto")
    wins = 0
    bot_total = other_total = top_total = spread_total = 0
    start = time.perf_counter()
    for g in range(args.games):
        bot_seat = None if args.selfplay else g % args.seats
        place, score, best_other, top, spread = play(1000 + g, args.seats, bot_seat, options)
        wins += place == 1
        bot_total += score
        other_total += best_other
        top_total += top
        spread_total += spread
    elapsed = time.perf_counter() - start
    n = args.games
    scores = f"winner {top_total / n:.2f}, spread first-last {spread_total / n:.2f}"
    if args.selfplay:
        print(f"mine bot self-play: {scores}; {n / elapsed:.1f} games/s")
        return
    print(
        f"mine bot: {wins}/{n} wins = {wins / n:.1%} (fair share {1 / args.seats:.1%}); "
        f"mean score {bot_total / n:.2f} vs best random {other_total / n:.2f}; "
        f"{scores}; {n / elapsed:.1f} games/s"
    )


if __name__ == "__main__":
    main()
