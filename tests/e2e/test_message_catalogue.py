"""One catalogue, two renderers: the browser reads every message exactly as the server does
(issue 19.3).

The server renders a game's messages with app/games/messages.py for ``?lang=``; the browser
renders the same trees (``Message.to_json``, sent with each event) with static/js/i18n.js.
Here every event and action of seeded bot games of each game, and each game's result, is
rendered by both, in both languages, naming seats by number (as the server does) and by
player name (as the table page does); the texts must be equal, character for character.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games import REGISTRY
from app.games.base import Engine
from app.games.messages import LOCALES, Message, render
from tests.support.playthrough import play_steps, sample_games

NAMES = ["Ana", "Ben", "Carla", "Dario", "Eva"]


def _name(seat: int) -> str | None:
    """The players' names; None past them (a seat no player holds, like MINE!'s dummy)."""
    return NAMES[seat] if seat < len(NAMES) else None


RENDER = """async ([game, lang, trees, names]) => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.useGameStrings(game);
  await i18n.setLang(lang);
  const byName = (seat) => names[seat] ?? null;
  return trees.map((t) => [i18n.renderMessage(t), i18n.renderMessage(t, byName)]);
}"""


def _messages(engine: Engine, per_type: int = 12) -> list[Message]:
    """Up to ``per_type`` distinct messages per event and action type, and the results."""
    seen: dict[str, list[Message]] = {}
    found: list[Message] = []

    def keep(kind: str, message: Message) -> None:
        bucket = seen.setdefault(kind, [])
        if len(bucket) < per_type and message not in bucket:
            bucket.append(message)
            found.append(message)

    for n, seed, level in sample_games(engine, per_count=1):
        for step in play_steps(engine, n, seed, level):
            for event in step.events:
                keep(event.type, engine.message(event))
            for action in step.legal:
                keep(action.type, engine.message(action))
            result = engine.result(step.next_state)
            if result is not None:
                keep("result", engine.message(result))
    return found


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_the_browser_renders_every_message_as_the_server_does(game: str, new_context: Any) -> None:
    engine = REGISTRY[game]
    messages = _messages(engine)
    trees = [json.loads(json.dumps(m.to_json())) for m in messages]  # as the wire carries them
    page = new_context().new_page()
    page.goto(f"/games/{game}/rules")
    page.wait_for_load_state("networkidle")
    for lang in LOCALES:
        got = page.evaluate(RENDER, [game, lang, trees, NAMES])
        for message, (numbered, named) in zip(messages, got, strict=True):
            assert numbered == render(message, lang), message
            assert named == render(message, lang, _name), message
        # Names, not numbers, where a line names a seat.
        assert any(named != numbered for numbered, named in got), f"{game}: no seat named"
