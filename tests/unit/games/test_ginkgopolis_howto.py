"""Ginkgopolis "How to play" and undo: the Event union, figures, undoable, descriptions, page."""

from __future__ import annotations

import random
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, get_args

import pytest

from app.games.base import RulesError, dump, parse_event
from app.games.ginkgopolis import ENGINE
from app.games.ginkgopolis import events as ev
from app.games.ginkgopolis.actions import ActionModel, ContributeDone, Select, Take
from app.games.ginkgopolis.rules import GinkgopolisOptions, GinkgopolisState
from tests.unit.games.event_samples_ginkgopolis import SAMPLES

STATIC = Path(__file__).resolve().parents[3] / "static"
EVENT_TYPES = set(get_args(ev.GinkgopolisEvent))
ACTION_TYPES = {cls.model_fields["type"].default for cls in get_args(ActionModel)}

Step = tuple[GinkgopolisState, int, Any, list[ev.Event], GinkgopolisState]


@cache
def steps() -> list[Step]:
    """Every step (state before, seat, action, events, state after) of a few seeded games."""
    out: list[Step] = []
    cases = [
        (3, 1, GinkgopolisOptions(), "normal"),
        (1, 2, GinkgopolisOptions(), "normal"),
        (2, 3, GinkgopolisOptions(characters="draft", keep_token_order=True), "random"),
        (4, 4, GinkgopolisOptions(characters="random", hidden_sp=True), "normal"),
    ]
    for n, seed, options, level in cases:
        state = ENGINE.setup(n, seed, options)
        rng = random.Random(seed)
        while ENGINE.to_act(state):
            seat = min(ENGINE.to_act(state))
            legal = ENGINE.legal_actions(state, seat)
            action = ENGINE.bot(ENGINE.view(state, seat), legal, rng, level)
            after, events = ENGINE.apply(state, seat, action)
            out.append((state, seat, action, events, after))
            state = after
    return out


# --------------------------------------------------------------------------- events


def test_event_union_parses_every_emitted_event_and_every_sample() -> None:
    emitted = [e for *_, events, _ in steps() for e in events]
    for event in [*emitted, *SAMPLES]:
        assert parse_event(ENGINE, dump(event)) == event
    assert {type(e) for e in SAMPLES} == EVENT_TYPES, "a sample of every event type"


def test_events_stored_before_the_new_fields_still_parse() -> None:
    scored = parse_event(
        ENGINE,
        {"type": "player_scored", "player": 0, "sp": 20, "districts": 6, "cards": 3,
         "tokens": 2, "total": 31, "hal": False, "visible_to": None},
    )  # fmt: skip
    assert isinstance(scored, ev.PlayerScored) and scored.district_lines == []
    assert "31" in ENGINE.describe(scored, "es")
    gained = parse_event(
        ENGINE, {"type": "items_gained", "player": 1, "sp": 2, "reason": "neighbour"}
    )
    assert isinstance(gained, ev.ItemsGained) and gained.building is None
    urbanized = parse_event(
        ENGINE,
        {"type": "building_urbanized", "player": 0, "cell": [2, 1], "tile": "B4", "letter": "D"},
    )
    assert isinstance(urbanized, ev.BuildingUrbanized) and urbanized.neighbours == []


def test_new_event_fields_carry_only_public_facts() -> None:
    """The scoring steps and the neighbours read only the public city and tableaux (§13)."""
    for _, _, _, events, after in steps():
        for e in events:
            if isinstance(e, ev.BuildingUrbanized):
                x, y = e.cell
                for nb in e.neighbours:
                    # buildings of the public city, orthogonally next to the new site
                    assert nb.cell in [(x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)]
                    assert nb.top in after.city[f"{nb.cell[0]},{nb.cell[1]}"].tiles
            if isinstance(e, ev.PlayerScored):
                assert e.visible_to is None
                assert sum(d.points for d in e.district_lines) == e.districts
                assert sum(c.points for c in e.card_lines) == e.cards
                assert e.new_hand_tokens * 2 == e.tokens
                assert e.sp + e.districts + e.cards + e.tokens == e.total


# --------------------------------------------------------------------------- descriptions


