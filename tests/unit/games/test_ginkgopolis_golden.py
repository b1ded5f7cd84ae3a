"""Golden playthroughs: seeded scripted games stored as JSON lines in tests/golden/ginkgopolis/.

Each line is one step (seat, action, events with their visibility, the spectator's
view); the last line is the result. A diff shows exactly which behaviour changed.
After an intentional rule change regenerate with:

    GINKGOPOLIS_REGEN=1 pytest tests/unit/games/test_ginkgopolis_golden.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from app.games.base import dump
from app.games.ginkgopolis import ENGINE
from app.games.ginkgopolis.rules import GinkgopolisOptions

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "ginkgopolis"

CASES = {
    "three_players_sets_seed_1": (3, 1, GinkgopolisOptions()),
    "solo_seed_2": (1, 2, GinkgopolisOptions()),
    "two_players_draft_seed_3": (
        2,
        3,
        GinkgopolisOptions(characters="draft", keep_token_order=True),
    ),
}


def transcript(n: int, seed: int, options: GinkgopolisOptions) -> list[dict[str, Any]]:
    """Play a seeded game with random-legal choices and record every step."""
    state = ENGINE.setup(n, seed, options)
    rng = random.Random(seed)
    lines: list[dict[str, Any]] = [{"setup": {"n": n, "seed": seed, "options": dump(options)}}]
    while ENGINE.to_act(state):
        seat = min(ENGINE.to_act(state))
        legal = ENGINE.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        state, events = ENGINE.apply(state, seat, action)
        lines.append(
            {
                "seat": seat,
                "action": dump(action),
                "events": [
                    {
                        **e.model_dump(mode="json", exclude={"visible_to"}),
                        "visible_to": sorted(e.visible_to),
                    }
                    if e.visible_to is not None
                    else e.model_dump(mode="json")
                    for e in events
                ],
                "phase": state.phase,
                "to_act": sorted(ENGINE.to_act(state)),
            }
        )
    res = ENGINE.result(state)
    assert res is not None
    lines.append({"result": dump(res), "spectator_view": dump(ENGINE.view(state, None))})
    return lines


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    n, seed, options = CASES[name]
    lines = transcript(n, seed, options)
    text = "\n".join(json.dumps(line, sort_keys=True) for line in lines) + "\n"
    path = GOLDEN / f"{name}.jsonl"
    if os.environ.get("GINKGOPOLIS_REGEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"missing {path}; run with GINKGOPOLIS_REGEN=1"
    assert path.read_text() == text, f"{path.name} changed; regenerate if intentional"
