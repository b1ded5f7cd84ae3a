"""Golden playthroughs of every game: seeded games stored as JSON lines in tests/golden/<game>/.

Each file is one seeded game, one JSON line per action: the seat, the action, the events it
caused (with their ``visible_to``) and what the game shows after it, in each game's own
record (below); the last line holds the result. A diff in review shows exactly which
behaviour changed. One test runs every case: the transcript played again must equal the
file line for line, and the file's own actions must replay to its result. After an
intentional rule change, regenerate with

    python -m tests.unit.games.test_golden --regen [game ...]
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from app.games import REGISTRY
from app.games.base import Engine, Event, dump, parse_action
from app.games.ginkgopolis import ENGINE as GINKGOPOLIS
from app.games.ginkgopolis.rules import GinkgopolisOptions
from app.games.gluckauf import ENGINE as GLUCKAUF
from app.games.gluckauf.rules import GluckaufOptions
from app.games.luz import ENGINE as LUZ
from app.games.luz import LuzOptions
from app.games.mine import ENGINE as MINE
from app.games.mine.rules import MineOptions

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


# --------------------------------------------------------------------------- shared record


def _line(record: dict[str, Any]) -> str:
    """One line of a transcript: keys sorted, so a diff shows values, not reorderings, and
    anything beyond ASCII escaped (the "§" of the Ginkgopolis results), as the files hold it."""
    return json.dumps(record, sort_keys=True)


def _fingerprint(data: Any) -> str:
    """A short hash of a view, where the whole view would make every line unreadable."""
    raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def _fingerprints(engine: Engine, state: Any, n: int) -> dict[str, str]:
    """The fingerprint of the spectator's view and of every seat's."""
    return {str(v): _fingerprint(dump(engine.view(state, v))) for v in [None, *range(n)]}


def _event(event: Event) -> dict[str, Any]:
    """An event with its ``visible_to`` as a sorted list (None when public)."""
    seen = None if event.visible_to is None else sorted(event.visible_to)
    return {**dump(event), "visible_to": seen}


# --------------------------------------------------------------------------- each game's record


def ginkgopolis(n: int, seed: int, given: dict[str, Any]) -> list[str]:
    """Uniform legal choices by the lowest seat to act; after each step the phase and who
    acts; at the end the result and the spectator's view."""
    options = GinkgopolisOptions.model_validate(given)
    state = GINKGOPOLIS.setup(n, seed, options)
    rng = random.Random(seed)
    lines = [_line({"setup": {"n": n, "seed": seed, "options": dump(options)}})]
    while GINKGOPOLIS.to_act(state):
        seat = min(GINKGOPOLIS.to_act(state))
        legal = GINKGOPOLIS.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        state, events = GINKGOPOLIS.apply(state, seat, action)
        lines.append(
            _line(
                {
                    "seat": seat,
                    "action": dump(action),
                    "events": [_event(e) for e in events],
                    "phase": state.phase,
                    "to_act": sorted(GINKGOPOLIS.to_act(state)),
                }
            )
        )
    result = GINKGOPOLIS.result(state)
    assert result is not None
    lines.append(
        _line({"result": dump(result), "spectator_view": dump(GINKGOPOLIS.view(state, None))})
    )
    return lines


def gluckauf(n: int, seed: int, given: dict[str, Any]) -> list[str]:
    """Bots (seat 0 normal, the others random in a two-player game, all normal with four);
    after each step a fingerprint of every view."""
    state = GLUCKAUF.setup(n, seed, GluckaufOptions.model_validate(given))
    rng = random.Random(seed)
    lines = []
    while (result := GLUCKAUF.result(state)) is None:
        (seat,) = GLUCKAUF.to_act(state)
        legal = GLUCKAUF.legal_actions(state, seat)
        level = "normal" if seat == 0 or n == 4 else "random"
        action = GLUCKAUF.bot(GLUCKAUF.view(state, seat), legal, rng, level)
        state, events = GLUCKAUF.apply(state, seat, action)
        lines.append(
            _line(
                {
                    "seat": seat,
                    "action": dump(action),
                    "events": [dump(e) for e in events],
                    "views": _fingerprints(GLUCKAUF, state, n),
                }
            )
        )
    lines.append(_line({"result": dump(result)}))
    return lines


def luz(n: int, seed: int, given: dict[str, Any]) -> list[str]:
    """A uniform seat to act and a uniform legal choice; the N-th step (the last bet or
    high-end choice of deal 1) also holds every seat's view and a spectator's."""
    state = LUZ.setup(n, seed, LuzOptions.model_validate(given))
    rng = random.Random(seed)
    # The setup line names only the options the case sets, as the case gives them, and its
    # keys are not sorted: so the Luz files were first written.
    lines = [json.dumps({"setup": {"n": n, "seed": seed, "options": given}})]
    while (result := LUZ.result(state)) is None:
        seat = rng.choice(sorted(LUZ.to_act(state)))
        action = rng.choice(LUZ.legal_actions(state, seat))
        state, events = LUZ.apply(state, seat, action)
        step: dict[str, Any] = {
            "seat": seat,
            "action": dump(action),
            "events": [_event(e) for e in events],
        }
        if len(lines) == n + 1:
            step["views"] = {str(v): dump(LUZ.view(state, v)) for v in [*range(n), None]}
        lines.append(_line(step))
    lines.append(_line({"result": dump(result)}))
    return lines


