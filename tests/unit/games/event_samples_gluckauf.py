"""One realistic instance of every Glück Auf event type (for the description tests).

Random and bot games rarely emit some of them (a coal shortage, a two-for-one, a tie
settled by leftover Marks), so every type is listed here; the values follow the worked
examples of shared/rules/gluckauf-examples.md.
"""

from __future__ import annotations

from app.games.base import Event
from app.games.gluckauf import events as ev

SAMPLES: list[Event] = [
    ev.FactoryLaidOut(tiles={"FACT-1": 46, "FACT-2": 18, "FACT-3": 43}),
    ev.StartingPlayerDrawn(seat=2, drawn=True),
    ev.StartingPlayerDrawn(seat=0, drawn=False),
    ev.DraftDisplayLaidOut(cards=[1, 5, 8, 19, 27, 33, 34, 39]),
    ev.OrderDrafted(seat=2, card=14),  # T04
    ev.OrderSpacesFilled(cards={"ORDER-1": 3, "ORDER-2": 30, "ORDER-3": 7, "ORDER-4": 41}),
    ev.WorkerPlaced(seat=1, space="MONEY-6", count=2, ousted_seat=0, ousted_count=1),
    ev.WorkerPlaced(seat=3, space="BANK", count=1),
    ev.TileBought(seat=0, tile=15, cost=6, cubes=["G", None]),  # Example 4, shortage
    ev.CoalSubstituted(seat=0, tile=15, colour="Y"),
    ev.CoalSubstituted(seat=0, tile=15, colour=None),
    ev.ItemsDrawn(seat=1, kind="tile", count=5),
    ev.ItemsSeen(seat=1, kind="tile", items=[30, 21, 27, 12, 0], visible_to=frozenset({1})),
    ev.ItemKept(seat=1, kind="tile", item=12),
    ev.ItemKept(seat=0, kind="order", item=None),
    ev.ItemsReturned(seat=1, kind="tile", count=4, end="bottom"),
    ev.ItemsReturnedPrivately(
        seat=1, kind="tile", items=[0, 21, 30, 27], end="bottom", visible_to=frozenset({1})
    ),
    ev.MoneyGained(seat=2, amount=6),
    ev.OrderTaken(seat=0, space="ORDER-3", card=7),
    ev.MiningStarted(seat=2, steps=10),
    ev.CageMoved(seat=2, from_level=0, to_level=4, steps_left=9),
    ev.CubeLoaded(seat=2, level=4, colour="K", steps_left=8),
    ev.CubeUnloaded(seat=2, order=8, colour="K", steps_left=1),  # W09
    ev.CubeStored(seat=2, colour="Y", steps_left=0),
    ev.StoredCubePlaced(seat=3, order=26, colour="G", steps_left=5),  # C05
    ev.TwoForOneStarted(seat=3, order=38, colour="K"),  # L06
    ev.CubeAdded(seat=3, source="cage", colour="Y", steps_left=3),
    ev.CubeAdded(seat=3, source="storage", colour="B", steps_left=2),
    ev.MiningEnded(seat=3, steps_lost=2),
    ev.OrdersDelivered(seat=2, transport="W", cards=[1, 7], vp=10),  # Example 9
    ev.SpaceRefilled(space="FACT-3", item=45),
    ev.SpaceRefilled(space="ORDER-2", item=20),
    # Example 10: shift 1 with 3 players, a tie for 2nd in brown, nobody second in grey.
    ev.ShiftScored(
        shift=1,
        delivered={0: [1, 7, 11], 1: [30, 34], 2: [14, 5]},
        counts={
            1: {0: 1, 1: 0, 2: 3},
            2: {0: 1, 1: 1, 2: 2},
            3: {0: 2, 1: 0, 2: 0},
            4: {0: 0, 1: 2, 2: 0},
        },
        awards={1: {2: 2, 0: 1}, 2: {2: 3, 0: 1, 1: 1}, 3: {0: 4}, 4: {1: 5}},
        totals={0: 6, 1: 6, 2: 5},
    ),
    ev.StartingPlayerChosen(seat=2, factory_workers={0: 3, 1: 1, 2: 3, 3: 0}),
    ev.StartingPlayerChosen(seat=1, factory_workers={}),  # a setup's, logged before issue 35
    ev.ShiftStarted(shift=2, starting_player=2),
    # Example 15: Anna (seat 0) and Ben (seat 1) tie at 51; Ben keeps more Marks.
    ev.FinalScored(
        seat=0,
        money_vp=2,
        money_left=3,
        coal_vp=2,
        order_penalty=-2,
        imbalance_penalty=-6,
        total=51,
        vp_before=55,
        money=13,
        cubes=8,
        light_tiles=5,
        dark_tiles=2,
    ),
    ev.FinalScored(  # as stored before the step counts existed
        seat=1, money_vp=0, money_left=4, coal_vp=2, order_penalty=0, imbalance_penalty=0, total=51
    ),
    ev.GameEnded(
        scores={0: 51, 1: 51},
        ranking=[1, 0],
        tiebreak="tie at 51 VP broken by leftover Marks (seat 1 4, seat 0 3)",
        money_left={0: 3, 1: 4},
        places={1: 1, 0: 2},
    ),
]
