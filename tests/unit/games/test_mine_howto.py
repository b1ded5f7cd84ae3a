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
from app.games.mine.data import COLOUR_NAMES
from app.games.mine.rules import MineOptions, MineState
from tests.unit.games.event_samples_mine import SAMPLES

STATIC = Path(__file__).resolve().parents[3] / "static"
#: The seed's six partner towns (mine.md §0, §12): cosmetic, and never the name of a colour.
PARTNER_TOWNS = ("Blanzy", "Decazeville", "Cransac", "Aubin", "Firmi", "Cagnac")


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
    final = ENGINE.figures["final"]().state
    assert final.phase == "over" and final.final is not None
    # The caption: Red and Blue tie on 16 points, Red wins with 1 coal in stock against 0.
    assert [(d.score, d.stock) for d in final.directors[:2]] == [(16, 1), (16, 0)]
    assert final.final.order[:2] == [0, 1] and "by stock (1-0)" in final.final.tiebreak
    assert ENGINE.figures["dummy"]().state.dummy
    assert ENGINE.figures["variant"]().state.die_card is not None


def test_undoable_placements_show_nothing_but_their_own_echo() -> None:
    kinds: dict[str, set[bool]] = {"place": set(), "pass": set(), "discard": set()}
    for before, seat, action, events, after in STEPS:
        ok = ENGINE.undoable(before, seat, action)
        kinds[action.type].add(ok)
        if ok:
            assert [(type(e), e.director, e.visible_to) for e in events] == [
                (ev.CardPlaced, seat, None)
            ]
            assert after.rng.draws == before.rng.draws and after.phase == "placement"
        elif isinstance(action, PlaceCard):
            # Refused only when the placement closed the phase or somebody else moved after it.
            closed = after.phase != "placement" or after.round != before.round
            assert closed or any(getattr(e, "director", seat) != seat for e in events)
    assert kinds["place"] == {True, False}
    assert kinds["pass"] == {False}  # a pass is final (§5.2)
    assert kinds["discard"] == {False}


def test_undo_never_follows_the_dummy_or_a_pass() -> None:
    # Order of round 1: seat 1, the dummy (director 2), seat 0.
    state = ENGINE.setup(2, 3, MineOptions(dummy=True, first_player=1))
    place = PlaceCard(card=5, location="mine")
    after, events = ENGINE.apply(state, 1, place)
    assert [(e.director, e.dummy) for e in events] == [(1, False), (2, True)]  # type: ignore[attr-defined]
    assert not ENGINE.undoable(state, 1, place)  # the dummy answered: its placement is seen
    assert not ENGINE.undoable(state, 1, PassTurn())
    # Seat 0's placement hands the turn straight to seat 1: nothing is revealed, so it may
    # be taken back; a pass in the same spot may not.
    own = PlaceCard(card=1, location="shelter", victim=2)
    nxt, events = ENGINE.apply(after, 0, own)
    assert [type(e) for e in events] == [ev.CardPlaced] and ENGINE.to_act(nxt) == {1}
    assert ENGINE.undoable(after, 0, own)
    assert not ENGINE.undoable(after, 0, PassTurn())


def test_the_last_placement_of_a_round_and_a_discard_are_not_undoable() -> None:
    from app.games.mine.figures import _OPENING_MOVES, _ROUND_ONE_REST, _play, _three

    state = _play(_three(), _OPENING_MOVES + _ROUND_ONE_REST[:-1])
    seat, last = _ROUND_ONE_REST[-1]
    assert not ENGINE.undoable(state, seat, last)  # it starts the resolution: cards revealed
    assert ENGINE.undoable(state, seat, PassTurn()) is False  # a pass never is
    limit = ENGINE.figures["hand_limit"]().state
    (card, *_) = limit.directors[0].hand
    assert not ENGINE.undoable(limit, 0, DiscardCard(card=card))
    fresh = _three()
    assert ENGINE.undoable(fresh, 0, PlaceCard(card=1, location="mine"))
    assert not ENGINE.undoable(fresh, 0, PlaceCard(card=1, location="events"))  # illegal


