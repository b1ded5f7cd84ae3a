"""MINE! "How to play" and undo: the Event union, the figures, undoable, descriptions, the page."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from app.games.base import dump, parse_event
from app.games.mine import ENGINE
from app.games.mine import events as ev
from app.games.mine.actions import DiscardCard, PassTurn, PlaceCard
from app.games.mine.data import COLOUR_TOWNS
from app.games.mine.rules import MineOptions, MineState
from tests.unit.games.event_samples_mine import SAMPLES

STATIC = Path(__file__).resolve().parents[3] / "static"


def _games() -> list[tuple[MineState, int, Any, list[ev.Event], MineState]]:
    """Every step (state before, seat, action, events, state after) of a few seeded games."""
    steps = []
    cases = [(2, 3, MineOptions()), (3, 8, MineOptions(variant=True)), (5, 1, MineOptions())]
    for n, seed, options in cases:
        state = ENGINE.setup(n, seed, options)
        rng = random.Random(seed)
        while ENGINE.to_act(state):
            (seat,) = ENGINE.to_act(state)
            legal = ENGINE.legal_actions(state, seat)
            action = ENGINE.bot(
                ENGINE.view(state, seat), legal, rng, "random" if seed % 2 else "normal"
            )
            after, events = ENGINE.apply(state, seat, action)
            steps.append((state, seat, action, events, after))
            state = after
    return steps


STEPS = _games()


def test_event_union_parses_every_emitted_event_and_every_sample() -> None:
    emitted = [e for *_, events, _ in STEPS for e in events]
    for event in [*emitted, *SAMPLES]:
        data = dump(event)
        assert parse_event(ENGINE, data) == event
    union = TypeAdapter(ENGINE.Event)
    assert {type(union.validate_python(dump(e))) for e in SAMPLES} == set(ev.ALL_EVENT_TYPES)


def test_events_stored_before_the_new_fields_still_parse() -> None:
    old = {"type": "raid_settled", "raider": 0, "victim": 1, "attack": 4, "defence": 2,
           "outcome": "succeeded", "claim": 2, "taken": 2, "visible_to": None}  # fmt: skip
    raid = parse_event(ENGINE, old)
    assert isinstance(raid, ev.RaidSettled) and raid.cards == () and raid.stock is None
    ended = parse_event(ENGINE, {"type": "game_ended", "reason": "round_6", "ranking": [1, 0],
                                 "scores": [5, 9], "tiebreak": ""})  # fmt: skip
    for locale in ("es", "en"):
        assert ENGINE.describe(raid, locale) and ENGINE.describe(ended, locale)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(ENGINE.figures))
def test_every_figure_builds_a_real_position(name: str) -> None:
    figure = ENGINE.figures[name]()
    state = figure.state
    assert isinstance(state, MineState)
    assert figure.caption
    view = ENGINE.view(state, figure.seat)
    assert view.you == figure.seat
    if figure.seat is not None and ENGINE.result(state) is None:
        assert ENGINE.legal_actions(state, figure.seat), "a seat-view figure shows its decision"
    # Deterministic: built twice, the same state.
    assert dump(ENGINE.figures[name]().state) == dump(state)


def test_figures_show_what_the_rules_page_says() -> None:
    resolution = ENGINE.figures["resolution"]().state
    assert resolution.report is not None
    assert any(r.outcome == "succeeded" for r in resolution.report.raids)
    assert ENGINE.figures["hand_limit"]().state.phase == "discard"
    assert ENGINE.figures["final"]().state.phase == "over"
    assert ENGINE.figures["dummy"]().state.dummy
    assert ENGINE.figures["variant"]().state.die_card is not None


def test_undoable_placements_and_passes_reveal_nothing_and_draw_no_chance() -> None:
    kinds: dict[str, set[bool]] = {"place": set(), "pass": set(), "discard": set()}
    for before, seat, action, events, after in STEPS:
        ok = ENGINE.undoable(before, seat, action)
        kinds[action.type].add(ok)
        if ok:
            assert all(e.visible_to is None for e in events), events
            assert after.rng.draws == before.rng.draws
            assert not any(isinstance(e, ev.CardsRevealed) for e in events)
        elif isinstance(action, PlaceCard | PassTurn):
            # Only the action that closes the placement phase (or is illegal) is refused.
            assert after.phase != "placement" or after.round != before.round
    assert kinds["place"] == {True, False}
    assert True in kinds["pass"]
    assert kinds["discard"] == {False}


def test_the_last_placement_of_a_round_and_a_discard_are_not_undoable() -> None:
    from app.games.mine.figures import _OPENING_MOVES, _ROUND_ONE_REST, _play, _three

    state = _play(_three(), _OPENING_MOVES + _ROUND_ONE_REST[:-1])
    seat, last = _ROUND_ONE_REST[-1]
    assert not ENGINE.undoable(state, seat, last)  # it starts the resolution: cards revealed
    assert ENGINE.undoable(state, seat, PassTurn()) is False  # passing would close it too
    limit = ENGINE.figures["hand_limit"]().state
    (card, *_) = limit.directors[0].hand
    assert not ENGINE.undoable(limit, 0, DiscardCard(card=card))
    fresh = _three()
    assert ENGINE.undoable(fresh, 0, PlaceCard(card=1, location="mine"))
    assert not ENGINE.undoable(fresh, 0, PlaceCard(card=1, location="events"))  # illegal


def test_descriptions_name_towns_and_explain_scoring_line_by_line() -> None:
    for item in SAMPLES:
        for locale in ("es", "en"):
            text = ENGINE.describe(item, locale)  # type: ignore[arg-type]
            assert text and type(item).__name__ not in text
    raid = SAMPLES[10]
    assert isinstance(raid, ev.RaidSettled) and raid.outcome == "succeeded"
    es = ENGINE.describe(raid, "es").split("\n")
    assert len(es) >= 4 and "Blanzy" in es[0] and "Decazeville" in es[0]
    assert "ataque 5" in es[0] and "defensa 3" in es[1] and "5 − 3 = 2" in es[2]
    tied = ENGINE.describe(SAMPLES[11], "en")
    assert "⌊3 / 2⌋ = 1" in tied
    sale = ENGINE.describe(SAMPLES[15], "en")
    assert "+ 2 (Big Order)" in sale and "− 1" in sale and "score 2 → 6" in sale
    end = ENGINE.describe(SAMPLES[-2], "es").split("\n")
    assert any("cartas de profesión" in line and "4 > 3" in line for line in end)
    assert any("4–4, luego 5–2" in line for line in end)
    dummy_end = ENGINE.describe(SAMPLES[-1], "en")
    assert "dummy director" in dummy_end and "no seat wins" in dummy_end
    assert all(
        town in " ".join(ENGINE.describe(s, "en") for s in SAMPLES) for town in COLOUR_TOWNS[:3]
    )


def test_every_action_of_a_game_is_described_in_both_locales() -> None:
    for _, _, action, events, _ in STEPS[:200]:
        for item in [action, *events]:
            for locale in ("es", "en"):
                assert ENGINE.describe(item, locale)  # type: ignore[arg-type]


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.actions: list[str] = []
        self.figures: list[str] = []
        self.tags: set[str] = set()
        self.styles = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.add(tag)
        if "style" in a:
            self.styles += 1
        if tag == "section" and a.get("id"):
            self.sections.append(a["id"] or "")
        if a.get("data-action-type"):
            self.actions.append(a["data-action-type"] or "")
        if tag == "figure" and a.get("data-figure"):
            self.figures.append(a["data-figure"] or "")


def _page(lang: str) -> _Page:
    parser = _Page()
    parser.feed((STATIC / "rules" / f"mine.{lang}.html").read_text(encoding="utf-8"))
    return parser


@pytest.mark.parametrize("lang", ["es", "en"])
def test_rules_page_follows_the_contract(lang: str) -> None:
    page = _page(lang)
    order = ["goal", "components", "round", "actions", "scoring", "end", "options", "tips"]
    assert [s for s in page.sections if s in order] == order
    assert not {"html", "body", "script", "style"} & page.tags and page.styles == 0
    assert "h1" in page.tags and "h2" in page.tags
    assert set(page.actions) >= {"place", "pass", "discard"}
    assert set(page.figures) == set(ENGINE.figures) and len(page.figures) >= 3
    text = (STATIC / "rules" / f"mine.{lang}.html").read_text(encoding="utf-8")
    for field in MineOptions.model_fields:
        assert re.search(rf"data-option=\"{field}\"", text), field
    for town in COLOUR_TOWNS:
        assert town in text


def test_both_rules_pages_have_the_same_structure() -> None:
    es, en = _page("es"), _page("en")
    assert es.sections == en.sections and es.actions == en.actions and es.figures == en.figures
