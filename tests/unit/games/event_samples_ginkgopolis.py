"""One realistic instance of every Ginkgopolis event type (for the description tests).

Bot games rarely emit some of them (Hal unable to pay, a second exhaustion, a draft),
so every type is listed here, with numbers that follow the rules (3 players unless said).
"""

from __future__ import annotations

from app.games.ginkgopolis import events as ev

SAMPLES: list[ev.GinkgopolisEvent] = [
    ev.GameSetUp(
        n_players=3,
        first_player=1,
        characters={0: ["C01", "C02", "C03"], 1: ["C07", "C08", "C09"], 2: ["C16", "C17", "C18"]},
        supply_count=39,
        deck_count=2,
    ),
    ev.DraftStarted(n_players=3, first_player=2, pile_size=4),
    ev.DraftPileReceived(
        player=1, characters=["C03", "C08", "C14", "C20"], draft_round=1, visible_to=frozenset({1})
    ),
    ev.DraftPileReceived(
        player=0, characters=["C05", "C21"], draft_round=3, visible_to=frozenset({0})
    ),
    ev.DraftPicked(player=0, character="C14", visible_to=frozenset({0})),
    ev.ChoiceCommitted(player=2, step="draft"),
    ev.ChoiceCommitted(player=1, step="new_hand"),
    ev.ChoiceCommitted(player=0, step="select", tile_attached=True),
    ev.ChoiceCommitted(player=1, step="contribute"),
    ev.DraftCompleted(characters={0: ["C02", "C14", "C25"], 1: ["C04", "C11", "C18"]}),
    ev.NewHandChosen(player=1, use=True, visible_to=frozenset({1})),
    ev.NewHandChosen(player=2, use=False, visible_to=frozenset({2})),
    ev.NewHandUsed(player=1, tokens_left=1),
    ev.CardsDrawn(player=1, count=4),
    ev.CardsReceived(player=1, cards=["U-C", "U-H", "R2", "B12"], visible_to=frozenset({1})),
    ev.RoundStarted(round=4, first_player=2),
    ev.HandsPassed(first_player=0),
    ev.SelectionMade(player=0, card="Y7", tile="Y5", visible_to=frozenset({0})),
    ev.SelectionMade(player=0, card="U-A", tile=None, visible_to=frozenset({0})),
    ev.ActionRevealed(player=0, card="Y7", tile="Y5", action="build_up"),
    ev.ActionRevealed(player=2, card="U-D", tile="B14", action="urbanize"),
    ev.ActionRevealed(player=1, card="R3", tile=None, action="exploit"),
    ev.ActionRevealed(player=1, card="U-K", tile="R18", action="urbanize", hal=True),
    ev.ItemsGained(player=0, resources=1, sp=1, tiles=1, reason="start"),
    ev.ItemsGained(player=1, resources=2, reason="R3", building="R3", cell=(1, 0)),
    ev.ItemsGained(player=2, sp=2, reason="neighbour", building="Y12", cell=(2, 1)),
    ev.ItemsGained(player=2, tiles=1, reason="bonus C09"),
    ev.ItemsGained(player=0, sp=3, reason="refill"),
    ev.ItemsGained(player=1, reason="U-B"),
    ev.ItemsGained(player=1, sp=3, reason="neighbour", hal=True),
    ev.TilesReceived(player=2, tiles=["B16"], visible_to=frozenset({2})),
    ev.BuildingUrbanized(
        player=2,
        cell=(2, 1),
        tile="B14",
        letter="D",
        neighbours=[
            ev.NeighbourBuilding(cell=(2, 2), top="Y12", height=1),
            ev.NeighbourBuilding(cell=(1, 1), top="R2", height=2),
        ],
    ),
    ev.BuildingUrbanized(
        player=1,
        cell=(-2, 0),
        tile="R18",
        letter="K",
        hal=True,
        neighbours=[ev.NeighbourBuilding(cell=(-1, 0), top="Y9", height=3)],
    ),
    ev.TokenMoved(letter="D", cell=(3, 1)),
    # Y5 on Y7 (height 2 → 3): number cost 7 − 5 = 2 SP, same colour.
    ev.BuiltUp(player=0, cell=(0, 1), tile="Y5", card="Y7", height=3, sp_cost=2, colour_cost=0),
    # B9 on R4: higher number, other colour: 1 resource back to the supply.
    ev.BuiltUp(player=2, cell=(-1, -1), tile="B9", card="R4", height=2, sp_cost=0, colour_cost=1),
    ev.BuiltUp(
        player=1, cell=(1, -1), tile="R6", card="B13", height=2, sp_cost=0, colour_cost=0, hal=True
    ),
    ev.ResourcesReturned(player=1, count=2, sp=2),
    ev.ResourcesReturned(player=0, count=1, sp=0),
    ev.DeckRebuilt(pending_cards=["R11", "Y5", "B14"], deck_count=17, set_aside=7),
    ev.TileSupplyExhausted(first=True),
    ev.TileSupplyExhausted(first=False),
    ev.ContributionMade(player=0, tile="R8", visible_to=frozenset({0})),
    ev.ContributionsRevealed(tiles={0: ["R8", "B17"], 2: ["Y4"]}, supply_count=3),
    ev.EndTriggered(reason="second_exhaustion"),
    ev.EndTriggered(reason="all_resources", player=2),
    ev.EndTriggered(reason="solo_exhaustion"),
    ev.EndTriggered(reason="hal_cannot_pay"),
    ev.HalCardDrawn(player=1),
    ev.HalSkipped(card="R15", reason="cannot_pay"),
    ev.HalSkipped(card="U-F", reason="no_tile"),
    # 41 SP in play; red district of 3 (5 of 7 resources, majority: 7), blue district of
    # 2 alone (2 resources: 2 × 2 = 4); R10 counts 3 red buildings, Y20 flat 9; 1 token.
    ev.PlayerScored(
        player=0,
        sp=41,
        districts=11,
        cards=12,
        tokens=2,
        total=66,
        district_lines=[
            ev.DistrictScore(colour="R", buildings=3, resources=5, total=7, place=1, points=7),
            ev.DistrictScore(
                colour="B", buildings=2, resources=2, total=2, place=1, alone=True, points=4
            ),
        ],
        card_lines=[
            ev.CardScore(card="R10", count=3, per=1, points=3),
            ev.CardScore(card="Y20", count=1, per=9, points=9),
        ],
        new_hand_tokens=1,
    ),
    # Second place in one district, nothing in another.
    ev.PlayerScored(
        player=1,
        sp=30,
        districts=2,
        cards=0,
        tokens=0,
        total=32,
        district_lines=[
            ev.DistrictScore(colour="R", buildings=3, resources=2, total=7, place=2, points=2),
            ev.DistrictScore(colour="Y", buildings=4, resources=1, total=6, place=3, points=0),
        ],
    ),
    # An event stored before the scoring steps existed: only the sums.
    ev.PlayerScored(player=1, sp=22, districts=6, cards=4, tokens=0, total=32, hal=True),
    ev.GameEnded(winners=[0]),
    ev.GameEnded(winners=[0, 2]),
    ev.GameEnded(winners=[], hal_won=True),
]
