"""Check a finished game: the seed matches the commitment published before it, and
replaying seed + log through the engine gives the recorded final state and result. A game
that ended before its rules ended it (by the host, cancelled, every other seat resigned)
has its moves checked all the same, and its result checked as the one the table made.

    python -m app.verify http://127.0.0.1:8000/api/v1/tables/<id> [--commitment HEX]
    python -m app.verify replay.json

--commitment is the seed_commitment you noted while the game was running (the
table listing shows it from the moment the table is created).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import httpx

from app.fairness import commitment, seed_from_secret
from app.games import REGISTRY
from app.games.base import Engine, Opponent, RulesError, automatic_opponents
from app.tables.outcomes import (
    DEFAULT_ON_RESIGN,
    cancelled_result,
    early_result,
    host_ended_result,
    reranked,
    with_resignations,
)
from app.tables.replay import ACTION, final_state


class VerificationFailed(Exception):
    pass


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def verify(
    replay: dict[str, Any],
    games: dict[str, Engine] | None = None,
    expected_commitment: str | None = None,
) -> list[str]:
    """Return the checks that passed; raise VerificationFailed at the first that does not."""
    games = REGISTRY if games is None else games
    table = replay["table"]
    engine = games.get(table["game"])
    if engine is None:
        raise VerificationFailed(f"unknown game {table['game']!r}")
    secret = replay.get("seed_secret")
    if not secret:
        raise VerificationFailed(
            "the replay reveals no seed secret (a table from before commitments)"
        )
    passed = []
    published = table.get("seed_commitment") or replay.get("seed_commitment")
    if commitment(secret) != published:
        raise VerificationFailed("the revealed secret does not match the table's commitment")
    passed.append(f"sha256 commitment {published[:16]}… matches the revealed secret")
    if expected_commitment is not None:
        if expected_commitment.lower() != published:
            raise VerificationFailed(
                "the commitment differs from the one you noted before the game"
            )
        passed.append("the commitment is the one noted before the game")
    seed = seed_from_secret(secret)
    if seed != replay["seed"]:
        raise VerificationFailed("the seed was not derived from the committed secret")
    passed.append(f"the seed {seed} derives from the secret")
    options = engine.Options.model_validate(table["options"])
    state = engine.setup(replay["seat_count"], seed, options)
    if _canonical(state.model_dump(mode="json")) != _canonical(replay["initial_state"]):
        raise VerificationFailed("the initial state does not follow from the seed")
    passed.append("the initial deal follows from the seed")
    if "setup_events" in replay:
        opened = [
            e.model_dump(mode="json")
            for e in engine.start(replay["seat_count"], seed, options).events
        ]
        if _canonical(opened) != _canonical(replay["setup_events"]):
            raise VerificationFailed("the setup's events do not follow from the seed")
        passed.append("the setup's events follow from the seed")
    steps = [
        (step["version"], step["seat"], step.get("kind", ACTION), step["action"])
        for step in replay["actions"]
    ]
    try:
        state = final_state(engine, state, steps)
    except (ValueError, RulesError) as exc:
        raise VerificationFailed(f"the log does not replay: {exc}") from None
    if _canonical(state.model_dump(mode="json")) != _canonical(replay["final_state"]):
        raise VerificationFailed("replaying the log does not reach the recorded final state")
    passed.append(f"replaying {len(replay['actions'])} actions reaches the recorded final state")
    result = engine.result(state)
    recorded = replay.get("result")
    others = automatic_opponents(engine, state)
    if recorded is not None and result is None and (made := _made_result(replay, recorded, others)):
        # Ended before the rules ended it (cancelled, or every other seat resigned): the
        # result is the table's, and it says so; the log checks above still hold.
        passed.append(made)
        return passed
    resigned = list(recorded.get("resigned") or ()) if recorded is not None else []
    if result is None or recorded is None:
        raise VerificationFailed("the recorded result is not the engine's result")
    expected = with_resignations(
        result.model_dump(mode="json"), resigned, _on_resign(table), engine
    )
    if reranked(expected):
        # The facts are compared; ``tiebreak`` is then the table's reading of the final
        # ranking in words (outcomes.final_text), which older servers left as the engine's.
        expected = {k: v for k, v in expected.items() if k != "tiebreak"}
        recorded = {k: v for k, v in recorded.items() if k != "tiebreak"}
    if _canonical(expected) != _canonical(recorded):
        raise VerificationFailed("the recorded result is not the engine's result")
    passed.append(
        "the result and ranking are the engine's"
        + (f", with seats {resigned} resigned ({_on_resign(table)})" if resigned else "")
    )
    return passed


def _on_resign(table: dict[str, Any]) -> str:
    return str(table.get("on_resign") or DEFAULT_ON_RESIGN)


def _made_result(
    replay: dict[str, Any], recorded: dict[str, Any], others: list[Opponent]
) -> str | None:
    """The check of a result the table made (app.tables.outcomes), or None if it is not one."""
    if recorded.get("ended_by_admin"):
        if _canonical(recorded) != _canonical(host_ended_result()):
            raise VerificationFailed("the result of the game the host ended names a ranking")
        return (
            "the game was ended by the host before its end: the moves played are the "
            "rules' and no result was made to check"
        )
    if recorded.get("cancelled"):
        if _canonical(recorded) != _canonical(cancelled_result()):
            raise VerificationFailed("the cancelled game's result names a ranking")
        return "the game was cancelled by its players before its end: no result to check"
    if recorded.get("ended_early"):
        resigned = list(recorded.get("resigned") or ())
        # Stored before an early end ranked the automatic opponents (issue 34): without them.
        ranked = others if "others" in recorded else []
        expected = early_result(replay["seat_count"], resigned, ranked)
        if _canonical(recorded) != _canonical(expected):
            raise VerificationFailed("the early end's ranking does not follow the resignations")
        return "the game ended early when the other seats resigned; the ranking follows them"
    return None


def _load(source: str) -> dict[str, Any]:
    if source.startswith(("http://", "https://")):
        url = source.rstrip("/")
        if "/api/v1/tables/" not in url and "/tables/" in url:
            url = url.replace("/tables/", "/api/v1/tables/", 1)
        if not url.endswith("/replay"):
            url += "/replay"
        response = httpx.get(url, timeout=30)
        if response.status_code != 200:
            raise VerificationFailed(response.json().get("error", {}).get("message", response.text))
        data: dict[str, Any] = response.json()
        return data
    loaded: dict[str, Any] = json.loads(Path(source).read_text())
    return loaded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.verify", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("source", help="a table URL or a replay JSON file")
    parser.add_argument("--commitment", help="the seed_commitment noted before the game ended")
    args = parser.parse_args(argv)
    try:
        for line in verify(_load(args.source), expected_commitment=args.commitment):
            print(f"ok  {line}")
    except (VerificationFailed, KeyError, ValueError) as exc:
        print(f"FAILED  {exc}", file=sys.stderr)
        return 1
    print("verified: the game was dealt from the committed seed and played by the rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
