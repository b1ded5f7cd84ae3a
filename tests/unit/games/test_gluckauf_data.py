"""The component tables of data.py against the totals stated in gluckauf.md §2-§3."""

from __future__ import annotations

from collections import Counter

from app.games.gluckauf.data import (
    CART_VALUE,
    COLOURS,
    LOCK_TILES,
    ORDERS,
    PARAMS,
    PRINTED_CARTS,
    SCORING,
    SPACES,
    TILES,
    TRANSPORTS,
    categories_for_shift,
    open_spaces,
)


def test_48_tunnel_tiles_in_16_types_of_3() -> None:
    assert len(TILES) == 48
    assert [t.id for t in TILES] == list(range(48))
    types = Counter(t.type_id for t in TILES)
    assert len(types) == 16 and set(types.values()) == {3}
    assert sum(1 for t in TILES if t.side == "light") == 24
    for colour in COLOURS:
        mine = [t for t in TILES if t.colour == colour]
        assert len(mine) == 12 and sum(t.carts for t in mine) == 18
    assert sum(t.carts for t in TILES) == 72
    for t in TILES:
        assert t.cost == t.carts * CART_VALUE[t.colour]


def test_tile_canonical_ids_follow_table_3_2() -> None:
    expected = [f"{c}{k}{side}" for side in "DL" for c in "YBGK" for k in (1, 2)]
    for i, type_id in enumerate(expected):
        assert [t.type_id for t in TILES[3 * i : 3 * i + 3]] == [type_id] * 3
    assert TILES[15].type_id == "G2D" and TILES[15].cost == 6
    assert TILES[47].type_id == "K2L" and TILES[47].cost == 8


def test_printed_minecarts() -> None:
    assert [(c.level, c.colour, c.side) for c in PRINTED_CARTS] == [
        (1, "Y", "dark"),
        (2, "B", "light"),
        (3, "G", "light"),
        (4, "K", "dark"),
    ]


def test_44_order_cards_11_per_transport_64_vp_22_icons() -> None:
    assert len(ORDERS) == 44 and [o.id for o in ORDERS] == list(range(44))
    for tr in TRANSPORTS:
        cards = [o for o in ORDERS if o.transport == tr]
        assert len(cards) == 11
        assert sum(o.vp for o in cards) == 64
        assert sum(len(o.spots) for o in cards) == 22
        assert [o.code for o in cards] == [f"{tr}{i:02d}" for i in range(1, 12)]
    icons = Counter(c for o in ORDERS for c in o.spots)
    assert icons == dict.fromkeys(COLOURS, 22)

    def content(tr: str) -> list[tuple[tuple[str, ...], int]]:
        return sorted((o.spots, o.vp) for o in ORDERS if o.transport == tr)

    assert content("W") == content("L")
    assert content("T") == content("C")
    assert [o.code for o in ORDERS[:11]] == [f"W{i:02d}" for i in range(1, 12)]
    assert ORDERS[11].code == "T01" and ORDERS[22].code == "C01" and ORDERS[33].code == "L01"


def test_worker_spaces_per_player_count() -> None:
    assert len(SPACES) == 27
    assert [len(open_spaces(n)) for n in (2, 3, 4)] == [20, 24, 27]
    assert [27 - len(open_spaces(n)) for n in (2, 3, 4)] == [7, 3, 0]
    assert LOCK_TILES == 7 and sum(1 for s in SPACES if s.lock) == 7
    assert sum(1 for s in SPACES if s.lock == "2") == 4

    def values(n: int, group: str) -> list[int]:
        return [s.value for s in open_spaces(n) if s.group == group]

    assert values(2, "mining") == [6, 10]
    assert values(3, "mining") == [6, 8, 10]
    assert values(4, "mining") == [4, 6, 8, 10]
    assert values(2, "money") == [4, 6]
    assert values(3, "money") == [4, 5, 6]
    assert values(4, "money") == [3, 4, 5, 6]
    for n, tiles, orders in ((2, 6, 3), (3, 7, 4), (4, 8, 4)):
        spaces = [s.id for s in open_spaces(n)]
        assert sum(1 for s in spaces if s.startswith("FACT-") and s != "FACT-DRAW") == tiles
        assert sum(1 for s in spaces if s.startswith("ORDER-") and s != "ORDER-DRAW") == orders
        assert "BANK" in spaces and "FACT-DRAW" in spaces and "ORDER-DRAW" in spaces


def test_shift_scoring_table() -> None:
    assert [(c.first, c.second) for c in SCORING] == [
        (2, 1),
        (3, 1),
        (4, 2),
        (5, 2),
        (6, 3),
        (7, 3),
        (8, 4),
        (9, 4),
        (10, 5),
        (11, 5),
        (12, 6),
        (13, 6),
    ]
    maxima = [sum(c.first for c in categories_for_shift(k)) for k in (1, 2, 3)]
    assert maxima == [14, 44, 90]
    assert [len(categories_for_shift(k)) for k in (1, 2, 3)] == [4, 8, 12]


def test_player_count_parameters() -> None:
    assert [PARAMS[n].workers for n in (2, 3, 4)] == [18, 15, 13]
    assert [PARAMS[n].money for n in (2, 3, 4)] == [10, 9, 8]
    assert [PARAMS[n].draft_cards for n in (2, 3, 4)] == [7, 10, 13]
    assert [PARAMS[n].second_place for n in (2, 3, 4)] == [False, True, True]