def test_every_sample_and_action_is_described_in_both_languages() -> None:
    legal = {a.type: a for state, seat, *_ in steps() for a in ENGINE.legal_actions(state, seat)}
    assert set(legal) == ACTION_TYPES
    for item in [*SAMPLES, *legal.values()]:
        es, en = ENGINE.describe(item, "es"), ENGINE.describe(item, "en")
        assert es.strip() and en.strip() and es != en, item
        for text in (es, en):
            assert "None" not in text and "{" not in text, text
            assert all(line.strip() for line in text.split("\n")), text


def test_final_scoring_is_explained_line_by_line() -> None:
    scored = [e for *_, events, _ in steps() for e in events if isinstance(e, ev.PlayerScored)]
    assert scored
    for e in scored:
        es = ENGINE.describe(e, "es").split("\n")
        en = ENGINE.describe(e, "en").split("\n")
        assert (
            len(es)
            == len(en)
            == 2 + len(e.district_lines) + len(e.card_lines) + (1 if e.tokens else 0)
        )
        for d, line in zip(e.district_lines, en[2:], strict=False):
            assert f"{d.buildings} buildings" in line and f" {d.points} SP" in line
        for c, line in zip(e.card_lines, en[2 + len(e.district_lines) :], strict=False):
            assert c.card in line and f"{c.points} SP" in line


def test_build_up_and_urbanize_show_costs_and_gains() -> None:
    built = ev.BuiltUp(
        player=0, cell=(0, 1), tile="Y5", card="R7", height=3, sp_cost=2, colour_cost=1
    )
    text = ENGINE.describe(built, "es")
    assert "7 − 5 = 2 PE" in text and "rojo → amarillo" in text and "3 recursos" in text
    urb = ev.BuildingUrbanized(
        player=1, cell=(2, 1), tile="B4", letter="D",
        neighbours=[ev.NeighbourBuilding(cell=(1, 1), top="R2", height=2)],
    )  # fmt: skip
    assert ENGINE.describe(urb, "en").split("\n")[1].endswith("2 resources")


# --------------------------------------------------------------------------- figures


def test_every_figure_builds_a_real_deterministic_position() -> None:
    assert len(ENGINE.figures) >= 4
    for name, build in ENGINE.figures.items():
        figure = build()
        assert isinstance(figure.state, GinkgopolisState), name
        assert figure.caption.strip(), name
        assert dump(build().state) == dump(figure.state), f"{name} is not deterministic"
        dump(ENGINE.view(figure.state, figure.seat))
        if figure.seat is not None and ENGINE.result(figure.state) is None:
            assert ENGINE.legal_actions(figure.state, figure.seat), f"{name}: nothing to show"


def test_the_figures_show_what_the_page_explains() -> None:
    fig = {name: build() for name, build in ENGINE.figures.items()}
    assert fig["new_hand"].state.phase == "new_hand"
    assert fig["opening"].state.phase == "select" and fig["opening"].state.round == 1
    sel = ENGINE.legal_actions(fig["selection"].state, 0)
    assert any(isinstance(a, Select) and a.tile and not a.card.startswith("U-") for a in sel)
    assert {a.type for a in ENGINE.legal_actions(fig["take"].state, 0)} == {"take"}
    assert len(ENGINE.legal_actions(fig["move_token"].state, 0)) >= 2
    assert fig["contribute"].state.phase == "contribute"
    assert fig["districts"].state.phase == "select"
    assert ENGINE.view(fig["districts"].state, 0).districts
    assert ENGINE.result(fig["final"].state) is not None and fig["final"].seat is None
    assert fig["draft"].state.phase == "draft"
    assert fig["solo"].state.solo


# --------------------------------------------------------------------------- undo


def _safe(state: GinkgopolisState, seat: int, action: Any) -> None:
    after, events = ENGINE.apply(state, seat, action)
    assert all(e.visible_to is None for e in events), action
    assert after.rng.draws == state.rng.draws, action
    assert not any(
        e.type in ("action_revealed", "tiles_received", "cards_received") for e in events
    )


def test_undoable_actions_reveal_nothing_and_draw_no_chance() -> None:
    said_yes: set[str] = set()
    for i, (state, seat, action, _, _) in enumerate(steps()):
        candidates = ENGINE.legal_actions(state, seat) if i % 3 == 0 else [action]
        for a in candidates:
            if ENGINE.undoable(state, seat, a):
                said_yes.add(a.type)
                _safe(state, seat, a)
    assert "contribute_done" in said_yes


