"""Golden playthroughs of MINE! (tests/golden/mine/*.jsonl).

Each file is a seeded game: a first line with the events of ``start`` (round 1 begun, its die
holder, the variant's die card) and the views they leave, then one JSON line per action: the
seat, the action, the events it caused (with their ``visible_to``) and a fingerprint of every
seat's view; the last line holds the result. A diff in review shows exactly which behaviour changed. After an intentional rule
change, regenerate with

    python tests/unit/games/test_mine_golden.py --regen
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from app.games.base import parse_action
from app.games.mine import ENGINE
from app.games.mine.rules import MineOptions

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "mine"
CASES: dict[str, tuple[int, int, MineOptions]] = {
    "2p_dummy_bot_vs_random_seed7": (2, 7, MineOptions()),
    "4p_variant_bots_seed21": (4, 21, MineOptions(variant=True)),
    "3p_dummy_variant_bots_seed5": (3, 5, MineOptions(dummy=True, variant=True)),
}


def _fingerprint(data: Any) -> str:
    raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def _views(state: Any, n: int) -> dict[str, str]:
    return {
        str(v): _fingerprint(ENGINE.view(state, v).model_dump(mode="json"))
        for v in [None, *range(n)]
    }


def transcript(n: int, seed: int, options: MineOptions) -> list[dict[str, Any]]:
    state, events = ENGINE.start(n, seed, options)
    rng = random.Random(seed)
    lines: list[dict[str, Any]] = [
        {
            "start": {
                "events": [e.model_dump(mode="json") for e in events],
                "views": _views(state, n),
            }
        }
    ]
    while (result := ENGINE.result(state)) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        level = "normal" if seat == 0 or n > 2 else "random"
        action = ENGINE.bot(ENGINE.view(state, seat), legal, rng, level)
        state, events = ENGINE.apply(state, seat, action)
        lines.append(
            {
                "seat": seat,
                "action": action.model_dump(mode="json"),
                "events": [e.model_dump(mode="json") for e in events],
                "views": _views(state, n),
            }
        )
    lines.append({"result": result.model_dump(mode="json")})
    return lines


def _dump_lines(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, sort_keys=True, ensure_ascii=False) + "\n" for line in lines)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    n, seed, options = CASES[name]
    path = GOLDEN / f"{name}.jsonl"
    expected = path.read_text(encoding="utf-8")
    assert _dump_lines(transcript(n, seed, options)) == expected
    state = ENGINE.setup(n, seed, options)
    stored = [json.loads(line) for line in expected.splitlines()]
    assert "start" in stored[0]
    for line in stored[1:-1]:
        state, _ = ENGINE.apply(state, line["seat"], parse_action(ENGINE, line["action"]))
    result = ENGINE.result(state)
    assert result is not None and result.model_dump(mode="json") == stored[-1]["result"]


def regenerate() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, (n, seed, options) in CASES.items():
        (GOLDEN / f"{name}.jsonl").write_text(
            _dump_lines(transcript(n, seed, options)), encoding="utf-8"
        )
        print(f"wrote {name}.jsonl")


if __name__ == "__main__":
    if "--regen" in sys.argv:
        regenerate()
    else:
        print(__doc__)