def mine(n: int, seed: int, given: dict[str, Any]) -> list[str]:
    """First the events of ``start`` (round 1 begun, its die holder, the variant's die card)
    and the views they leave; then bots (seat 0 normal, the other random in a two-player
    game, all normal with more); after each step a fingerprint of every view."""
    state, events = MINE.start(n, seed, MineOptions.model_validate(given))
    rng = random.Random(seed)
    start = {"events": [dump(e) for e in events], "views": _fingerprints(MINE, state, n)}
    lines = [_line({"start": start})]
    while (result := MINE.result(state)) is None:
        (seat,) = MINE.to_act(state)
        legal = MINE.legal_actions(state, seat)
        level = "normal" if seat == 0 or n > 2 else "random"
        action = MINE.bot(MINE.view(state, seat), legal, rng, level)
        state, events = MINE.apply(state, seat, action)
        lines.append(
            _line(
                {
                    "seat": seat,
                    "action": dump(action),
                    "events": [dump(e) for e in events],
                    "views": _fingerprints(MINE, state, n),
                }
            )
        )
    lines.append(_line({"result": dump(result)}))
    return lines


# --------------------------------------------------------------------------- the cases


class Case(NamedTuple):
    """One golden file: the game's record and the seeded table it plays."""

    record: Callable[[int, int, dict[str, Any]], list[str]]
    n: int
    seed: int
    options: dict[str, Any]


CASES: dict[tuple[str, str], Case] = {
    ("ginkgopolis", "three_players_sets_seed_1"): Case(ginkgopolis, 3, 1, {}),
    ("ginkgopolis", "solo_seed_2"): Case(ginkgopolis, 1, 2, {}),
    ("ginkgopolis", "two_players_draft_seed_3"): Case(
        ginkgopolis,
        2,
        3,
        {"characters": "draft", "keep_token_order": True},
    ),
    ("gluckauf", "2p_bot_vs_random_seed7"): Case(gluckauf, 2, 7, {}),
    ("gluckauf", "4p_bots_seed21"): Case(gluckauf, 4, 21, {}),
    ("luz", "p3_seed7_default"): Case(luz, 3, 7, {}),
    ("luz", "p4_seed11_manual_nearest_notrump"): Case(
        luz,
        4,
        11,
        {"manual_sort_direction": True, "safety_miss_from": "nearest", "trump": "none"},
    ),
    ("luz", "p5_seed23_fixed_strict"): Case(
        luz,
        5,
        23,
        {"first_player": 2, "first_player_rotation": "fixed", "strict_memory": True},
    ),
    ("mine", "2p_dummy_bot_vs_random_seed7"): Case(mine, 2, 7, {}),
    ("mine", "4p_variant_bots_seed21"): Case(mine, 4, 21, {"variant": True}),
    ("mine", "3p_dummy_variant_bots_seed5"): Case(mine, 3, 5, {"dummy": True, "variant": True}),
}


def _path(game: str, name: str) -> Path:
    return GOLDEN / game / f"{name}.jsonl"


def _text(case: Case) -> str:
    return "".join(line + "\n" for line in case.record(case.n, case.seed, case.options))


def test_every_golden_file_has_its_case() -> None:
    """A file nobody plays any more would stay green for ever: each belongs to a case."""
    stored = {(path.parent.name, path.stem) for path in GOLDEN.glob("*/*.jsonl")}
    assert stored == set(CASES)


@pytest.mark.parametrize(
    ("game", "name"), sorted(CASES), ids=[f"{g}/{n}" for g, n in sorted(CASES)]
)
def test_golden_playthrough_is_unchanged(game: str, name: str) -> None:
    """The transcript played again equals the file line for line, and the file's own
    actions replay to its result."""
    case, engine = CASES[game, name], REGISTRY[game]
    path = _path(game, name)
    assert path.exists(), f"missing {path}; run python -m tests.unit.games.test_golden --regen"
    expected = path.read_text(encoding="utf-8")
    actual = _text(case)
    for number, (want, got) in enumerate(
        zip(expected.splitlines(), actual.splitlines(), strict=False), start=1
    ):
        assert got == want, f"{game}/{path.name} differs at line {number}"
    assert actual == expected, f"{game}/{path.name} has {len(actual.splitlines())} lines now"
    # The stored actions replay to the stored result on their own.
    state = engine.setup(case.n, case.seed, engine.Options.model_validate(case.options))
    stored = [json.loads(line) for line in expected.splitlines()]
    for line in stored:
        if "seat" in line:
            state, _ = engine.apply(state, line["seat"], parse_action(engine, line["action"]))
    result = engine.result(state)
    assert result is not None and dump(result) == stored[-1]["result"], f"{game}/{path.name}"


def regenerate(games: list[str]) -> None:
    """Write the files of ``games`` (every game when empty) from the engines as they are now."""
    for (game, name), case in sorted(CASES.items()):
        if games and game not in games:
            continue
        path = _path(game, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_text(case), encoding="utf-8")
        print(f"wrote {path.relative_to(GOLDEN)}")


if __name__ == "__main__":
    if "--regen" not in sys.argv[1:]:
        raise SystemExit("usage: python -m tests.unit.games.test_golden --regen [game ...]")
    regenerate([arg for arg in sys.argv[1:] if arg != "--regen"])
