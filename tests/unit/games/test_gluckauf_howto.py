"""Glück Auf's "How to play" members: the Event union, the figures, undoable, descriptions.

Real states only: seeded games played by the engine's bots, and the figures' own
positions. The rules page fragments are checked against the engine (every action type
explained, every figure named exists and is used).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest

from app.games.base import Event, dump, parse_action, parse_event
from app.games.gluckauf import ENGINE
from app.games.gluckauf import actions as a
from app.games.gluckauf import events as ev
from app.games.gluckauf.rules import GluckaufOptions, GluckaufState
from tests.unit.games.event_samples_gluckauf import SAMPLES

STATIC = Path(__file__).resolve().parents[3] / "static"
GAMES = [(2, 7, "normal"), (3, 11, "random"), (4, 21, "normal"), (3, 5, "normal")]


def _steps(
    n: int, seed: int, level: str
) -> Iterator[tuple[GluckaufState, int, Any, Any, list[Event]]]:
    """Every (state before, seat, action, state after, events) of a seeded bot game."""
    state = ENGINE.setup(n, seed, GluckaufOptions())
    rng = random.Random(seed)
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        action = ENGINE.bot(ENGINE.view(state, seat), legal, rng, level)
        after, events = ENGINE.apply(state, seat, action)
        yield state, seat, action, after, events
        state = after


def _event_types() -> set[str]:
    members = get_args(get_args(ev.GluckaufEvent)[0])
    return {m.model_fields["type"].default for m in members}


def _action_types() -> set[str]:
    members = get_args(get_args(a.GluckaufAction)[0])
    return {m.model_fields["type"].default for m in members}


# --------------------------------------------------------------------------- Event


def test_event_union_lists_every_event_model() -> None:
    models = {
        cls.model_fields["type"].default
        for cls in vars(ev).values()
        if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event
    }
    assert _event_types() == models
    assert {e.type for e in SAMPLES} == models


@pytest.mark.parametrize(("n", "seed", "level"), GAMES)
def test_every_emitted_event_parses_back_to_itself(n: int, seed: int, level: str) -> None:
    seen: set[str] = set()
    for _, _, _, _, events in _steps(n, seed, level):
        for event in events:
            data = dump(event)
            assert parse_event(ENGINE, data) == event
            seen.add(event.type)
    assert {"worker_placed", "shift_scored", "final_scored", "game_ended"} <= seen


def test_samples_parse_and_old_final_events_still_parse() -> None:
    for event in SAMPLES:
        assert parse_event(ENGINE, dump(event)) == event
    old = {"type": "final_scored", "seat": 0, "money_vp": 1, "money_left": 2, "coal_vp": 3}
    old |= {"order_penalty": -1, "imbalance_penalty": 0, "total": 40, "visible_to": None}
    parsed = parse_event(ENGINE, old)
    assert isinstance(parsed, ev.FinalScored) and parsed.cubes is None
    ended = parse_event(
        ENGINE, {"type": "game_ended", "scores": {"0": 4}, "ranking": [0], "tiebreak": ""}
    )
    assert isinstance(ended, ev.GameEnded) and ended.money_left == {}


# --------------------------------------------------------------------------- figures


def test_there_are_at_least_four_figures_and_each_builds_a_real_position() -> None:
    assert len(ENGINE.figures) >= 4
    for name, make in ENGINE.figures.items():
        figure = make()
        assert isinstance(figure.state, GluckaufState), name
        assert figure.caption, name
        view = ENGINE.view(figure.state, figure.seat)
        assert view.model_dump(mode="json")["game"] == "gluckauf"
        if figure.state.phase != "over":
            assert figure.seat is not None and figure.seat in ENGINE.to_act(figure.state)
            assert ENGINE.legal_actions(figure.state, figure.seat), name
        # The same figure twice is the same position (fixed seed, fixed choices).
        assert make().state == figure.state


def test_the_figures_show_what_their_names_promise() -> None:
    fig = {name: make() for name, make in ENGINE.figures.items()}
    assert fig["draft"].state.phase == "draft"
    assert fig["first_turn"].state.phase == "place" and fig["first_turn"].state.turns == 0
    draw = fig["draw_tiles"].state
    assert draw.phase == "keep" and draw.draw is not None and draw.draw.kind == "tile"
    drawn = ENGINE.view(draw, fig["draw_tiles"].seat).draw
    assert drawn is not None and drawn.drawn is not None and len(drawn.drawn) == 5
    mining = fig["mining"]
    assert mining.state.phase == "mining"
    assert any(isinstance(x, a.UnloadCube) for x in ENGINE.legal_actions(mining.state, mining.seat))
    end = fig["shift_end"].state
    assert end.shift == 1 and sum(p.supply for p in end.players) == 1
    final = fig["final"]
    assert final.state.phase == "over" and final.seat is None and ENGINE.result(final.state)


def test_a_figure_state_is_reached_by_legal_actions_from_setup() -> None:
    """Replaying the bots' choices from setup reaches the draft figure's successor positions."""
    figure = ENGINE.figures["first_turn"]()
    state = ENGINE.setup(3, 2013, GluckaufOptions(delivered_visible=True))
    rng = random.Random(2013)
    while state.phase == "draft":
        (seat,) = ENGINE.to_act(state)
        action = ENGINE.bot(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng)
        state, _ = ENGINE.apply(state, seat, parse_action(ENGINE, dump(action)))
    assert state == figure.state


# --------------------------------------------------------------------------- undoable

# The action types this engine declares undoable (when their effect stays public).
DECLARED = {
    "draft_order",
    "place_worker",
    "choose_end",
    "return_item",
    "move_cage",
    "load_cube",
    "unload_cube",
    "store_cube",
    "place_stored_cube",
    "start_two_for_one",
    "add_cube",
    "stop_mining",
}


def _revealing(events: list[Event], seat: int, delivered_visible: bool) -> bool:
    """Does any event show somebody something hidden? A face-down tile or card turned up,
    a draw's items, the end; the delivered piles unless they are public; anything for
    other eyes than the actor's (whose own returned order it chose, issue 35)."""
    hidden_kinds = {
        "factory_laid_out",
        "starting_player_drawn",
        "draft_display_laid_out",
        "space_refilled",
        "order_spaces_filled",
        "items_drawn",
        "items_seen",
        "final_scored",
        "game_ended",
    }
    if not delivered_visible:
        hidden_kinds.add("shift_scored")
    own = frozenset({seat})
    private = any(e.visible_to not in (None, own) for e in events)
    told = any(e.visible_to == own and e.type != "items_returned_privately" for e in events)
    return private or told or any(e.type in hidden_kinds for e in events)


