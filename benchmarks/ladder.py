"""The bots' ladder: seeded games between levels, per game and player count.

    python benchmarks/ladder.py [--game luz] [--players 2] [--games 200]
        [--matchups strong:normal,normal:easy,easy:random] [--iterations 600] [--seconds 1]
        [--processes 2]

A matchup ``A:B`` puts one seat at level ``A`` and every other seat at ``B``; game ``g`` uses
seed ``g`` and puts ``A`` at seat ``g mod N``, so no seat order favours it. Solo games
(Ginkgopolis against Hal) play level ``A`` alone: its win rate is against Hal, and ``B`` is
not used. A shared first place counts as a split win. The table shows ``A``'s win share
with its 95% confidence interval (Wilson), the fair share (1/N, for solo: none), ``A``'s mean
score margin over the best other seat (over Hal in solo), and the seconds per move of each
level. Every bot decides from its seat's view only (``ENGINE.view``), as on the server.
The strong level is the game's search, measured also where the game does not offer it yet
(a game offers it once this ladder shows it beating normal).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games import REGISTRY, search
from app.games.base import STRONG, SearchBudget
from app.games.search import win_shares

DEFAULT_MATCHUPS = "strong:normal,normal:easy,easy:random"


@dataclass
class Game:
    """One game's outcome for the level under test (``A``)."""

    share: float
    margin: float
    seconds: dict[str, float] = field(default_factory=dict)
    moves: dict[str, int] = field(default_factory=dict)


def play(game_id: str, n: int, seed: int, a: str, b: str, budget: SearchBudget) -> Game:
    engine = REGISTRY[game_id]
    a_seat = seed % n
    levels = [a if s == a_seat else b for s in range(n)]
    state = engine.setup(n, seed, engine.Options())
    rngs = [random.Random(f"{seed}:{s}") for s in range(n)]
    outcome = Game(share=0.0, margin=0.0)
    while (result := engine.result(state)) is None:
        seat = min(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        level = levels[seat]
        start = time.perf_counter()
        view = engine.view(state, seat)
        if level == STRONG:
            # The search itself, also in a game that does not offer it yet (its trial).
            action = search.choose(engine, view, seat, legal, rngs[seat], budget)
        else:
            action = engine.bot(view, legal, rngs[seat], level)
        outcome.seconds[level] = outcome.seconds.get(level, 0.0) + time.perf_counter() - start
        outcome.moves[level] = outcome.moves.get(level, 0) + 1
        state = engine.apply(state, seat, action).state
    outcome.share = win_shares(result, n)[a_seat]
    others = [score for s, score in result.scores.items() if int(s) != a_seat]
    others += [o.score for o in result.others]
    mine = result.scores[a_seat]
    outcome.margin = float(mine - max(others)) if others else float(mine)
    return outcome


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (split wins count as fractions)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="a game id (repeatable); all by default")
    parser.add_argument(
        "--players", type=int, action="append", help="player counts; all by default"
    )
    parser.add_argument("--games", type=int, default=100, help="games per matchup and count")
    parser.add_argument("--matchups", default=DEFAULT_MATCHUPS)
    parser.add_argument("--iterations", type=int, default=SearchBudget().iterations)
    parser.add_argument("--seconds", type=float, default=SearchBudget().seconds)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    budget = SearchBudget(iterations=args.iterations, seconds=args.seconds)
    games = args.game or sorted(REGISTRY)
    matchups = [tuple(m.split(":")) for m in args.matchups.split(",")]
    print(
        f"budget: {budget.iterations} iterations, {budget.seconds:g} s cap; "
        f"{args.games} games per row, seeds {args.first_seed}..{args.first_seed + args.games - 1}"
    )
    print()
    print(
        "| game | players | A vs B | A's win share (95% CI) | fair share | A's mean margin "
        "| s/move A | s/move B |"
    )
    print("|---|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(args.processes) as pool:
        for game_id in games:
            info = REGISTRY[game_id].info
            counts = args.players or range(info.min_players, info.max_players + 1)
            for n in counts:
                if not info.min_players <= n <= info.max_players:
                    continue
                for a, b in matchups:
                    if n == 1 and b != "normal":
                        continue  # solo: each level once, against the rules' own opponent
                    seeds = range(args.first_seed, args.first_seed + args.games)
                    futures = [pool.submit(play, game_id, n, s, a, b, budget) for s in seeds]
                    results = [f.result() for f in futures]
                    wins = sum(r.share for r in results)
                    low, high = wilson(wins, len(results))
                    margin = sum(r.margin for r in results) / len(results)

                    def per_move(level: str, results: list[Game] = results) -> str:
                        seconds = sum(r.seconds.get(level, 0.0) for r in results)
                        moves = sum(r.moves.get(level, 0) for r in results)
                        return f"{seconds / moves:.3f}" if moves else "–"

                    versus = f"{a} vs Hal" if n == 1 else f"{a} vs {b}"
                    fair = "–" if n == 1 else f"{1 / n:.0%}"
                    print(
                        f"| {game_id} | {n} | {versus} | {wins / len(results):.1%} "
                        f"({low:.1%}–{high:.1%}) | {fair} | {margin:+.1f} | {per_move(a)} "
                        f"| {'–' if n == 1 else per_move(b)} |",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
