"""Golden Luz playthroughs: seeded games stored as JSON lines in tests/golden/luz/.

Each line is one step: the acting seat, its action and every event (with ``visible_to``);
the N-th step (the last bet or high-end choice of deal 1) also holds every seat's view and
a spectator's; the last line is the result. A rules change shows up as a
readable diff. Regenerate after an intentional change with:

    python -m tests.unit.games.test_luz_golden --regen
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from app.games.luz import ENGINE, LuzOptions

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "luz"
CASES: dict[str, tuple[int, int, dict[str, Any]]] = {
    "p3_seed7_default": (3, 7, {}),
    "p4_seed11_manual_nearest_notrump": (
        4,
        11,
        {"manual_sort_direction": True, "safety_miss_from": "nearest", "trump": "none"},
    ),
    "p5_seed23_fixed_strict": (
        5,
        23,
        {"first_player": 2, "first_player_rotation": "fixed", "strict_memory": True},
    ),
}


def transcript(n: int, seed: int, options: dict[str, Any]) -> list[str]:
    """Play a seeded game with uniform legal choices (random.Random(seed)); return the lines."""
    state = ENGINE.setup(n, seed, LuzOptions.model_validate(options))
    rng = random.Random(seed)
    lines = [json.dumps({"setup": {"n": n, "seed": seed, "options": options}})]
    while (res := ENGINE.result(state)) is None:
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        action = rng.choice(ENGINE.legal_actions(state, seat))
        state, events = ENGINE.apply(state, seat, action)
        step: dict[str, Any] = {
            "seat": seat,
            "action": action.model_dump(mode="json"),
            "events": [
                {**e.model_dump(mode="json"), "visible_to": _seats(e.visible_to)} for e in events
            ],
        }
        if len(lines) == n + 1:  # after the N-th step: every seat's view and a spectator's
            step["views"] = {
                str(viewer): ENGINE.view(state, viewer).model_dump(mode="json")
                for viewer in [*range(n), None]
            }
        lines.append(json.dumps(step, sort_keys=True))
    lines.append(json.dumps({"result": res.model_dump(mode="json")}, sort_keys=True))
    return lines


def _seats(visible: frozenset[int] | None) -> list[int] | None:
    return None if visible is None else sorted(visible)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough_is_unchanged(name: str) -> None:
    path = GOLDEN / f"{name}.jsonl"
    expected = path.read_text().splitlines()
    actual = transcript(*CASES[name])
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"{path.name} differs at line {number}"
    assert len(actual) == len(expected)


def regen() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, case in CASES.items():
        (GOLDEN / f"{name}.jsonl").write_text("\n".join(transcript(*case)) + "\n")


if __name__ == "__main__":
    if "--regen" in sys.argv:
        regen()
