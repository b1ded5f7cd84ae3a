"""Every worked example of shared/rules/gluckauf-examples.md as its own test.

Each test starts from a named scenario built by the helpers below (a table after
the draft, then the few fields the example fixes), not from a long move list.
Seats: Anna 0, Ben 1, Cleo 2, Dan 3; Anna starts unless stated otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import Event, IllegalAction
from app.games.gluckauf import ENGINE
from app.games.gluckauf import events as ev
from app.games.gluckauf.actions import (
    AddCube,
    ChooseCoal,
    ChooseEnd,
    DraftOrder,
    KeepItem,
    LoadCube,
    MoveCage,
    PlaceStoredCube,
    PlaceWorker,
    ReturnItem,
    StartTwoForOne,
    StopMining,
    UnloadCube,
)
from app.games.gluckauf.data import ORDER_BY_CODE, ORDERS, TILES, Colour
from app.games.gluckauf.rules import (
    GluckaufOptions,
    GluckaufState,
    Occupant,
    Outstanding,
    OwnedTile,
    award,
    final_scoring,
    new_starting_player,
    score_shift,
    shift_counts,
)
from app.games.gluckauf.view import view

ANNA, BEN, CLEO, DAN = 0, 1, 2, 3


# --------------------------------------------------------------------------- scenario builders


def table(n: int = 4, start: int = ANNA, seed: int = 1) -> GluckaufState:
    """A table right after the draft, every outstanding order removed (a blank slate)."""
    s = ENGINE.setup(n, seed, GluckaufOptions(starting_player=start))
    while s.phase == "draft":
        s, _ = ENGINE.apply(s, s.active, ENGINE.legal_actions(s, s.active)[0])
    for p in s.players:
        p.orders = []
    return s


def order(code: str) -> int:
    return ORDER_BY_CODE[code].id


def tile(type_id: str, copy: int = 0) -> int:
    return [t.id for t in TILES if t.type_id == type_id][copy]


def give_order(s: GluckaufState, seat: int, code: str, filled: str = "") -> None:
    """Give ``seat`` order ``code``; ``filled`` lists the colours already on its first spots."""
    card = ORDERS[order(code)]
    spots: list[list[Colour]] = [[c] if i < len(filled) else [] for i, c in enumerate(card.spots)]
    s.players[seat].orders.append(Outstanding(card=card.id, spots=spots))


def give_tile(
    s: GluckaufState, seat: int, type_id: str, carts: list[Colour | None] | None = None
) -> None:
    t = TILES[tile(type_id)]
    s.players[seat].tiles.append(
        OwnedTile(tile=t.id, carts=list(carts) if carts is not None else [t.colour] * t.carts)
    )


def stack_top(s: GluckaufState, type_ids: list[str]) -> None:
    """Put the named tiles (one copy each, not on the board) on top of the stack, in order."""
    chosen: list[int] = []
    for type_id in type_ids:
        for t in TILES:
            if t.type_id == type_id and t.id not in chosen and t.id not in s.factory.values():
                chosen.append(t.id)
                break
    s.stack = chosen + [t for t in s.stack if t not in chosen]


def act(s: GluckaufState, seat: int, action: Any) -> tuple[GluckaufState, list[Event]]:
    new, events = ENGINE.apply(s, seat, action)
    assert isinstance(new, GluckaufState)
    return new, events


def acts(s: GluckaufState, seat: int, actions: list[Any]) -> GluckaufState:
    for a in actions:
        s, _ = act(s, seat, a)
    return s


def turn_to(s: GluckaufState, seat: int) -> GluckaufState:
    s.active = seat
    return s


# --------------------------------------------------------------------------- Example 1


def _draft_pickers(n: int, start: int) -> tuple[list[int], GluckaufState]:
    s = ENGINE.setup(n, 5, GluckaufOptions(starting_player=start))
    assert len(s.display) == 3 * n + 1
    pickers = []
    while s.phase == "draft":
        pickers.append(s.active)
        s, _ = act(s, s.active, ENGINE.legal_actions(s, s.active)[0])
    return pickers, s


def test_draft_goes_counter_clockwise_and_fills_order_spaces_3p() -> None:
    s0 = ENGINE.setup(3, 5, GluckaufOptions(starting_player=ANNA))
    deck_top = s0.deck[:3]
    pickers, s = _draft_pickers(3, ANNA)
    assert pickers == [CLEO, BEN, ANNA] * 3
    assert all(len(p.orders) == 3 for p in s.players)
    assert list(s.order_spaces) == ["ORDER-1", "ORDER-2", "ORDER-3", "ORDER-4"]
    assert [s.order_spaces[k] for k in ("ORDER-2", "ORDER-3", "ORDER-4")] == deck_top
    leftover = set(s0.display) - {o.card for p in s.players for o in p.orders}
    assert {s.order_spaces["ORDER-1"]} == leftover
    assert len(s.deck) == 31
    assert s.phase == "place" and s.active == ANNA


def test_draft_two_players_leftover_goes_to_order_2() -> None:
    pickers, s = _draft_pickers(2, ANNA)
    assert pickers == [BEN, ANNA] * 3
    assert list(s.order_spaces) == ["ORDER-2", "ORDER-3", "ORDER-4"]
    assert len(s.deck) == 35


def test_draft_four_players_numbers() -> None:
    s0 = ENGINE.setup(4, 5, GluckaufOptions(starting_player=ANNA))
    assert len(s0.display) == 13 and len(s0.stack) == 40 and len(s0.factory) == 8
    pickers, s = _draft_pickers(4, ANNA)
    assert pickers == [DAN, CLEO, BEN, ANNA] * 3
    assert len(s.deck) == 28


def test_draft_legal_cards_in_ascending_id() -> None:
    s = ENGINE.setup(3, 5, GluckaufOptions(starting_player=ANNA))
    assert ENGINE.legal_actions(s, CLEO) == [DraftOrder(card=c) for c in sorted(s.display)]
    assert ENGINE.legal_actions(s, ANNA) == []


# --------------------------------------------------------------------------- Example 2


def test_ousting_needs_one_more_worker_than_occupants() -> None:
    s = table(4)
    s, _ = act(s, ANNA, PlaceWorker(space="MONEY-6"))
    assert (s.players[ANNA].supply, s.players[ANNA].money) == (12, 14)
    s, events = act(s, BEN, PlaceWorker(space="MONEY-6"))
    assert (s.players[BEN].supply, s.players[BEN].money) == (11, 14)
    assert s.players[ANNA].canteen == 1
    placed = next(e for e in events if isinstance(e, ev.WorkerPlaced))
    assert (placed.count, placed.ousted_seat, placed.ousted_count) == (2, ANNA, 1)
    s, _ = act(s, CLEO, PlaceWorker(space="MONEY-6"))
    assert (s.players[CLEO].supply, s.players[CLEO].money, s.players[BEN].canteen) == (10, 14, 2)
    s, _ = act(s, DAN, PlaceWorker(space="MONEY-5"))
    assert (s.players[DAN].supply, s.players[DAN].money) == (12, 13)
    s, _ = act(s, ANNA, PlaceWorker(space="MONEY-4"))
    assert (s.players[ANNA].supply, s.players[ANNA].money) == (11, 18)
    s, _ = act(s, BEN, PlaceWorker(space="BANK"))
    assert (s.players[BEN].supply, s.players[BEN].money) == (10, 15)
    s, _ = act(s, CLEO, PlaceWorker(space="MONEY-6"))
    assert (s.players[CLEO].supply, s.players[CLEO].money) == (6, 20)
    assert [(p.supply, p.canteen) for p in s.players] == [(11, 1), (10, 2), (6, 3), (12, 0)]
    assert s.occupants["MONEY-6"] == Occupant(seat=CLEO, count=4)


def test_ousting_is_illegal_without_enough_workers() -> None:
    s = table(4)
    s.occupants["MONEY-6"] = Occupant(seat=CLEO, count=3)
    s.players[CLEO].supply -= 3
    s = turn_to(s, DAN)
    s.players[DAN].supply = 3
    legal = ENGINE.legal_actions(s, DAN)
    assert PlaceWorker(space="MONEY-6") not in legal
    assert PlaceWorker(space="MONEY-5") in legal
    with pytest.raises(IllegalAction, match=r"MONEY-6 needs 4 workers and you have 3"):
        act(s, DAN, PlaceWorker(space="MONEY-6"))


# --------------------------------------------------------------------------- Example 3


def test_bank_always_takes_exactly_one_worker() -> None:
    s = turn_to(table(4), BEN)
    s.bank = [2, 0, 3, 0]
    s.players[ANNA].supply -= 2
    s.players[CLEO].supply -= 3
    s.players[BEN].supply = 1
    money = s.players[BEN].money
    s, _ = act(s, BEN, PlaceWorker(space="BANK"))
    assert s.bank == [2, 1, 3, 0] and sum(s.bank) == 6
    assert s.players[BEN].money == money + 1 and s.players[BEN].supply == 0
    assert all(p.canteen == 0 for p in s.players)
    s2 = turn_to(table(4), BEN)
    s2.bank = [2, 0, 3, 0]
    s2, _ = act(s2, BEN, PlaceWorker(space="BANK"))
    assert s2.players[BEN].supply == 12


# --------------------------------------------------------------------------- Example 4


def _factory_scenario(grey_supply: int = 12) -> GluckaufState:
    s = table(4)
    s.factory["FACT-3"] = tile("G2D")
    s.factory["FACT-5"] = tile("K2L")
    s.players[ANNA].money = 7
    s.coal["G"] = grey_supply
    return s


def test_buying_a_tunnel_tile_with_money_check() -> None:
    s = _factory_scenario()
    legal = ENGINE.legal_actions(s, ANNA)
    assert PlaceWorker(space="FACT-5") not in legal
    with pytest.raises(IllegalAction, match=r"costs 8 Marks and you have 7"):
        act(s, ANNA, PlaceWorker(space="FACT-5"))
    top = s.stack[0]
    s, _ = act(s, ANNA, PlaceWorker(space="FACT-3"))
    a = s.players[ANNA]
    assert a.money == 1
    assert a.tiles == [OwnedTile(tile=tile("G2D"), carts=["G", "G"])]
    assert TILES[a.tiles[0].tile].level == 3 and TILES[a.tiles[0].tile].side == "dark"
    assert s.coal["G"] == 10
    assert s.factory["FACT-3"] == top
    assert s.occupants["FACT-3"] == Occupant(seat=ANNA, count=1)
    assert view(s, BEN).spaces[2].workers_needed == 2


def test_supply_shortage_asks_for_a_substitute_colour() -> None:
    s = _factory_scenario(grey_supply=1)
    s, _ = act(s, ANNA, PlaceWorker(space="FACT-3"))
    assert s.phase == "choose_coal" and s.active == ANNA
    assert ENGINE.legal_actions(s, ANNA) == [ChooseCoal(colour=c) for c in ("Y", "B", "K")]
    y = s.coal["Y"]
    s, _ = act(s, ANNA, ChooseCoal(colour="Y"))
    assert s.players[ANNA].tiles[0].carts == ["G", "Y"]
    assert s.players[ANNA].money == 1 and s.coal["Y"] == y - 1 and s.coal["G"] == 0
    assert s.phase == "place" and s.active == BEN
    # Later that yellow cube is loaded at level 3 and counts as yellow in the cage.
    s = turn_to(s, ANNA)
    s.players[ANNA].printed[2] = None
    s.players[ANNA].cage_level = 3
    s.players[ANNA].tiles[0].carts = [None, "Y"]
    s.phase, s.mining = "mining", None
    from app.games.gluckauf.rules import MiningState

    s.mining = MiningState(space="MINE-6", budget=6)
    assert LoadCube(colour="Y") in ENGINE.legal_actions(s, ANNA)
    s, _ = act(s, ANNA, LoadCube(colour="Y"))
    assert s.players[ANNA].cage == ["Y"]


def test_supply_shortage_with_one_colour_left_is_automatic() -> None:
    s = _factory_scenario(grey_supply=1)
    s.coal.update({"Y": 0, "B": 3, "K": 0})
    s, events = act(s, ANNA, PlaceWorker(space="FACT-3"))
    assert s.players[ANNA].tiles[0].carts == ["G", "B"]
    assert s.coal == {"Y": 0, "B": 2, "G": 0, "K": 0}
    assert any(isinstance(e, ev.CoalSubstituted) and e.colour == "B" for e in events)
    assert s.phase == "place" and s.active == BEN


def test_supply_out_altogether_leaves_the_cart_empty_at_full_price() -> None:
    """§7.1 step 4: only when the whole supply is out does a bought cart stay empty."""
    s = _factory_scenario(grey_supply=1)
    s.coal.update({"Y": 0, "B": 0, "K": 0})
    s, _ = act(s, ANNA, PlaceWorker(space="FACT-3"))
    assert s.players[ANNA].tiles[0].carts == ["G", None]
    assert s.players[ANNA].money == 1  # the full price of 6, one cart empty or not
    assert s.coal == {"Y": 0, "B": 0, "G": 0, "K": 0}
    assert s.phase == "place" and s.active == BEN


# --------------------------------------------------------------------------- Example 5


def _draw_tiles_scenario() -> GluckaufState:
    s = turn_to(table(4), BEN)
    stack_top(s, ["B1L", "K2D", "Y2L", "G1D", "Y1D", "B2D"])
    s.players[BEN].money = 4
    return s


def test_draw_five_tiles_keep_one_return_to_bottom() -> None:
    s = _draw_tiles_scenario()
    b1l, k2d, y2l, g1d, y1d, b2d = s.stack[:6]
    rest = s.stack[6:]
    s, events = act(s, BEN, PlaceWorker(space="FACT-DRAW"))
    assert s.phase == "keep"
    seen = next(e for e in events if isinstance(e, ev.ItemsSeen))
    assert seen.items == [b1l, k2d, y2l, g1d, y1d] and seen.visible_to == frozenset({BEN})
    assert ENGINE.legal_actions(s, BEN) == [
        *(KeepItem(item=i) for i in sorted([b1l, y2l, g1d, y1d])),
        KeepItem(item=None),
    ]
    # Opponents see the count only.
    assert view(s, ANNA).draw is not None and view(s, ANNA).draw.drawn is None  # type: ignore[union-attr]
    assert view(s, ANNA).draw.count == 5  # type: ignore[union-attr]
    s, _ = act(s, BEN, KeepItem(item=g1d))
    assert s.players[BEN].money == 1
    assert s.players[BEN].tiles[-1] == OwnedTile(tile=g1d, carts=["G"])
    assert ENGINE.legal_actions(s, BEN) == [ChooseEnd(end="top"), ChooseEnd(end="bottom")]
    s, _ = act(s, BEN, ChooseEnd(end="bottom"))
    s, _ = act(s, BEN, ReturnItem(item=y1d))
    s, _ = act(s, BEN, ReturnItem(item=k2d))
    assert ENGINE.legal_actions(s, BEN) == [ReturnItem(item=i) for i in sorted([b1l, y2l])]
    s, events = act(s, BEN, ReturnItem(item=b1l))
    # No factory space was emptied, so the stack is exactly old rest + R.
    assert s.stack == [b2d, *rest, y1d, k2d, b1l, y2l]
    public = next(e for e in events if isinstance(e, ev.ItemsReturned))
    assert (public.count, public.end, public.visible_to) == (4, "bottom", None)
    private = next(e for e in events if isinstance(e, ev.ItemsReturnedPrivately))
    assert private.items == [y1d, k2d, b1l, y2l] and private.visible_to == frozenset({BEN})
    assert s.phase == "place" and s.active == CLEO


def test_draw_five_tiles_return_to_top() -> None:
    s = _draw_tiles_scenario()
    b1l, k2d, y2l, g1d, y1d, b2d = s.stack[:6]
    rest = s.stack[6:]
    s = acts(
        s,
        BEN,
        [
            PlaceWorker(space="FACT-DRAW"),
            KeepItem(item=g1d),
            ChooseEnd(end="top"),
            ReturnItem(item=y1d),
            ReturnItem(item=k2d),
            ReturnItem(item=b1l),
        ],
    )
    assert s.stack == [y1d, k2d, b1l, y2l, b2d, *rest]


def test_draw_five_tiles_keep_nothing() -> None:
    s = _draw_tiles_scenario()
    s, _ = act(s, BEN, PlaceWorker(space="FACT-DRAW"))
    s, _ = act(s, BEN, KeepItem(item=None))
    assert s.phase == "choose_end" and s.players[BEN].money == 4 and s.players[BEN].supply == 12


# --------------------------------------------------------------------------- Example 6


def test_four_step_mining_action() -> None:
    s = turn_to(table(4), BEN)
    give_order(s, BEN, "W02")
    s, _ = act(s, BEN, PlaceWorker(space="MINE-4"))
    assert s.mining is not None and s.mining.budget == 4
    assert ENGINE.legal_actions(s, BEN)[-1] == StopMining()
    s, events = act(s, BEN, MoveCage(level=2))
    assert s.mining.budget == 3 and s.players[BEN].cage_level == 2  # type: ignore[union-attr]
    s, _ = act(s, BEN, LoadCube(colour="B"))
    assert s.players[BEN].cage == ["B"] and s.players[BEN].printed[1] is None
    s, _ = act(s, BEN, MoveCage(level=0))
    s, events = act(s, BEN, UnloadCube(order=order("W02"), colour="B"))
    assert s.players[BEN].orders[0].spots == [["B"]]
    assert s.players[BEN].delivered == [] and s.players[BEN].vp == 0
    assert s.mining is None and s.phase == "place" and s.active == CLEO
    assert any(isinstance(e, ev.MiningEnded) and e.steps_lost == 0 for e in events)


# --------------------------------------------------------------------------- Example 7


def _example7() -> GluckaufState:
    s = turn_to(table(4), CLEO)
    give_tile(s, CLEO, "Y2L")
    give_tile(s, CLEO, "K1D")
    s.players[CLEO].storage = ["G"]
    for code in ("T04", "W09", "C05"):
        give_order(s, CLEO, code)
    return s


def test_ten_step_mining_with_a_full_cage() -> None:
    s = _example7()
    s, _ = act(s, CLEO, PlaceWorker(space="MINE-10"))
    s = acts(s, CLEO, [MoveCage(level=4), LoadCube(colour="K")])
    assert s.players[CLEO].printed[3] is None and s.players[CLEO].tiles[1].carts == ["K"]
    s = acts(s, CLEO, [LoadCube(colour="K"), MoveCage(level=1)])
    s = acts(s, CLEO, [LoadCube(colour="Y")] * 3)
    c = s.players[CLEO]
    assert c.cage == ["Y", "Y", "Y", "K", "K"] and s.mining.budget == 3  # type: ignore[union-attr]
    # Illegal here: a sixth load, unloading at level 1, a move "1 -> 1".
    legal = ENGINE.legal_actions(s, CLEO)
    assert not any(isinstance(a, LoadCube) for a in legal)
    with pytest.raises(IllegalAction, match="already holds 5 cubes"):
        act(s, CLEO, LoadCube(colour="Y"))
    with pytest.raises(IllegalAction, match="only at the surface"):
        act(s, CLEO, UnloadCube(order=order("W09"), colour="K"))
    with pytest.raises(IllegalAction, match="already at level 1"):
        act(s, CLEO, MoveCage(level=1))
    s = acts(
        s,
        CLEO,
        [MoveCage(level=0), UnloadCube(order=order("W09"), colour="K")],
    )
    s, _ = act(s, CLEO, UnloadCube(order=order("W09"), colour="K"))
    c = s.players[CLEO]
    assert s.phase == "place" and s.active == DAN  # budget 0 ends the action
    assert c.cage == ["Y", "Y", "Y"] and c.storage == ["G"]
    w09 = next(o for o in c.orders if o.card == order("W09"))
    assert w09.spots == [["K"], ["K"]]
    assert c.printed[0] is None and c.printed[3] is None
    assert c.tiles[0].carts == [None, None] and c.tiles[1].carts == [None]


def test_loading_a_level_4_cube_at_level_1_is_illegal() -> None:
    s = _example7()
    s, _ = act(s, CLEO, PlaceWorker(space="MINE-10"))
    s, _ = act(s, CLEO, MoveCage(level=1))
    with pytest.raises(IllegalAction, match="no minecart on level 1 holds a K cube"):
        act(s, CLEO, LoadCube(colour="K"))


# --------------------------------------------------------------------------- Example 8


def test_storage_two_for_one_and_lost_steps() -> None:
    s = turn_to(table(4), DAN)
    d = s.players[DAN]
    d.cage_level, d.cage, d.storage = 2, ["Y", "B"], ["G"]
    give_order(s, DAN, "C05")
    give_order(s, DAN, "L06")
    s, _ = act(s, DAN, PlaceWorker(space="MINE-6"))
    # Before moving, the cage cubes cannot go onto orders.
    legal = ENGINE.legal_actions(s, DAN)
    assert not any(isinstance(a, UnloadCube) for a in legal)
    assert PlaceStoredCube(order=order("C05"), colour="G") in legal
    s, _ = act(s, DAN, PlaceStoredCube(order=order("C05"), colour="G"))
    assert s.mining.budget == 5  # type: ignore[union-attr]
    s, _ = act(s, DAN, MoveCage(level=0))
    # A lone Y or B can never fill the K spot.
    assert UnloadCube(order=order("L06"), colour="K") not in ENGINE.legal_actions(s, DAN)
    s, _ = act(s, DAN, StartTwoForOne(order=order("L06"), colour="K"))
    assert s.mining.budget == 4  # type: ignore[union-attr]
    assert ENGINE.legal_actions(s, DAN) == [
        AddCube(source="cage", colour="Y"),
        AddCube(source="cage", colour="B"),
    ]
    s, _ = act(s, DAN, AddCube(source="cage", colour="Y"))
    assert ENGINE.legal_actions(s, DAN) == [AddCube(source="cage", colour="B")]
    with pytest.raises(IllegalAction, match="add_cube"):
        act(s, DAN, StopMining())
    s, _ = act(s, DAN, AddCube(source="cage", colour="B"))
    assert s.mining.budget == 2  # type: ignore[union-attr]
    l06 = next(o for o in s.players[DAN].orders if o.card == order("L06"))
    assert l06.spots == [["Y", "B"]]
    s, events = act(s, DAN, StopMining())
    assert any(isinstance(e, ev.MiningEnded) and e.steps_lost == 2 for e in events)
    assert s.phase == "place" and s.active == ANNA
    # Both cubes count for the final "3 cubes = 1 VP" conversion.
    from app.games.gluckauf.rules import cubes_owned

    assert cubes_owned(s.players[DAN]) == 4 + 1 + 2  # printed carts, C05, L06


# --------------------------------------------------------------------------- Example 9


def test_delivery_of_every_complete_order_of_one_transport() -> None:
    s = turn_to(table(4), CLEO)
    give_order(s, CLEO, "W02", "B")
    give_order(s, CLEO, "W08", "GG")
    give_order(s, CLEO, "W11", "YBG")
    give_order(s, CLEO, "L06", "K")
    s.occupants["DELIV-W"] = Occupant(seat=DAN, count=1)
    s.players[DAN].supply -= 1
    coal = dict(s.coal)
    s, events = act(s, CLEO, PlaceWorker(space="DELIV-W"))
    c = s.players[CLEO]
    assert c.vp == 10
    assert c.delivered == [order("W02"), order("W08")]
    assert [o.card for o in c.orders] == [order("W11"), order("L06")]
    assert s.coal == {**coal, "B": coal["B"] + 1, "G": coal["G"] + 2}
    assert s.players[DAN].canteen == 1 and s.players[CLEO].supply == 11
    delivered = next(e for e in events if isinstance(e, ev.OrdersDelivered))
    assert delivered.visible_to is None and delivered.vp == 10
    # Face down: opponents see only the count.
    assert view(s, ANNA).players[CLEO].delivered is None
    assert view(s, ANNA).players[CLEO].delivered_count == 2
    assert view(s, CLEO).players[CLEO].delivered is not None


def test_delivery_without_a_complete_order_is_illegal() -> None:
    s = turn_to(table(4), CLEO)
    give_order(s, CLEO, "W11", "YBG")
    assert PlaceWorker(space="DELIV-W") not in ENGINE.legal_actions(s, CLEO)
    with pytest.raises(IllegalAction, match="no complete wheelbarrow order"):
        act(s, CLEO, PlaceWorker(space="DELIV-W"))


# --------------------------------------------------------------------------- Examples 10-13


def _deliveries(s: GluckaufState, per_seat: dict[int, list[str]]) -> None:
    for seat, codes in per_seat.items():
        s.players[seat].delivered = [order(c) for c in codes]


def _example10() -> GluckaufState:
    s = table(3)
    _deliveries(s, {ANNA: ["W02", "W08", "T01"], BEN: ["C09", "L02"], CLEO: ["T04", "W06"]})
    return s


def test_shift_1_scoring_with_ties_for_second() -> None:
    s = _example10()
    events: list[Event] = []
    score_shift(s, events)
    scored = events[0]
    assert isinstance(scored, ev.ShiftScored)
    assert scored.awards == {
        1: {CLEO: 2, ANNA: 1},
        2: {CLEO: 3, ANNA: 1, BEN: 1},
        3: {ANNA: 4},
        4: {BEN: 5},
    }
    assert scored.totals == {ANNA: 6, BEN: 6, CLEO: 5}
    assert [p.vp for p in s.players] == [6, 6, 5]


def test_shift_2_scoring_adds_transport_categories() -> None:
    s = _example10()
    s.shift = 2
    _deliveries(
        s,
        {
            ANNA: ["W02", "W08", "T01", "L07"],
            BEN: ["C09", "L02", "W09"],
            CLEO: ["T04", "W06", "C06"],
        },
    )
    counts = shift_counts(s, 2)
    assert [counts[k][ANNA] for k in range(1, 9)] == [1, 4, 2, 0, 3, 0, 1, 3]
    assert [counts[k][BEN] for k in range(1, 9)] == [0, 1, 0, 4, 2, 2, 0, 1]
    assert [counts[k][CLEO] for k in range(1, 9)] == [3, 2, 0, 1, 2, 1, 3, 0]
    events: list[Event] = []
    score_shift(s, events)
    scored = events[0]
    assert isinstance(scored, ev.ShiftScored)
    assert scored.awards[5] == {ANNA: 6, BEN: 3, CLEO: 3}
    assert scored.awards[6] == {BEN: 7, CLEO: 3}
    assert scored.awards[7] == {CLEO: 8, ANNA: 4}
    assert scored.awards[8] == {ANNA: 9, BEN: 4}
    assert scored.totals == {ANNA: 27, BEN: 19, CLEO: 19}


def test_ties_for_first_and_the_two_player_rule() -> None:
    assert award({ANNA: 2, BEN: 2, CLEO: 1, DAN: 0}, 4, 2, True) == {ANNA: 4, BEN: 4}
    assert award({ANNA: 3, BEN: 1, CLEO: 1, DAN: 1}, 5, 2, True) == {
        ANNA: 5,
        BEN: 2,
        CLEO: 2,
        DAN: 2,
    }
    assert award({ANNA: 3, BEN: 2}, 3, 1, False) == {ANNA: 3}
    assert award({ANNA: 2, BEN: 2}, 3, 1, False) == {ANNA: 3, BEN: 3}
    assert award({ANNA: 2, BEN: 0}, 3, 1, False) == {ANNA: 3}
    assert award({ANNA: 0, BEN: 0}, 3, 1, True) == {}


def test_two_player_shift_scoring_never_awards_second() -> None:
    s = table(2)
    _deliveries(s, {ANNA: ["W07"], BEN: ["W06"]})  # brown 3 vs 2
    events: list[Event] = []
    score_shift(s, events)
    assert [p.vp for p in s.players] == [3, 0]


def _pit_with_empty_carts(s: GluckaufState, seat: int, empty: dict[Colour, int]) -> None:
    """Empty the printed cart of each named colour, then add 1-cart tiles with empty carts."""
    p = s.players[seat]
    for colour, k in empty.items():
        level = "YBGK".index(colour)
        if k == 0:
            continue
        p.printed[level] = None
        for _ in range(k - 1):
            give_tile(s, seat, f"{colour}1D", [None])


def test_shift_3_empty_minecart_categories() -> None:
    s = table(3)
    s.shift = 3
    _pit_with_empty_carts(s, ANNA, {"Y": 4, "B": 2, "G": 1, "K": 0})
    _pit_with_empty_carts(s, BEN, {"Y": 2, "B": 2, "G": 3, "K": 2})
    _pit_with_empty_carts(s, CLEO, {"Y": 4, "B": 1, "G": 0, "K": 2})
    # A cart holding a substitute cube of another colour is not empty.
    give_tile(s, CLEO, "G1D", ["Y"])
    counts = shift_counts(s, 3)
    assert [counts[k][ANNA] for k in (9, 10, 11, 12)] == [4, 2, 1, 0]
    assert [counts[k][BEN] for k in (9, 10, 11, 12)] == [2, 2, 3, 2]
    assert [counts[k][CLEO] for k in (9, 10, 11, 12)] == [4, 1, 0, 2]
    events: list[Event] = []
    score_shift(s, events)
    scored = events[0]
    assert isinstance(scored, ev.ShiftScored)
    assert scored.awards[9] == {ANNA: 10, CLEO: 10}
    assert scored.awards[10] == {ANNA: 11, BEN: 11}
    assert scored.awards[11] == {BEN: 12, ANNA: 6}
    assert scored.awards[12] == {BEN: 13, CLEO: 13}
    assert scored.totals == {ANNA: 27, BEN: 36, CLEO: 23}  # no deliveries: minecarts only


# --------------------------------------------------------------------------- Example 14


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({ANNA: 3, BEN: 1, CLEO: 3, DAN: 0}, CLEO),
        ({ANNA: 4, BEN: 2, CLEO: 2, DAN: 0}, ANNA),
        ({ANNA: 0, BEN: 2, CLEO: 0, DAN: 2}, BEN),
        ({ANNA: 0, BEN: 0, CLEO: 0, DAN: 0}, BEN),
    ],
    ids=["tie-anna-cleo", "anna-alone", "tie-ben-dan", "nobody"],
)
def test_new_starting_player(counts: dict[int, int], expected: int) -> None:
    s = table(4)
    spaces = ["FACT-1", "FACT-2", "FACT-3", "FACT-4", "FACT-5", "FACT-6", "FACT-7", "FACT-DRAW"]
    for seat, k in counts.items():
        if k:
            s.occupants[spaces.pop(0)] = Occupant(seat=seat, count=k)
    # Workers in the canteen or on other spaces are ignored.
    s.occupants["MONEY-6"] = Occupant(seat=DAN, count=9)
    s.players[DAN].canteen = 5
    assert new_starting_player(s) == expected


def test_shift_end_resets_workers_and_passes_the_marker() -> None:
    s = table(2)
    s.players[ANNA].supply = 1
    s.players[BEN].supply = 0
    s.occupants["FACT-1"] = Occupant(seat=BEN, count=2)
    s.players[BEN].canteen = 16
    s, events = act(s, ANNA, PlaceWorker(space="MONEY-4"))
    assert s.shift == 2 and s.start_player == BEN and s.active == BEN
    assert [(p.supply, p.canteen) for p in s.players] == [(18, 0), (18, 0)]
    assert s.occupants == {} and s.bank == [0, 0]
    kinds = [e.type for e in events]
    assert kinds.index("shift_scored") < kinds.index("starting_player_chosen")


# --------------------------------------------------------------------------- Example 15


def _example15() -> GluckaufState:
    s = table(2)
    s.shift = 3
    a, b = s.players
    a.vp, b.vp = 55, 49
    a.money, b.money = 13, 4
    # Anna: carts 2 + cage 3 + storage 1 + on outstanding orders 2 = 8 cubes.
    a.printed = ["Y", "B", None, None]
    a.cage, a.storage = ["Y", "B", "G"], ["K"]
    give_order(s, ANNA, "W03", "YY")  # complete, still outstanding
    give_order(s, ANNA, "W11")
    # Ben: 6 cubes, no outstanding orders.
    b.printed = ["Y", "B", "G", "K"]
    b.cage = ["Y", "Y"]
    for t in ("Y1L", "Y2L", "B1L", "G1L", "G2L"):
        give_tile(s, ANNA, t, [None] * TILES[tile(t)].carts)
    for t in ("Y1D", "B1D"):
        give_tile(s, ANNA, t, [None])
    for t in ("Y1L", "B1L", "G1L"):
        give_tile(s, BEN, t, [None])
    for t in ("Y1D", "B1D", "G1D"):
        give_tile(s, BEN, t, [None])
    return s


def test_final_scoring_with_money_tiebreak() -> None:
    s = _example15()
    events: list[Event] = []
    final_scoring(s, events)
    assert s.final is not None
    anna, ben = s.final
    assert (anna.money_vp, anna.money_left, anna.coal_vp) == (2, 3, 2)
    assert (anna.order_penalty, anna.imbalance_penalty, anna.total) == (-2, -6, 51)
    assert (ben.money_vp, ben.money_left, ben.coal_vp) == (0, 4, 2)
    assert (ben.order_penalty, ben.imbalance_penalty, ben.total) == (0, 0, 51)
    res = ENGINE.result(s)
    assert res is not None
    assert res.scores == {ANNA: 51, BEN: 51}
    assert res.ranking == [BEN, ANNA]
    assert res.places == {BEN: 1, ANNA: 2}
    assert "leftover Marks" in res.tiebreak and "seat 1 4" in res.tiebreak
    assert "seat 0 3" in res.tiebreak
    assert ENGINE.to_act(s) == frozenset()
    assert isinstance(events[-1], ev.GameEnded)


def test_final_scoring_equal_remainders_share_first_place() -> None:
    s = _example15()
    s.players[ANNA].money = 14  # 2 VP, keeps 4 like Ben
    events: list[Event] = []
    final_scoring(s, events)
    res = ENGINE.result(s)
    assert res is not None
    assert res.scores == {ANNA: 51, BEN: 51}
    assert res.ranking == [ANNA, BEN] and res.places == {ANNA: 1, BEN: 1}
    assert "share a place" in res.tiebreak


# --------------------------------------------------------------------------- Example 16


def test_exhausted_piles() -> None:
    s = turn_to(table(4), CLEO)
    y1l, b2d = tile("Y1L"), tile("B2D")
    # Keep only two tiles in the stack; the others are out of play for this scenario.
    s.stack = [y1l, b2d]
    s.players[CLEO].money = 20
    s, _ = act(s, CLEO, PlaceWorker(space="FACT-2"))
    assert s.factory["FACT-2"] == y1l and s.stack == [b2d]
    s.players[DAN].money = 6
    s, events = act(s, DAN, PlaceWorker(space="FACT-DRAW"))
    assert next(e for e in events if isinstance(e, ev.ItemsDrawn)).count == 1
    s, _ = act(s, DAN, KeepItem(item=b2d))
    assert s.players[DAN].money == 2 and s.stack == [] and s.phase == "place"
    assert PlaceWorker(space="FACT-DRAW") not in ENGINE.legal_actions(s, ANNA)
    s.players[ANNA].money = 20
    s, _ = act(s, ANNA, PlaceWorker(space="FACT-5"))
    assert s.factory["FACT-5"] is None
    for seat in (BEN, CLEO, DAN):
        s.active = seat
        s.players[seat].money = 50
        assert PlaceWorker(space="FACT-5") not in ENGINE.legal_actions(s, seat)
    with pytest.raises(IllegalAction, match="FACT-5 holds no tile"):
        act(s, DAN, PlaceWorker(space="FACT-5"))


def test_exhausted_stack_keep_nothing_asks_no_end() -> None:
    s = turn_to(table(4), DAN)
    b2d = tile("B2D")
    s.stack = [b2d]
    s.players[DAN].money = 6
    s, _ = act(s, DAN, PlaceWorker(space="FACT-DRAW"))
    s, events = act(s, DAN, KeepItem(item=None))
    assert s.phase == "place" and s.stack == [b2d] and s.active == ANNA
    returned = next(e for e in events if isinstance(e, ev.ItemsReturned))
    assert returned.count == 1 and returned.end is None
    assert PlaceWorker(space="FACT-DRAW") in ENGINE.legal_actions(s, ANNA)


def test_exhausted_order_deck() -> None:
    s = turn_to(table(4), CLEO)
    s.deck = []
    assert PlaceWorker(space="ORDER-DRAW") not in ENGINE.legal_actions(s, CLEO)
    s, _ = act(s, CLEO, PlaceWorker(space="ORDER-2"))
    assert s.order_spaces["ORDER-2"] is None
    assert PlaceWorker(space="ORDER-2") not in ENGINE.legal_actions(s, DAN)


# --------------------------------------------------------------------------- Example 17


def test_order_draw_five() -> None:
    s = table(4)
    top = [order(c) for c in ("C11", "W01", "T08", "L09", "W05")]
    s.deck = top + [c for c in s.deck if c not in top]
    rest = s.deck[5:]
    s, _ = act(s, ANNA, PlaceWorker(space="ORDER-DRAW"))
    assert ENGINE.legal_actions(s, ANNA) == [
        *(KeepItem(item=i) for i in sorted(top)),
        KeepItem(item=None),
    ]
    assert view(s, ANNA).draw.drawn is not None  # type: ignore[union-attr]
    assert view(s, BEN).draw.drawn is None  # type: ignore[union-attr]
    assert view(s, None).draw.drawn is None  # type: ignore[union-attr]
    s, events = act(s, ANNA, KeepItem(item=order("T08")))
    assert [o.card for o in s.players[ANNA].orders] == [order("T08")]
    kept = next(e for e in events if isinstance(e, ev.ItemKept))
    assert kept.item == order("T08") and kept.visible_to is None
    s = acts(
        s,
        ANNA,
        [
            ChooseEnd(end="top"),
            ReturnItem(item=order("W01")),
            ReturnItem(item=order("C11")),
            ReturnItem(item=order("L09")),
        ],
    )
    assert s.deck == [order(c) for c in ("W01", "C11", "L09", "W05")] + rest
    assert s.phase == "place" and s.active == BEN


# --------------------------------------------------------------------------- Example 18


def test_skipped_player_and_end_of_shift_two_players() -> None:
    s = table(2)
    s.players[BEN].supply = 0
    s.players[ANNA].supply = 3
    for expected_supply in (2, 1):
        s, _ = act(s, ANNA, PlaceWorker(space="BANK"))
        assert s.active == ANNA and s.shift == 1
        assert s.players[ANNA].supply == expected_supply
    # Every other space taken by Ben's workers: BANK is still there.
    for sid in ("MINE-6", "MINE-10", "MONEY-4", "MONEY-6"):
        s.occupants[sid] = Occupant(seat=BEN, count=2)
    assert PlaceWorker(space="BANK") in ENGINE.legal_actions(s, ANNA)
    s, events = act(s, ANNA, PlaceWorker(space="BANK"))
    assert any(isinstance(e, ev.ShiftScored) and e.shift == 1 for e in events)
    assert s.shift == 2
