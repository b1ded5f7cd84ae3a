"""determinize(view, seat, rng): the worlds the strong bot searches (issue 21).

Consistency: at many points of random games, for every seat, the dealt state's view is the
seat's view exactly (models and wire form), it keeps every invariant of rules §19 and plays
on to the end. Coverage: over many samples every unseen card, tile and character turns up in
every place it could be, and nothing the seat sees moves. Purity: the same rng gives the same
state, and a view of a state whose secrets were replaced gives the same worlds.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from app.games.base import dump
from app.games.ginkgopolis import ENGINE
from app.games.ginkgopolis import data as D
from app.games.ginkgopolis.bot import selection_judge
from app.games.ginkgopolis.determinize import determinize
from app.games.ginkgopolis.rules import (
    GinkgopolisOptions,
    GinkgopolisState,
    selection_actions,
    selection_problem,
)
from app.games.ginkgopolis.view import GinkgopolisView

from .test_ginkgopolis_properties import check_invariants, options_st, planted


def _random_move(s: GinkgopolisState, rng: random.Random) -> GinkgopolisState:
    seat = rng.choice(sorted(ENGINE.to_act(s)))
    return ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat))).state


def _steps(s: GinkgopolisState) -> list[dict[str, Any]]:
    return [step.model_dump(exclude_unset=True) for step in s.queue]


def _check_world(s: GinkgopolisState, seat: int, rng: random.Random) -> GinkgopolisState:
    v = ENGINE.view(s, seat)
    world = ENGINE.determinize(v, seat, rng)
    assert dump(ENGINE.view(world, seat)) == dump(v), f"seat {seat} in phase {s.phase}"
    assert ENGINE.view_json(world, seat, {}) == dump(v)
    check_invariants(world)
    if s.phase == "resolve":
        # a decision pause: the rest of the round follows from the rules alone
        assert _steps(world) == _steps(s)
    return world


def _play_out(s: GinkgopolisState, rng: random.Random) -> None:
    for _ in range(ENGINE.max_length(s.n_players)):
        if ENGINE.result(s) is not None:
            return
        s = _random_move(s, rng)
        check_invariants(s)
    raise AssertionError("a dealt world did not end")


@given(seed=st.integers(0, 2**40), n=st.integers(1, 5), options=options_st)
def test_every_seat_gets_a_world_with_its_own_view(
    seed: int, n: int, options: GinkgopolisOptions
) -> None:
    if n == 1:
        options = options.model_copy(update={"characters": "sets", "hidden_sp": False})
    rng = random.Random(seed)
    s = ENGINE.setup(n, seed, options)
    step = 0
    played_out = False
    while True:
        # the rare steps (the draft, a refill, the end) always, others now and then (cost)
        if s.phase in ("draft", "contribute", "over") or rng.random() < 0.12:
            for seat in range(n):
                world = _check_world(s, seat, rng)
                if not played_out and s.round >= 3 and rng.random() < 0.2:
                    _play_out(world, rng)
                    played_out = True
        if ENGINE.result(s) is not None:
            break
        s = _random_move(s, rng)
        step += 1


def _position(n: int, seed: int, phase: str, round_at_least: int = 1, **options: Any) -> Any:
    """The first state of a random game (seeded) in ``phase`` from round ``round_at_least``."""
    rng = random.Random(seed)
    s = ENGINE.setup(n, seed, GinkgopolisOptions(**options))
    while not (s.phase == phase and s.round >= round_at_least):
        if ENGINE.result(s) is not None:
            raise AssertionError(f"no {phase} position in game {seed}")
        s = _random_move(s, rng)
    return s


def test_unseen_cards_and_tiles_turn_up_everywhere_they_could_be() -> None:
    s = _position(3, 11, "select", round_at_least=3)
    seat = 0
    v = ENGINE.view(s, seat)
    rng = random.Random(5)
    worlds = [determinize(v, seat, rng) for _ in range(700)]
    me = s.players[seat]
    seen_cards = set(me.hand) | {c for pl in s.players for c in pl.tableau}
    seen_cards |= {f"{c}{k}" for c, nums in s.stacks.items() for k in nums}
    unseen_cards = [c for c in (*D.URBANIZATION_CARDS, *D.TILES) if c not in seen_cards]
    seen_tiles = set(me.tiles) | {t for b in s.city.values() for t in b.tiles}
    unseen_tiles = [t for t in D.TILES if t not in seen_tiles]
    places: dict[str, Counter[str]] = {
        "hand 1": Counter(),
        "hand 2": Counter(),
        "deck": Counter(),
        "discard": Counter(),
        "screen 1": Counter(),
        "screen 2": Counter(),
        "supply": Counter(),
        "removed": Counter(),
    }
    for w in worlds:
        # nothing the seat sees moves
        assert w.players[seat].hand == me.hand and w.players[seat].tiles == me.tiles
        assert w.city == s.city and w.stacks == s.stacks
        places["hand 1"].update(w.players[1].hand)
        places["hand 2"].update(w.players[2].hand)
        places["deck"].update(w.deck)
        places["discard"].update(w.discard)
        places["screen 1"].update(w.players[1].tiles)
        places["screen 2"].update(w.players[2].tiles)
        places["supply"].update(w.supply)
        places["removed"].update(w.removed_tiles)
    for place in ("hand 1", "hand 2", "deck", "discard"):
        assert set(places[place]) == set(unseen_cards), place
    for place in ("screen 1", "screen 2", "supply", "removed"):
        assert set(places[place]) == set(unseen_tiles), place


def test_hals_card_and_the_solo_deck_take_every_unseen_card() -> None:
    s = _position(1, 4, "select", round_at_least=4)
    v = ENGINE.view(s, 0)
    rng = random.Random(2)
    worlds = [determinize(v, 0, rng) for _ in range(600)]
    seen = set(s.players[0].hand) | set(s.players[1].tableau) | set(s.players[0].tableau)
    seen |= {f"{c}{k}" for c, nums in s.stacks.items() for k in nums}
    unseen = {c for c in (*D.URBANIZATION_CARDS, *D.TILES) if c not in seen}
    assert {w.hal_card for w in worlds} == unseen
    assert {c for w in worlds for c in w.deck} == unseen


def test_secret_selections_with_a_tile_are_legal_pairs_and_vary() -> None:
    # seats 1 and 2 select first, then seat 0 looks
    rng = random.Random(3)
    s = _position(3, 21, "select", round_at_least=3)
    for p in (1, 2):
        legal = [a for a in ENGINE.legal_actions(s, p) if a.tile is not None] or [
            ENGINE.legal_actions(s, p)[0]
        ]
        s = ENGINE.apply(s, p, rng.choice(legal)).state
    v = ENGINE.view(s, 0)
    pairs: set[tuple[str, str | None]] = set()
    for _ in range(300):
        w = determinize(v, 0, rng)
        for p in (1, 2):
            sel = w.players[p].selection
            assert sel is not None and (sel.tile is not None) == v.players[p].tile_attached
            # the pair was legal when it was chosen: the hand and screen it came from
            pl = w.players[p]
            before = pl.model_copy(
                update={"hand": [*pl.hand, sel.card], "tiles": [*pl.tiles, sel.tile or ""]}
            )
            t = w.model_copy(update={"players": [*w.players[:p], before, *w.players[p + 1 :]]})
            assert selection_problem(t, p, sel.card, sel.tile) is None
            pairs.add((sel.card, sel.tile))
    assert len(pairs) > 20


def _judged_gap(s: GinkgopolisState, seat: int, others: tuple[int, ...], deals: int) -> float:
    """How much better, by the normal judgement, the dealt secret selections of ``others``
    are than the average legal selection of the hand and screen each was chosen from."""
    v = ENGINE.view(s, seat)
    judges = {p: selection_judge(v, p) for p in others}
    rng = random.Random(4)
    gaps: list[float] = []
    for _ in range(deals):
        w = determinize(v, seat, rng)
        for p in others:
            pl = w.players[p]
            sel = pl.selection
            assert sel is not None
            screen = pl.tiles if sel.tile is None else [*pl.tiles, sel.tile]
            before = pl.model_copy(update={"hand": [*pl.hand, sel.card], "tiles": screen})
            t = w.model_copy(update={"players": [*w.players[:p], before, *w.players[p + 1 :]]})
            same_kind = [
                a for a in selection_actions(t, p) if (a.tile is None) == (sel.tile is None)
            ]
            options = [judges[p](a.card, a.tile) for a in same_kind]
            gaps.append(judges[p](sel.card, sel.tile) - sum(options) / len(options))
    return sum(gaps) / len(gaps)


def test_a_secret_selection_leans_to_what_its_seat_rates_best(monkeypatch: Any) -> None:
    # Seats 1 and 2 chose by the normal judgement (one with a tile, one without), then seat 0
    # looks: each dealt selection is drawn from a dealt hand (and screen), leaning to what that
    # seat's judgement rates best, as a player picks; uniform, it is an average option.
    rng = random.Random(3)
    s = _position(3, 21, "select", round_at_least=3)
    for p, with_tile in ((1, True), (2, False)):
        legal = [a for a in ENGINE.legal_actions(s, p) if (a.tile is not None) == with_tile]
        move = ENGINE.bot(ENGINE.view(s, p), legal, rng, "normal")
        s = ENGINE.apply(s, p, move).state
    assert _judged_gap(s, 0, (1, 2), 300) > 0.6
    # (the package's name ``determinize`` is the function: the module by its full name)
    module = importlib.import_module("app.games.ginkgopolis.determinize")
    monkeypatch.setattr(module, "SELECTION_TEMPERATURE", 1e9)
    assert abs(_judged_gap(s, 0, (1, 2), 300)) < 0.3


def test_the_draft_deals_every_unseen_character_to_every_other_seat() -> None:
    s = ENGINE.setup(3, 8, GinkgopolisOptions(characters="draft"))
    s = ENGINE.apply(s, 0, ENGINE.legal_actions(s, 0)[0]).state  # seat 0 picked, others not
    v = ENGINE.view(s, 0)
    rng = random.Random(9)
    me = s.players[0]
    unseen = set(D.CHARACTER_IDS) - set(me.draft_pile) - set(me.draft_kept)
    held: dict[int, set[str]] = {1: set(), 2: set()}
    for _ in range(400):
        w = determinize(v, 0, rng)
        assert w.players[0].draft_pile == me.draft_pile
        for p in (1, 2):
            assert len(w.players[p].draft_pile) == 4 and not w.players[p].draft_kept
            held[p] |= set(w.players[p].draft_pile)
    assert held[1] == unseen and held[2] == unseen


def test_a_refill_sets_aside_any_share_of_another_screen() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        s = ENGINE.setup(2, seed, GinkgopolisOptions())
        while s.phase != "contribute" and ENGINE.result(s) is None:
            s = _random_move(s, rng)
        if s.phase == "contribute" and len(s.players[1].tiles) >= 2:
            break
    else:
        raise AssertionError("no refill found")
    v = ENGINE.view(s, 0)
    counts = {len(determinize(v, 0, rng).players[1].set_aside) for _ in range(200)}
    top = v.players[1].tile_count - (0 if v.players[1].contribution_done else 1)
    assert counts == set(range(top + 1))


def test_the_same_rng_deals_the_same_world() -> None:
    s = _position(4, 3, "select", round_at_least=2, hidden_sp=True)
    v = ENGINE.view(s, 2)
    a = determinize(v, 2, random.Random(77))
    b = determinize(v, 2, random.Random(77))
    assert dump(a) == dump(b)
    assert dump(a) != dump(determinize(v, 2, random.Random(78)))


def test_it_reads_the_view_only() -> None:
    """A state whose every secret is planted nonsense shows the same view, so it deals the same
    worlds; and the view read back from its JSON deals them too."""
    for phase in ("select", "resolve"):
        s = _position(3, 17, phase, round_at_least=2)
        for seat in range(3):
            v = ENGINE.view(s, seat)
            fake = ENGINE.view(planted(s, seat), seat)
            wire = GinkgopolisView.model_validate(dump(v))
            worlds = [dump(determinize(x, seat, random.Random(1))) for x in (v, fake, wire)]
            assert worlds[0] == worlds[1] == worlds[2]


def test_a_refill_pause_is_rebuilt_as_one_the_rules_could_have_made() -> None:
    found = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = ENGINE.setup(3, seed, GinkgopolisOptions())
        while s.phase != "contribute" and ENGINE.result(s) is None:
            s = _random_move(s, rng)
        if s.phase != "contribute":
            continue
        seat = min(ENGINE.to_act(s))
        v = ENGINE.view(s, seat)
        queues = [_steps(determinize(v, seat, random.Random(k))) for k in range(40)]
        assert _steps(s) in queues
        found += 1
        if found >= 3:
            return
    raise AssertionError("too few refills found")
