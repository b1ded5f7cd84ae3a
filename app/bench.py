"""Engine benchmark: complete random games per second, and the cost of each protocol call.

    python -m app.bench                    # every registered game
    python -m app.bench --game luz --games 200 --players 4 --json bench.json

Random legal actions at every seat (the `random` bot level), one core, no server.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

from app.games import REGISTRY
from app.games.base import Engine


@dataclass
class EngineFigures:
    game: str
    players: int
    games: int
    games_per_second: float
    actions_per_game: float
    apply_us: float
    legal_actions_us: float
    view_us: float
    setup_us: float


def bench_engine(engine: Engine, players: int, games: int, seed: int = 1) -> EngineFigures:
    rng = random.Random(seed)
    options = engine.Options()
    t_apply = t_legal = t_view = t_setup = 0.0
    n_apply = n_legal = n_view = 0
    started = time.perf_counter()
    for g in range(games):
        t0 = time.perf_counter()
        state = engine.setup(players, seed + g, options)
        t_setup += time.perf_counter() - t0
        while True:
            to_act = engine.to_act(state)
            if not to_act:
                break
            seat = min(to_act)
            t0 = time.perf_counter()
            legal = engine.legal_actions(state, seat)
            t1 = time.perf_counter()
            # What a server sends a seat: the view's JSON form (Engine.view_json).
            engine.view_json(state, seat)
            t2 = time.perf_counter()
            state, _ = engine.apply(state, seat, legal[rng.randrange(len(legal))])
            t3 = time.perf_counter()
            t_legal += t1 - t0
            t_view += t2 - t1
            t_apply += t3 - t2
            n_legal += 1
            n_view += 1
            n_apply += 1
    elapsed = time.perf_counter() - started
    # Games per second counts only what a game needs (setup, legal_actions, apply), not the views.
    game_time = elapsed - t_view
    return EngineFigures(
        game=engine.info.id,
        players=players,
        games=games,
        games_per_second=round(games / game_time, 1),
        actions_per_game=round(n_apply / games, 1),
        apply_us=round(t_apply / n_apply * 1e6, 1),
        legal_actions_us=round(t_legal / n_legal * 1e6, 1),
        view_us=round(t_view / n_view * 1e6, 1),
        setup_us=round(t_setup / games * 1e6, 1),
    )


def _table(rows: list[EngineFigures]) -> str:
    head = f"{'game':<12} {'seats':>5} {'games/s':>9} {'actions':>8} {'apply µs':>9} {'legal µs':>9} {'view µs':>8}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.game:<12} {r.players:>5} {r.games_per_second:>9.1f} {r.actions_per_game:>8.1f} "
            f"{r.apply_us:>9.1f} {r.legal_actions_us:>9.1f} {r.view_us:>8.1f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument(
        "--game", action="append", choices=sorted(REGISTRY), help="repeatable; default all"
    )
    parser.add_argument("--games", type=int, default=100, help="complete games per engine")
    parser.add_argument("--players", type=int, help="seats (default: 4, or the game's limit)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    rows = []
    for game_id in args.game or sorted(REGISTRY):
        engine = REGISTRY[game_id]
        players = args.players or min(max(4, engine.info.min_players), engine.info.max_players)
        players = max(engine.info.min_players, min(players, engine.info.max_players))
        rows.append(bench_engine(engine, players, args.games, args.seed))
        print(_table(rows[-1:]).splitlines()[-1] if len(rows) > 1 else _table(rows), flush=True)
    figures: dict[str, Any] = {"engines": [asdict(r) for r in rows]}
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(figures, fh, indent=2)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