def test_secret_choices_and_revealing_steps_are_never_undoable() -> None:
    for state, seat, action, events, _ in steps():
        if action.type in ("draft_pick", "keep_hand", "new_hand", "select", "contribute"):
            assert not ENGINE.undoable(state, seat, action), action
        if any(e.visible_to is not None for e in events) or any(
            e.type in ("action_revealed", "deck_rebuilt", "contributions_revealed") for e in events
        ):
            assert not ENGINE.undoable(state, seat, action), action


def test_finishing_a_contribution_is_undoable_only_while_others_still_choose() -> None:
    state = ENGINE.figures["contribute"]().state
    waiting = sorted(ENGINE.to_act(state))
    assert len(waiting) >= 2
    first, *rest = waiting
    assert ENGINE.undoable(state, first, ContributeDone())
    _safe(state, first, ContributeDone())
    for seat in [first, *rest[:-1]]:
        state, _ = ENGINE.apply(state, seat, ContributeDone())
    last = rest[-1]
    assert not ENGINE.undoable(state, last, ContributeDone())  # reveals and shuffles


def test_taking_an_item_runs_on_into_the_next_reveal() -> None:
    state = ENGINE.figures["take"]().state
    for action in ENGINE.legal_actions(state, 0):
        assert isinstance(action, Take)
        assert not ENGINE.undoable(state, 0, action)
        assert not ENGINE.undoable(state, 1, action)  # not this seat's decision


def test_undoable_refuses_illegal_or_foreign_actions() -> None:
    state = ENGINE.figures["opening"]().state
    assert not ENGINE.undoable(state, 0, ContributeDone())
    with pytest.raises(RulesError):
        ENGINE.apply(state, 0, ContributeDone())


# --------------------------------------------------------------------------- the rules page


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.sections: list[str] = []
        self.action_types: list[str] = []
        self.figures: list[str] = []
        self.styles = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "section" and a.get("id"):
            self.sections.append(str(a["id"]))
        if a.get("data-action-type"):
            self.action_types.append(str(a["data-action-type"]))
        if tag == "figure" and a.get("data-figure"):
            self.figures.append(str(a["data-figure"]))
        self.styles += "style" in a


def _page(lang: str) -> tuple[_Page, str]:
    text = (STATIC / "rules" / f"ginkgopolis.{lang}.html").read_text(encoding="utf-8")
    page = _Page()
    page.feed(text)
    return page, text


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_rules_page_follows_the_contract(lang: str) -> None:
    page, text = _page(lang)
    assert page.tags[0] == "h1"
    assert not {"html", "body", "script", "style"} & set(page.tags)
    assert page.styles == 0
    order = ["goal", "components", "round", "actions", "scoring", "end", "options", "tips"]
    assert [s for s in page.sections if s in order] == order
    assert set(page.action_types) == ACTION_TYPES
    assert len(set(page.figures)) >= 3 and set(page.figures) <= set(ENGINE.figures)
    assert set(page.figures) == set(ENGINE.figures), "use every figure"
    for field in GinkgopolisOptions.model_fields:
        assert f'data-option="{field}"' in text, field


def test_both_languages_have_the_same_structure() -> None:
    (es, _), (en, _) = _page("es"), _page("en")
    assert es.sections == en.sections
    assert es.action_types == en.action_types
    assert es.figures == en.figures
    assert re.sub(r"\s+", "", "".join(es.tags)) == re.sub(r"\s+", "", "".join(en.tags))


#: D3 (shared/rules/ginkgopolis.md §17) in the spec's own words, and their Spanish.
D3_WORDS = {
    "en": "any empty cell orthogonally adjacent to any building of the city",
    "es": "cualquier casilla vacía ortogonalmente adyacente a cualquier edificio de la ciudad",
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_token_fallback_is_worded_as_the_spec_words_d3(lang: str) -> None:
    _, text = _page(lang)
    start = text.index('data-action-type="move_token"')
    move_token = text[start : text.index("</div>", start)]
    assert D3_WORDS[lang] in move_token
    # and with the order option too (D3: "same order flag applies")
    option = "Keep the token order" if lang == "en" else "Mantener el orden de las fichas"
    assert option in move_token
