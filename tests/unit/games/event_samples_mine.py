"""One realistic instance of every MINE! event type (for the description tests).

Random and bot games rarely emit some of them (Gendarmes, a roll-off, the dummy's created
coal, a reshuffle), so every type is listed here with numbers that follow the rules.
"""

from __future__ import annotations

from app.games.mine import events as ev

SAMPLES: list[ev.Event] = [
    ev.RoundStarted(round=1, die_holder=0),
    ev.RoundStarted(round=3, die_holder=2, die_card="D4", mine_max=3, sale_max=4),
    ev.CardPlaced(director=0, location="shelter", victim=1, stack_opened=True, placed_count=1),
    ev.CardPlaced(director=2, location="watchtower", placed_count=1, dummy=True),
    ev.OwnCardPlaced(director=0, card=3, location="mine", visible_to=frozenset({0})),
    ev.PlacementPassed(director=1, reason="chose"),
    ev.PlacementPassed(director=2, reason="dummy_plan_done"),
    ev.CardsRevealed(
        location="shelter",
        cards=(
            ev.RevealedCard(director=0, card=1, victim=1),
            ev.RevealedCard(director=0, card=55, victim=1),
        ),
    ),
    ev.CardsRevealed(location="events", cards=()),
    ev.FiredampCounted(firedamp=2),
    # Example 1a: M + BR (ATK 5) against PB + M (DEF 3), B's stock 4.
    ev.RaidSettled(
        raider=0,
        victim=1,
        attack=5,
        defence=3,
        outcome="succeeded",
        claim=2,
        taken=2,
        cards=(1, 55),
        guards=(29, 5),
        stock=4,
        available=4,
    ),
    # Example 2a: two tied raiders share 3 coal, 1 each.
    ev.RaidSettled(
        raider=1,
        victim=0,
        attack=4,
        defence=1,
        outcome="succeeded",
        claim=3,
        taken=1,
        cards=(5, 6),
        guards=(1,),
        stock=3,
        available=3,
        tied_with=(2,),
    ),
    ev.RaidSettled(
        raider=2,
        victim=1,
        attack=2,
        defence=2,
        outcome="failed",
        claim=0,
        taken=0,
        cards=(9,),
        guards=(29,),
        stock=4,
    ),
    # Example 14: Gendarmes cancels the raid.
    ev.RaidSettled(
        raider=1,
        victim=0,
        attack=4,
        defence=0,
        outcome="cancelled",
        claim=0,
        taken=0,
        cards=(5, 6),
        stock=5,
    ),
    ev.StocksLooted(before=(3, 4, 0), after=(1, 2, 4)),
    # Example 5: B owns Big Order, C owns Cage Breakdown.
    ev.CoalSold(
        director=1,
        limit=4,
        sold=4,
        stock=2,
        score=6,
        base_limit=3,
        big_order=True,
        cage_breakdown=True,
    ),
    ev.CoalExtracted(
        director=1,
        base=3,
        blasted=False,
        extraction=2,
        taken=2,
        supply=6,
        pit_builders=1,
        rich_seam=True,
        strike=True,
    ),
    ev.CoalExtracted(
        director=0,
        base=5,
        blasted=True,
        extraction=0,
        taken=0,
        supply=6,
        pit_builders=1,
        firedamp=2,
        protected=1,
    ),
    # Example 3: Safety Lamp lets D's one pit builder protect against both firedamp cards.
    ev.CoalExtracted(
        director=3,
        base=5,
        blasted=False,
        extraction=5,
        taken=5,
        supply=1,
        pit_builders=1,
        firedamp=2,
        safety_lamp=True,
        protected=2,
    ),
    ev.CoalExtracted(director=2, base=3, blasted=False, extraction=3, taken=3, created=3, supply=0),
    ev.DrawPileReshuffled(cards=54),
    ev.CardsDrawn(director=0, wanted=8, count=8),
    ev.CardsReceived(director=0, cards=(20, 61, 62), visible_to=frozenset({0})),
    ev.DummyEventReplaced(director=2, card=68),
    ev.CardDiscarded(director=0, card=9),
    ev.CardDiscarded(director=2, card=52, automatic=True),
    ev.RoundCleanedUp(round=2, discarded=(1, 5, 29), next_die_holder=2),
    ev.RoundCleanedUp(round=6, discarded=()),
    # Example 12: B first by hand, A over C by dice (4-4, then 5-2).
    ev.GameEnded(
        reason="round_6",
        ranking=(1, 0, 2, 3),
        scores=(17, 17, 17, 15),
        round=6,
        stocks=(2, 2, 2, 4),
        professions=(3, 4, 3, None),
        rolls=(
            (ev.DieRoll(director=2, value=4), ev.DieRoll(director=0, value=4)),
            (ev.DieRoll(director=2, value=2), ev.DieRoll(director=0, value=5)),
        ),
        tiebreak=(
            "seat 1 over seat 0 by profession cards in hand (4-3); "
            "seat 0 over seat 2 by dice (4-4, then 5-2)"
        ),
    ),
    ev.GameEnded(
        reason="score_21",
        ranking=(2, 0, 1),
        scores=(15, 12, 21),
        round=4,
        dummy=2,
        stocks=(1, 0, 3),
        professions=(None, None, None),
    ),
]
