"""A take-back refused names the rule that makes the action final when the game has one
(issue 35): a Luz bet is final by §5.5, it neither revealed anything nor drew chance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.games import REGISTRY
from app.games.base import why_final
from tests.support.playthrough import play_steps

ROOT = Path(__file__).resolve().parents[3]
LUZ = REGISTRY["luz"]


def _strings(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads(
        (ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8")
    )
    return data


@pytest.mark.parametrize("players", [3, 5])
def test_every_luz_action_refused_names_its_rule_in_both_languages(players: int) -> None:
    """Every action of a whole game: never undoable, and each one's refusal is the rule of
    its kind (a bet §5.5, a card §5.6, the high end §5.2), with a sentence in es and en."""
    expected = {
        "place_bet": ("luz.bet_final", "§5.5"),
        "play_card": ("luz.card_final", "§5.6"),
        "choose_high_end": ("luz.side_final", "§5.2"),
    }
    seen: set[str] = set()
    options = LUZ.Options.model_validate({"manual_sort_direction": True})
    for step in play_steps(LUZ, players, 7 + players, "random", options):
        assert not LUZ.undoable(step.state, step.seat, step.action)
        rule = why_final(LUZ, step.state, step.seat, step.action)
        assert rule is not None
        reason, section = expected[step.action.type]
        assert rule.reason == reason and section in rule
        assert "hidden" not in rule and "chance" not in rule
        for lang in ("en", "es"):
            text = _strings(lang)[f"error.not_undoable.{reason}"]
            assert section in text
        seen.add(step.action.type)
    assert seen == set(expected)


def test_an_engine_without_the_hook_gives_no_rule() -> None:
    """The other games keep the general reason (``final``) for what they refuse."""
    engine = REGISTRY["gluckauf"]
    step = next(iter(play_steps(engine, 2, 1, "random")))
    assert why_final(engine, step.state, step.seat, step.action) is None
