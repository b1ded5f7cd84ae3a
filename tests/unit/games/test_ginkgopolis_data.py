"""Component counts of rules §3/§4 and the card tables as data."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from app.games.ginkgopolis import data as D


def test_sixty_unique_tiles_twenty_per_colour() -> None:
    assert len(D.TILES) == len(set(D.TILES)) == 60
    assert Counter(t[0] for t in D.TILES) == {"R": 20, "Y": 20, "B": 20}
    assert len(D.START_TILES) == 9 and len(D.SUPPLY_TILES) == 51
    assert all(D.number_of(t) <= 3 for t in D.START_TILES)


def test_sixty_building_cards_one_per_tile() -> None:
    assert set(D.BUILDING_CARDS) == set(D.TILES)
    kinds = Counter(c.kind for c in D.BUILDING_CARDS.values())
    assert kinds == {"permanent": 27, "end": 33}


def test_permanent_bonus_pattern() -> None:
    for c in D.COLOURS:
        item = D.ITEM_OF[c]
        for n in range(1, 10):
            card = D.BUILDING_CARDS[f"{c}{n}"]
            assert card.trigger == D.TRIGGERS[(n - 1) % 3]
            expected = ((item, 1), ("sp", 1)) if n >= 7 else ((item, 1),)
            assert card.reward == expected
    assert D.BUILDING_CARDS["Y7"].reward == (("sp", 1), ("sp", 1))
    assert D.BUILDING_CARDS["B9"].reward == (("tile", 1), ("sp", 1))


def test_end_game_card_table() -> None:
    owned = {
        (c, n): D.BUILDING_CARDS[f"{c}{n}"].target_colour
        for c in D.COLOURS
        for n in (10, 11, 12, 13)
    }
    assert owned == {
        ("R", 10): "R",
        ("R", 11): "Y",
        ("R", 12): "B",
        ("R", 13): "R",
        ("Y", 10): "Y",
        ("Y", 11): "R",
        ("Y", 12): "B",
        ("Y", 13): "Y",
        ("B", 10): "B",
        ("B", 11): "R",
        ("B", 12): "Y",
        ("B", 13): "B",
    }
    for c in D.COLOURS:
        assert D.BUILDING_CARDS[f"{c}14"].rule == "owned_height"
        assert (D.BUILDING_CARDS[f"{c}14"].min_height, D.BUILDING_CARDS[f"{c}14"].max_height) == (
            1,
            2,
        )
        assert (D.BUILDING_CARDS[f"{c}15"].min_height, D.BUILDING_CARDS[f"{c}15"].per) == (3, 3)
        for n, trig in zip((16, 17, 18), D.TRIGGERS, strict=True):
            card = D.BUILDING_CARDS[f"{c}{n}"]
            assert (card.rule, card.target_trigger, card.per) == ("tableau_trigger", trig, 2)
        assert D.BUILDING_CARDS[f"{c}19"].target_colour == c
        assert (D.BUILDING_CARDS[f"{c}20"].rule, D.BUILDING_CARDS[f"{c}20"].per) == ("flat", 9)


def test_twelve_urbanization_cards_and_tokens_around_the_square() -> None:
    assert len(D.URBANIZATION_CARDS) == 12 and len(D.TOKEN_START) == 12
    assert set(D.TOKEN_START) == set(D.LETTERS)
    cells = set(D.TOKEN_START.values())
    assert len(cells) == 12
    for x, y in cells:
        assert max(abs(x), abs(y)) == 2 and min(abs(x), abs(y)) <= 1
    assert D.TOKEN_START["A"] == (-1, 2) and D.TOKEN_START["L"] == (-2, 1)
    assert len(D.START_DECK) == 21


def test_twenty_seven_characters() -> None:
    assert len(D.CHARACTERS) == 27
    types = Counter((c.colour, c.trigger) for c in D.CHARACTERS.values())
    assert len(types) == 9 and set(types.values()) == {3}
    for s in D.SETS:
        members = D.set_members(s)
        assert len(members) == 3
        assert {D.CHARACTERS[m].colour for m in members} == {"R", "Y", "B"}
        assert sum(D.CHARACTERS[m].start_tiles for m in members) == 2
    pattern = {
        ("R", "exploit"): (1, 1, 1),
        ("R", "urbanize"): (1, 1, 1),
        ("R", "build_up"): (0, 0, 1),
        ("Y", "exploit"): (2, 2, 1),
        ("Y", "urbanize"): (2, 2, 1),
        ("Y", "build_up"): (2, 1, 1),
        ("B", "exploit"): (2, 1, 0),
        ("B", "urbanize"): (2, 1, 0),
        ("B", "build_up"): (1, 0, 0),
    }
    for ch in D.CHARACTERS.values():
        assert (ch.start_resources, ch.start_sp, ch.start_tiles) == pattern[(ch.colour, ch.trigger)]
        assert ch.reward == ((D.ITEM_OF[ch.colour], 1),)


def test_player_count_parameters() -> None:
    rows = {
        n: (p.resources, p.tiles_removed, p.cards_discarded) for n, p in D.PLAYER_COUNTS.items()
    }
    assert rows == {1: (25, 6, 7), 2: (25, 6, 7), 3: (20, 6, 7), 4: (18, 0, 0), 5: (16, 0, 0)}
    assert len(D.PLAYER_COLOURS) == 5


def test_canonical_order() -> None:
    items = ["B1", "C02", "U-L", "R20", "Y1", "U-A", "R1"]
    assert sorted(items, key=D.canon_key) == ["U-A", "U-L", "R1", "R20", "Y1", "B1", "C02"]


def test_characters_come_from_the_data_file_and_bad_rows_are_named(tmp_path: Path) -> None:
    # D8: the list can be corrected without code changes.
    assert D.CHARACTERS_FILE.name == "characters.csv"
    assert D._load_characters(D.CHARACTERS_FILE) == D.CHARACTERS
    header = D.CHARACTERS_FILE.read_text().splitlines()[0]
    bad = tmp_path / "characters.csv"
    bad.write_text(header + "\nC01,1,G,urbanize,1,1,1,sourced\n")
    with pytest.raises(ValueError, match="line 2"):
        D._load_characters(bad)