def test_undoable_is_true_for_the_declared_types_and_false_when_something_is_revealed() -> None:
    true_types: dict[str, int] = defaultdict(int)
    for n, seed, level in GAMES:
        for i, (state, seat, action, _after, _events) in enumerate(_steps(n, seed, level)):
            candidates = [action]
            if state.phase in ("mining", "two_for_one") or i % 5 == 0:
                candidates = ENGINE.legal_actions(state, seat)
            visible = state.options.delivered_visible
            for candidate in candidates:
                undo = ENGINE.undoable(state, seat, candidate)
                new, evs = ENGINE.apply(state, seat, candidate)
                if undo:
                    true_types[candidate.type] += 1
                    # Taking it back is safe: nothing hidden shown, no chance drawn.
                    assert not _revealing(evs, seat, visible), (candidate, evs)
                    assert new.rng.draws == state.rng.draws
                if _revealing(evs, seat, visible):
                    assert not undo, candidate
                if isinstance(candidate, a.KeepItem) and candidate.item is not None:
                    assert not undo
                if isinstance(candidate, a.PlaceWorker) and candidate.space.endswith("DRAW"):
                    assert not undo
    missing = DECLARED - set(true_types)
    assert not missing, f"declared undoable but never True: {sorted(missing)}"


def test_undoable_on_the_figure_positions() -> None:
    first = ENGINE.figures["first_turn"]()
    seat = first.seat
    assert seat is not None
    legal = ENGINE.legal_actions(first.state, seat)
    by_space = {x.space: ENGINE.undoable(first.state, seat, x) for x in legal}
    assert by_space["FACT-DRAW"] is False and by_space["ORDER-DRAW"] is False
    assert by_space["FACT-1"] is False  # the empty factory space is refilled from the stack
    assert by_space["MINE-10"] is True and by_space["MONEY-6"] is True
    draw = ENGINE.figures["draw_tiles"]()
    assert draw.seat is not None
    for x in ENGINE.legal_actions(draw.state, draw.seat):
        # Keeping nothing shows nothing (issue 35); keeping an item settles the secret draw.
        kept_nothing = isinstance(x, a.KeepItem) and x.item is None
        assert ENGINE.undoable(draw.state, draw.seat, x) is kept_nothing
    mining = ENGINE.figures["mining"]()
    assert mining.seat is not None
    for x in ENGINE.legal_actions(mining.state, mining.seat):
        if isinstance(x, a.UnloadCube | a.MoveCage):
            assert ENGINE.undoable(mining.state, mining.seat, x) is True


# --------------------------------------------------------------------------- describe


def _all_actions() -> list[Any]:
    return [
        a.DraftOrder(card=14),
        a.PlaceWorker(space="DELIV-W"),
        a.ChooseCoal(colour="Y"),
        a.KeepItem(item=12),
        a.KeepItem(item=None),
        a.ChooseEnd(end="bottom"),
        a.ReturnItem(item=21),
        a.MoveCage(level=0),
        a.LoadCube(colour="K"),
        a.UnloadCube(order=8, colour="K"),
        a.StoreCube(colour="Y"),
        a.PlaceStoredCube(order=26, colour="G"),
        a.StartTwoForOne(order=38, colour="K"),
        a.AddCube(source="storage", colour="B"),
        a.StopMining(),
    ]


