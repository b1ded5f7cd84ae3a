"""Every view a server sends goes through ``Engine.view_json``: for every game, at every step
of seeded games at every player count, for every seat and a spectator, it is byte for byte the
view model's JSON dump, whether the game builds it fast (``GameEngine(view_json=...)``) or
not, and whether it is built alone or with the parts every view of its state shares. Options that change what a view shows are played too (Luz's strict memory, MINE!'s variant)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from pydantic import BaseModel

from app.games import REGISTRY
from app.games.base import Engine
from app.games.ginkgopolis import GinkgopolisOptions
from app.games.gluckauf import GluckaufOptions
from app.games.luz import LuzOptions
from app.games.mine import MineOptions
from tests.support.pickgame import PICK
from tests.support.playthrough import play_steps, sample_games

ENGINES: dict[str, Engine] = {"pick": PICK, **REGISTRY}  # type: ignore[dict-item]
# Options under which a game's views read differently from its defaults.
VARIANTS: dict[str, list[BaseModel]] = {
    "luz": [LuzOptions(strict_memory=True), LuzOptions(trump="none")],
    # hidden SP read differently to each seat; a draft shows piles; tokens kept in order
    "ginkgopolis": [
        GinkgopolisOptions(hidden_sp=True, characters="draft"),
        GinkgopolisOptions(keep_token_order=True, characters="random"),
    ],
    "gluckauf": [GluckaufOptions(delivered_visible=True)],
    # The variant's die cards; two seats without the dummy (with it by default).
    "mine": [MineOptions(variant=True), MineOptions(dummy=False)],
}


def _games(game: str) -> Iterator[tuple[int, int, str, BaseModel | None]]:
    engine = ENGINES[game]
    for n, seed, level in sample_games(engine, per_count=1):
        yield n, seed, level, None
    for options in VARIANTS.get(game, []):
        yield engine.info.min_players, 7, "random", options
        yield engine.info.max_players, 8, "random", options


def _same(engine: Engine, state: Any, n: int) -> int:
    """Each seat's view, alone and built with the parts the views of the state share (a
    server builds every seat's from one ``parts``: spectator first, or last), is its model's."""
    forward: dict[Any, Any] = {}
    backward: dict[Any, Any] = {}
    seats = [*range(n), None]
    models = {
        seat: orjson.dumps(engine.view(state, seat).model_dump(mode="json")) for seat in seats
    }
    for seat in seats:
        alone = orjson.dumps(engine.view_json(state, seat))
        shared = orjson.dumps(engine.view_json(state, seat, forward))
        assert alone == models[seat], (engine.info.id, seat)
        assert shared == models[seat], (engine.info.id, seat, "shared parts")
    for seat in reversed(seats):
        shared = orjson.dumps(engine.view_json(state, seat, backward))
        assert shared == models[seat], (engine.info.id, seat, "shared parts, spectator first")
    return n + 1


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_view_json_is_the_view_models_dump_at_every_step(game: str) -> None:
    engine = ENGINES[game]
    checked = 0
    for n, seed, level, options in _games(game):
        last = None
        for step in play_steps(engine, n, seed, level, options):
            checked += _same(engine, step.state, n)
            last = step.next_state
        assert last is not None and engine.result(last) is not None
        checked += _same(engine, last, n)
    assert checked > 100
