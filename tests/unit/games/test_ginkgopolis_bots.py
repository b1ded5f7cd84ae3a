"""The bot levels of Ginkgopolis (issue 21): easy, normal, strong and the search's evaluate.

Their strength is measured by benchmarks/ladder.py, not here: these tests hold each level to
legal, deterministic play and evaluate to its contract.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from app.games import search
from app.games.base import SearchBudget, dump
from app.games.ginkgopolis import ENGINE, bot
from app.games.ginkgopolis.bot import evaluate
from app.games.ginkgopolis.rules import (
    Building,
    GinkgopolisOptions,
    GinkgopolisState,
    district_scores,
    end_card_score,
)

from .test_ginkgopolis_scenarios import play_random


def _positions(n: int, seed: int, every: int = 7) -> list[GinkgopolisState]:
    rng = random.Random(seed)
    s = ENGINE.setup(n, seed, GinkgopolisOptions())
    out = [s]
    while ENGINE.result(s) is None:
        seat = min(ENGINE.to_act(s))
        s = ENGINE.apply(
            s, seat, ENGINE.bot(ENGINE.view(s, seat), ENGINE.legal_actions(s, seat), rng)
        ).state
        if rng.randrange(every) == 0:
            out.append(s)
    out.append(s)
    return out


def test_evaluate_gives_every_seat_prospects_in_0_1_and_the_winner_the_best_at_the_end() -> None:
    for n in (1, 2, 3, 5):
        states = _positions(n, 40 + n)
        for s in states:
            values = evaluate(s)
            assert len(values) == n
            assert all(0.0 <= v <= 1.0 for v in values)
        result = ENGINE.result(states[-1])
        assert result is not None
        values = evaluate(states[-1])
        if n == 1:
            assert (values[0] > 0.5) == (result.places[0] == 1)
        else:
            best = max(values)
            assert {p for p in range(n) if values[p] == best} == {
                p for p, place in result.places.items() if place == 1
            }


def test_evaluate_prefers_more_sp() -> None:
    s = ENGINE.setup(2, 3, GinkgopolisOptions())
    richer = s.model_copy(deep=True)
    richer.players[0].sp += 10
    assert evaluate(richer)[0] > evaluate(s)[0]
    assert evaluate(richer)[1] < evaluate(s)[1]


def test_easy_plays_whole_games_legally() -> None:
    for n in (1, 2, 4):
        final, _ = play_random(n, 7 + n, level="easy")
        assert ENGINE.result(final) is not None


def test_easy_is_deterministic_for_a_seed_and_not_always_normal() -> None:
    differs = 0
    for s in _positions(3, 12, every=3):
        seats = sorted(ENGINE.to_act(s))
        if not seats:
            continue
        seat = seats[0]
        v, legal = ENGINE.view(s, seat), ENGINE.legal_actions(s, seat)
        a = ENGINE.bot(v, legal, random.Random(5), "easy")
        assert a in legal and a == ENGINE.bot(v, legal, random.Random(5), "easy")
        differs += a != ENGINE.bot(v, legal, random.Random(5), "normal")
    assert differs > 0


def test_the_search_picks_a_legal_move_the_same_for_the_same_seed_and_budget() -> None:
    budget = SearchBudget(iterations=25, seconds=60.0)
    for n in (1, 3):
        for s in _positions(n, 30 + n, every=15)[1:4]:
            seats = sorted(ENGINE.to_act(s))
            if not seats:
                continue
            seat = seats[0]
            v, legal = ENGINE.view(s, seat), ENGINE.legal_actions(s, seat)
            a = search.choose(ENGINE, v, seat, legal, random.Random(1), budget)
            b = search.choose(ENGINE, v, seat, legal, random.Random(1), budget)
            assert a in legal and dump(a) == dump(b)


def test_the_search_plays_a_solo_game_to_the_end() -> None:
    budget = SearchBudget(iterations=8, seconds=60.0)
    s = ENGINE.setup(1, 5, GinkgopolisOptions())
    rng = random.Random(5)
    while ENGINE.result(s) is None:
        legal = ENGINE.legal_actions(s, 0)
        choice = search.choose(ENGINE, ENGINE.view(s, 0), 0, legal, rng, budget)
        s = ENGINE.apply(s, 0, choice).state
    assert ENGINE.result(s) is not None


def _selections_with_a_tile() -> Iterator[tuple[bot._Ctx, dict[str, Building], str, list[str]]]:
    """For every selection with a tile of every seat to select, at every count: the normal
    bot's context, the city after it, the cell it changes and the seat's tableau after it."""
    for n in range(2, 6):
        for s in _positions(n, 30 + n, every=3):
            if s.phase != "select":
                continue
            for seat in sorted(ENGINE.to_act(s)):
                view = ENGINE.view(s, seat)
                ctx = bot._ctx(view)
                tableau = list(view.players[seat].tableau)
                for a in ENGINE.legal_actions(s, seat):
                    if a.tile is None:
                        continue
                    city = dict(ctx.city)
                    if a.card.startswith("U-"):
                        site = view.tokens[a.card[2]]
                        changed = f"{site[0]},{site[1]}"
                        city[changed] = Building(tiles=[a.tile], owner=seat, pending=True)
                        yield ctx, city, changed, tableau
                    else:
                        changed = ctx.tops[a.card]
                        before = city[changed]
                        city[changed] = Building(tiles=[*before.tiles, a.tile], owner=seat)
                        yield ctx, city, changed, [*tableau, a.card]


def test_the_normal_bot_counts_the_districts_a_selection_changes_as_a_full_count_does() -> None:
    # The bot counts anew only the districts around the cell a selection builds on; for every
    # selection with a tile, that is the whole city's count.
    compared = 0
    for ctx, city, changed, _ in _selections_with_a_tile():
        full = district_scores(city, len(ctx.view.players))
        assert bot._district_totals(ctx, city, changed) == full
        compared += 1
    assert compared > 500


def test_the_normal_bot_counts_the_points_a_selection_changes_as_a_full_count_does() -> None:
    # A rival's end cards are counted anew only for the building a selection changes; for
    # every selection with a tile, the seat's and its best rival's points are the full count.
    compared = rival_cards_moved = 0
    for ctx, city, changed, tableau in _selections_with_a_tile():
        dist = district_scores(city, len(ctx.view.players))
        points = []
        for p, pl in enumerate(ctx.view.players):
            own = tableau if p == ctx.me else list(pl.tableau)
            tab = [*pl.characters, *own]
            points.append(dist[p] + sum(end_card_score(c, p, city, tab) for c in own))
            if p != ctx.me:
                was = sum(end_card_score(c, p, ctx.city, tab) for c in own)
                rival_cards_moved += was != points[-1] - dist[p]
        best_other = max(v for p, v in enumerate(points) if p != ctx.me)
        assert bot._points(ctx, city, tableau, changed) == (points[ctx.me], best_other)
        compared += 1
    assert compared > 500
    # Some selections change what a rival's end cards count, so the test can fail.
    assert rival_cards_moved > 20


def test_every_level_chooses_from_the_playout_view_as_from_the_view() -> None:
    # Playouts hand the bots a view without the districts and hints, which no level reads.
    compared = 0
    for n in range(1, 6):
        for s in _positions(n, 60 + n, every=4):
            for seat in sorted(ENGINE.to_act(s)):
                view = ENGINE.view(s, seat)
                lighter = ENGINE.playout_view(s, seat)
                full = {"districts": [], "selection_hints": None}
                assert lighter.model_copy(update=full) == view.model_copy(update=full)
                legal = ENGINE.legal_actions(s, seat)
                for level in ("easy", "normal"):
                    chosen = ENGINE.bot(view, legal, random.Random(compared), level)
                    assert ENGINE.bot(lighter, legal, random.Random(compared), level) == chosen
                    compared += 1
    assert compared > 300


def test_the_levels_are_offered() -> None:
    # Strong since its search beats the normal bot on the ladder (docs/BOTS.md).
    assert ENGINE.info.bot_levels == ("easy", "normal", "strong", "random")