def test_descriptions_name_colours_and_explain_scoring_line_by_line() -> None:
    for item in SAMPLES:
        for locale in ("es", "en"):
            text = ENGINE.describe(item, locale)  # type: ignore[arg-type]
            assert text and type(item).__name__ not in text
    raid = SAMPLES[10]
    assert isinstance(raid, ev.RaidSettled) and raid.outcome == "succeeded"
    es = ENGINE.describe(raid, "es").split("\n")
    assert len(es) >= 4 and es[0].startswith("Saqueo de Rojo contra Azul:")
    assert "ataque 5" in es[0] and "defensa 3" in es[1] and "5 − 3 = 2" in es[2]
    tied = ENGINE.describe(SAMPLES[11], "en")
    assert "⌊3 / 2⌋ = 1" in tied
    sale = ENGINE.describe(SAMPLES[15], "en")
    assert "+ 2 (Big Order)" in sale and "− 1" in sale and "score 2 → 6" in sale
    end = ENGINE.describe(SAMPLES[-2], "es").split("\n")
    assert any("cartas de profesión" in line and "4 > 3" in line for line in end)
    assert any("4–4, luego 5–2" in line for line in end)
    blasted, lamp = (s for s in SAMPLES if isinstance(s, ev.CoalExtracted) and s.firedamp)
    assert "1 pit builder at the Mine protects against 1 firedamp card < 2: extraction 0" in (
        ENGINE.describe(blasted, "en")
    )
    assert "×2 with Safety Lamp, protects against 2 firedamp cards ≥ 2" in (
        ENGINE.describe(lamp, "en")
    )
    assert "×2 con la Lámpara de seguridad, protege de 2 cartas" in ENGINE.describe(lamp, "es")
    dummy_end = ENGINE.describe(SAMPLES[-1], "en")
    assert "dummy director" in dummy_end and "no seat wins" in dummy_end
    texts = [ENGINE.describe(s, loc) for s in SAMPLES for loc in ("es", "en")]
    texts += [ENGINE.describe(e, "en") for *_, events, _ in STEPS[:300] for e in events]
    joined = " ".join(texts)
    for locale in ("es", "en"):
        assert all(name.capitalize() in joined for name in COLOUR_NAMES[locale][:3])
    assert not [town for town in PARTNER_TOWNS if town in joined]


def test_colours_have_neutral_names_everywhere() -> None:
    """§2.4: c0…c5 are red, blue, green, yellow, purple, orange; the towns are not colours."""
    assert COLOUR_NAMES["en"] == ("red", "blue", "green", "yellow", "purple", "orange")
    assert COLOUR_NAMES["es"] == ("rojo", "azul", "verde", "amarillo", "morado", "naranja")
    view = ENGINE.view(ENGINE.setup(3, 1, MineOptions()), 0).model_dump(mode="json")
    assert [d["colour_name"] for d in view["directors"]] == ["red", "blue", "green"]
    assert "town" not in view["directors"][0]
    for path in [
        STATIC / "js" / "games" / "mine.js",
        STATIC / "i18n" / "games" / "mine.en.json",
        STATIC / "i18n" / "games" / "mine.es.json",
    ]:
        text = path.read_text(encoding="utf-8")
        assert not [town for town in PARTNER_TOWNS if town in text], path.name
        assert "mine.town." not in text, path.name
    for lang, names in (("en", COLOUR_NAMES["en"]), ("es", COLOUR_NAMES["es"])):
        catalogue = (STATIC / "i18n" / "games" / f"mine.{lang}.json").read_text(encoding="utf-8")
        for k, name in enumerate(names):
            assert f'"mine.colour.c{k}": "{name}"' in catalogue


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
    # The colours by their neutral names (§2.4); the partner towns only in their own note,
    # never as the name of a colour or a director.
    names = COLOUR_NAMES[lang]
    assert all(name.capitalize() in text for name in names)
    note = re.search(r'<p class="partner-towns">(.*?)</p>', text, re.S)
    assert note is not None and all(town in note.group(1) for town in PARTNER_TOWNS)
    rest = text.replace(note.group(0), "")
    assert not [town for town in PARTNER_TOWNS if town in rest]


def test_both_rules_pages_have_the_same_structure() -> None:
    es, en = _page("es"), _page("en")
    assert es.sections == en.sections and es.actions == en.actions and es.figures == en.figures