def test_every_action_and_event_is_described_in_both_languages() -> None:
    actions = _all_actions()
    assert {x.type for x in actions} == _action_types()
    for item in [*actions, *SAMPLES]:
        es, en = ENGINE.describe(item, "es"), ENGINE.describe(item, "en")
        assert es.strip() and en.strip(), item
        assert es != en, item


def test_shift_scoring_is_explained_category_by_category() -> None:
    shift = next(e for e in SAMPLES if isinstance(e, ev.ShiftScored))
    en = ENGINE.describe(shift, "en").split("\n")
    assert len(en) == 1 + 4
    assert "Seat 3 1st +3; Seat 1 and Seat 2 2nd +1 each" in en[2]  # tie for 2nd
    assert "Seat 1 1st +4; nobody else has any" in en[3]
    es = ENGINE.describe(shift, "es").split("\n")
    assert "2.º +1 cada uno" in es[2]
    two = ev.ShiftScored(
        shift=1,
        delivered={0: [], 1: []},
        counts={1: {0: 0, 1: 0}, 2: {0: 3, 1: 2}, 3: {0: 2, 1: 2}, 4: {0: 2, 1: 0}},
        awards={1: {}, 2: {0: 3}, 3: {0: 4, 1: 4}, 4: {0: 5}},
        totals={0: 12, 1: 4},
    )
    lines = ENGINE.describe(two, "en").split("\n")
    assert "nobody has any" in lines[1]
    assert "no 2nd place with 2 players" in lines[2]
    assert "tie for 1st: Seat 1 and Seat 2 +4 each; no 2nd place" in lines[3]
    assert "con 2 jugadores no hay 2.º puesto" in ENGINE.describe(two, "es")


def test_final_scoring_and_tiebreak_are_explained_step_by_step() -> None:
    anna = next(e for e in SAMPLES if isinstance(e, ev.FinalScored) and e.cubes is not None)
    en = ENGINE.describe(anna, "en").split("\n")
    assert en[0] == "Seat 1: final scoring 55 → 51 VP"
    assert "13 Marks → +2 VP" in en[1] and "3 Marks left" in en[1]
    assert "8 cubes" in en[2] and "+2 VP" in en[2]
    assert "Open orders: 2 → -2 VP" in en[3]
    assert "5 light and 2 dark → -6 VP" in en[4]
    es = ENGINE.describe(anna, "es")
    assert "13 marcos" in es and "5 claros y 2 oscuros" in es
    ended = next(e for e in SAMPLES if isinstance(e, ev.GameEnded))
    text = ENGINE.describe(ended, "en")
    assert "Tie at 51 VP: the Marks left over decide (Seat 2 4, Seat 1 3)" in text
    assert "marcos sobrantes" in ENGINE.describe(ended, "es")


def test_every_event_of_real_games_is_described() -> None:
    for n, seed, level in GAMES[:2]:
        for _, _, action, _, events in _steps(n, seed, level):
            for item in [action, *events]:
                assert ENGINE.describe(item, "es") and ENGINE.describe(item, "en")


# --------------------------------------------------------------------------- rules page


def _fragment(lang: str) -> str:
    return (STATIC / "rules" / f"gluckauf.{lang}.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_rules_page_explains_every_action_and_uses_every_figure(lang: str) -> None:
    html = _fragment(lang)
    assert "<script" not in html and "style=" not in html and "<body" not in html
    sections = re.findall(r'<section id="([a-z_-]+)"', html)
    wanted = ["goal", "components", "round", "actions", "scoring", "end", "options", "tips"]
    assert [s for s in sections if s in wanted] == wanted
    assert set(re.findall(r'data-action-type="([a-z_]+)"', html)) == _action_types()
    figures = re.findall(r'data-figure="([a-z_]+)"', html)
    assert set(figures) == set(ENGINE.figures) and len(figures) >= 3
    for field in GluckaufOptions.model_fields:
        assert field in html, f"option {field} is not explained"


def test_rules_pages_have_the_same_structure_in_both_languages() -> None:
    def skeleton(html: str) -> list[str]:
        return re.findall(
            r'(?:<section id="[^"]+"|data-action-type="[^"]+"|data-figure="[^"]+")', html
        )

    assert skeleton(_fragment("es")) == skeleton(_fragment("en"))


#: What the choose_coal entry must say (gluckauf.md §7.1 step 4, as the engine plays it:
#: tests/unit/games/test_gluckauf_examples.py): with the supply out the cart stays empty.
COAL_OUT_WORDS = {
    "en": ("If the coal supply is out altogether, the cart stays empty", "full price"),
    "es": (
        "Si la reserva de carbón se ha agotado del todo, la vagoneta se queda vacía",
        "precio entero",
    ),
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_page_says_a_bought_cart_stays_empty_when_the_supply_is_out(lang: str) -> None:
    html = _fragment(lang)
    start = html.index('data-action-type="choose_coal"')
    entry = html[start : html.index("</dd>", start)]
    assert all(words in entry for words in COAL_OUT_WORDS[lang])
