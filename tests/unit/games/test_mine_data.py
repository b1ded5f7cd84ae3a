"""MINE! component tables: the counts and values of rules/mine.md §2."""

from __future__ import annotations

from collections import Counter

from app.games.mine import data


def test_seventy_cards_sixty_professions_ten_events() -> None:
    assert tuple(range(1, 71)) == data.ALL_CARD_IDS
    assert len(data.PROFESSION_IDS) == 60 and len(data.EVENT_IDS) == 10
    assert tuple(range(1, 61)) == data.PROFESSION_IDS


def test_profession_table_matches_section_2_5() -> None:
    expected = {
        "miner": (range(1, 25), (2, 1, 2, 1)),
        "pit_builder": (range(25, 49), (1, 2, 1, 1)),
        "foreman": (range(49, 52), (1, 1, 1, 3)),
        "watchman": (range(52, 55), (1, 3, 0, 1)),
        "brawler": (range(55, 58), (3, 1, 0, 1)),
        "engineer": (range(58, 61), (0, 1, 3, 1)),
    }
    counts = Counter(data.CARDS[c].kind for c in data.PROFESSION_IDS)
    assert counts == {
        "miner": 24,
        "pit_builder": 24,
        "foreman": 3,
        "watchman": 3,
        "brawler": 3,
        "engineer": 3,
    }
    for kind, (ids, values) in expected.items():
        for c in ids:
            card = data.CARDS[c]
            assert card.kind == kind and not card.is_event
            assert (card.atk, card.defence, card.ext, card.rec) == values
            assert (data.ATK[c], data.DEF[c], data.EXT[c], data.REC[c]) == values


def test_event_table_matches_section_2_6() -> None:
    kinds = [data.CARDS[c].kind for c in data.EVENT_IDS]
    assert kinds == ["firedamp"] * 3 + [
        "safety_lamp",
        "big_order",
        "rich_seam",
        "hiring_day",
        "strike",
        "cage_breakdown",
        "gendarmes",
    ]
    assert all(data.IS_EVENT[c] for c in data.EVENT_IDS)


def test_colour_cards_five_per_colour() -> None:
    assert len(data.COLOUR_CARDS) == 30
    assert Counter(c for c, _ in data.COLOUR_CARDS) == {f"c{k}": 5 for k in range(6)}


def test_die_cards_of_the_variant() -> None:
    assert [(d.id, d.mine_max, d.sale_max) for d in data.DIE_CARDS.values()] == [
        ("D1", 6, 1),
        ("D2", 5, 2),
        ("D3", 4, 3),
        ("D4", 3, 4),
        ("D5", 2, 5),
        ("D6", 1, 6),
    ]
    assert sum(d.sale_max for d in data.DIE_CARDS.values()) == data.END_SCORE


def test_starting_hands_are_four_miners_and_four_pit_builders() -> None:
    seen: set[int] = set()
    for k in range(6):
        hand = data.starting_hand(k)
        kinds = Counter(data.CARDS[c].kind for c in hand)
        assert kinds == {"miner": 4, "pit_builder": 4}
        assert not seen & set(hand)
        seen |= set(hand)
    assert len(seen) == 48


def test_coal_and_track_numbers() -> None:
    assert (data.N_COAL, data.START_COAL, data.START_COAL_VARIANT) == (20, 2, 3)
    assert (data.END_SCORE, data.TRACK_MAX, data.ROUNDS, data.HAND_LIMIT) == (21, 30, 6, 8)
