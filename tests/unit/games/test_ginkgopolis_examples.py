"""Every worked example of ``shared/rules/ginkgopolis-examples.md`` as its own test."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.games.base import IllegalAction, Rng, parse_action
from app.games.ginkgopolis import ENGINE
from app.games.ginkgopolis import data as D
from app.games.ginkgopolis.actions import (
    Contribute,
    ContributeDone,
    KeepHand,
    MoveToken,
    NewHand,
    Select,
    Take,
)
from app.games.ginkgopolis.rules import (
    Building,
    FinalScore,
    GinkgopolisOptions,
    PlayerState,
    assemble,
    compute_scores,
    district_scores,
    end_cards_total,
    key,
    result,
    score_district,
    selection_problem,
)

from .test_ginkgopolis_scenarios import (
    ANA,
    BEN,
    CARA,
    EXAMPLE_CITY,
    deck_with,
    example_setup,
    put_building,
    resolve,
    round1_selecting,
    set_holdings,
    supply_with,
)

# --------------------------------------------------------------------------- example 1


def test_setup_bookkeeping_three_players_first_game_sets() -> None:
    s = example_setup()
    ana, ben, cara = s.players
    assert (ana.characters, ben.characters, cara.characters) == (
        ["C07", "C08", "C09"],
        ["C13", "C14", "C15"],
        ["C01", "C02", "C03"],
    )
    assert (ana.resources, ana.sp, len(ana.tiles), ana.supply) == (5, 4, 2, 15)
    assert (ben.resources, ben.sp, len(ben.tiles), ben.supply) == (4, 3, 2, 16)
    assert (cara.resources, cara.sp, len(cara.tiles), cara.supply) == (4, 2, 2, 16)
    assert len(s.removed_tiles) == 6
    assert len(s.supply) == 39
    assert (len(s.deck), len(s.discard)) == (2, 7)
    assert all(len(p.hand) == 4 and p.tokens == 2 for p in s.players)
    assert s.first_player == ANA
    assert s.phase == "new_hand"


def test_setup_from_seed_matches_counts() -> None:
    for n, supply, deck in ((2, 45, 6), (3, 45, 2), (4, 51, 5), (5, 51, 1)):
        s = ENGINE.setup(n, 7, GinkgopolisOptions())
        tiles_taken = sum(len(p.tiles) for p in s.players)
        assert len(s.supply) + tiles_taken == supply
        assert len(s.deck) == deck
        assert {len(p.hand) for p in s.players} == {4}


# --------------------------------------------------------------------------- example 2


def test_urbanize_at_a_corner_site_with_one_neighbour() -> None:
    s = round1_selecting()
    s, _ = ENGINE.apply(s, ANA, Select(card="U-A", tile="B14"))
    s, _ = ENGINE.apply(s, BEN, Select(card="R2"))
    s, _ = ENGINE.apply(s, CARA, Select(card="U-K"))
    # Ana is asked where token A goes: (-2,2) and (-1,3), in the order N, E, S, W.
    assert ENGINE.to_act(s) == {ANA}
    assert ENGINE.legal_actions(s, ANA) == [MoveToken(cell=(-1, 3)), MoveToken(cell=(-2, 2))]
    b = s.city[key((-1, 2))]
    assert (b.tiles, b.owner, b.pending) == (["B14"], ANA, True)
    assert 14 in s.stacks["B"]
    s, _ = ENGINE.apply(s, ANA, MoveToken(cell=(-1, 3)))
    ana = s.players[ANA]
    assert s.tokens["A"] == (-1, 3)
    assert (ana.resources, len(ana.tiles), ana.sp) == (4, 2, 6)
    assert "U-A" in s.discard


# --------------------------------------------------------------------------- example 3


def test_exploit_a_building_card_with_exploit_bonuses() -> None:
    s = round1_selecting()
    s, _ = resolve(s, BEN, "R2", None)
    ben = s.players[BEN]
    assert (ben.resources, ben.sp, ben.supply) == (6, 4, 14)
    assert s.discard[-1] == "R2"
    assert s.city[key((0, 1))].owner is None


def test_exploit_a_taller_building_variant_pays_the_owner_nothing() -> None:
    s = round1_selecting()
    put_building(s, (0, 0), ["Y2", "Y11"], CARA)
    s.players[BEN].tableau.append("R7")
    s.players[BEN].hand.append("Y11")
    cara_sp = s.players[CARA].sp
    before = s.players[BEN].model_copy()
    s, _ = resolve(s, BEN, "Y11", None)
    ben = s.players[BEN]
    assert ben.sp - before.sp == 4
    assert ben.resources - before.resources == 2
    assert s.players[CARA].sp == cara_sp


# --------------------------------------------------------------------------- example 4


def test_exploit_an_urbanization_card_resource_or_tile() -> None:
    s = round1_selecting()
    s.supply = s.supply[1:]  # Ana's C09 bonus drew one tile in example 2: 38 left
    s, _ = resolve(s, CARA, "U-K", None)
    assert ENGINE.legal_actions(s, CARA) == [Take(item="resource"), Take(item="tile")]
    tile_state, _ = ENGINE.apply(s, CARA, Take(item="tile"))
    cara = tile_state.players[CARA]
    assert len(tile_state.supply) == 37 and len(cara.tiles) == 3
    assert tile_state.discard[-1] == "U-K"
    res_state, _ = ENGINE.apply(s, CARA, Take(item="resource"))
    cara = res_state.players[CARA]
    assert (cara.supply, cara.resources) == (15, 5)


# --------------------------------------------------------------------------- example 5


def test_deck_rebuild_during_refill_three_players() -> None:
    s = round1_selecting()
    s, _ = ENGINE.apply(s, ANA, Select(card="U-A", tile="B14"))
    s, _ = ENGINE.apply(s, BEN, Select(card="R2"))
    s, _ = ENGINE.apply(s, CARA, Select(card="U-K"))
    s, _ = ENGINE.apply(s, ANA, MoveToken(cell=(-1, 3)))
    # Cara's exploit item; then the round ends: pass, refill with a rebuild.
    s, events = ENGINE.apply(s, CARA, Take(item="tile"))
    rebuilt = [e for e in events if e.type == "deck_rebuilt"]
    assert len(rebuilt) == 1
    assert rebuilt[0].pending_cards == ["B14"]  # type: ignore[attr-defined]
    assert rebuilt[0].deck_count == 4 and rebuilt[0].set_aside == 7  # type: ignore[attr-defined]
    assert s.first_player == BEN
    assert len(s.deck) == 3 and len(s.discard) == 7
    assert all(len(p.hand) == 4 for p in s.players)
    assert not any(b.pending for b in s.city.values())
    assert 14 not in s.stacks["B"]
    assert "B14" in s.deck or "B14" in s.discard


# --------------------------------------------------------------------------- example 6


def _example6_state() -> tuple:  # type: ignore[type-arg]
    s = round1_selecting()
    put_building(s, (-1, 2), ["B14"], ANA)
    put_building(s, (1, 2), ["Y9", "Y15"], BEN)
    s.tokens.update({"A": (-1, 3), "C": (1, 3)})
    cara = s.players[CARA]
    cara.tableau = ["Y8"]
    set_holdings(s, CARA, resources=2, sp=5, tiles=["R17"])
    cara.hand.append("U-B")
    return (s,)


def test_urbanize_in_a_pocket_with_three_neighbours_and_bonuses() -> None:
    (s,) = _example6_state()
    supply = len(s.supply)
    s, _ = resolve(s, CARA, "U-B", "R17")
    assert s.decision is None  # one candidate: applied without asking (D22)
    assert s.tokens["B"] == (0, 3)
    assert s.city[key((0, 2))].tiles == ["R17"] and s.city[key((0, 2))].owner == CARA
    cara = s.players[CARA]
    assert (cara.resources, cara.sp, len(cara.tiles)) == (3, 9, 1)
    assert len(s.supply) == supply - 1
    assert s.players[ANA].sp == 4 and s.players[BEN].sp == 3


def test_urbanize_pocket_keeps_token_order_with_the_flag() -> None:
    (s,) = _example6_state()
    s.options = GinkgopolisOptions(keep_token_order=True)
    s, _ = resolve(s, CARA, "U-B", "R17")
    assert s.tokens["B"] == (0, 3)


# --------------------------------------------------------------------------- example 7


def _example7_state() -> tuple:  # type: ignore[type-arg]
    s = round1_selecting()
    put_building(s, (1, 2), ["Y9", "Y15"], BEN)
    s.tokens["C"] = (1, 3)
    s.players[ANA].tableau = ["R9"]
    set_holdings(s, ANA, resources=6, sp=9, tiles=["R6"])
    s.players[ANA].hand.append("Y15")
    return (s,)


def test_build_up_on_another_players_building_lower_number_other_colour() -> None:
    (s,) = _example7_state()
    assert selection_problem(s, ANA, "Y15", "R6") is None
    ben_res, ben_sp = s.players[BEN].resources, s.players[BEN].sp
    orange_supply = s.players[ANA].supply
    s, _ = resolve(s, ANA, "Y15", "R6")
    b = s.city[key((1, 2))]
    assert (b.tiles, b.owner, b.pending) == (["Y9", "Y15", "R6"], ANA, True)
    ana = s.players[ANA]
    assert (ana.resources, ana.sp) == (3, 1)
    assert ana.tableau == ["R9", "Y15"]
    assert s.players[BEN].resources == ben_res + 2 and s.players[BEN].sp == ben_sp + 2
    # colour cost back to the supply (+1), R9's bonus resource from it (-1)
    assert ana.supply == orange_supply + 1 - 1
    assert 6 in s.stacks["R"]


def test_build_up_rejected_when_the_number_cost_is_not_covered() -> None:
    (s,) = _example7_state()
    set_holdings(s, ANA, sp=8)
    s.phase = "select"
    assert "9 SP" in (selection_problem(s, ANA, "Y15", "R6") or "")
    with pytest.raises(IllegalAction, match=r"§7\.3"):
        ENGINE.apply(s, ANA, Select(card="Y15", tile="R6"))


# --------------------------------------------------------------------------- example 8


def test_build_up_on_your_own_building_reuses_the_refund() -> None:
    s = round1_selecting()
    put_building(s, (0, 2), ["R17"], CARA)
    s.tokens["B"] = (0, 3)
    cara = s.players[CARA]
    cara.tableau = ["Y8"]
    set_holdings(s, CARA, resources=1, tiles=["R19"])
    cara.hand.append("R17")
    sp = cara.sp
    assert selection_problem(s, CARA, "R17", "R19") is None
    s, _ = resolve(s, CARA, "R17", "R19")
    cara = s.players[CARA]
    b = s.city[key((0, 2))]
    assert (b.tiles, b.owner) == (["R17", "R19"], CARA)
    assert cara.resources == 0
    assert cara.sp == sp + 1  # C02; no SP for covering your own building
    assert len(cara.tiles) == 1  # C03's tile
    assert cara.tableau == ["Y8", "R17"]
    assert end_cards_total(cara, CARA, s.city) == 4  # C01 and Y8 trigger on URBANIZE


# --------------------------------------------------------------------------- example 9


def _city(rows: dict[tuple[int, int], tuple[list[str], int | None]]) -> dict[str, Building]:
    return {key(c): Building(tiles=t, owner=o) for c, (t, o) in rows.items()}


def test_district_scoring_majority_second_tie_sole_owner_isolated() -> None:
    city = _city(
        {
            (0, 1): (["R2", "Y7", "R12"], ANA),
            (1, 1): (["B3", "R15"], BEN),
            (-1, 0): (["B1"], None),
            (0, 0): (["Y2", "B16"], CARA),
            (1, 0): (["R3"], None),
            (2, 0): (["R8"], BEN),
            (2, -1): (["B11"], CARA),
            (4, 0): (["Y13", "Y18", "Y20"], ANA),
        }
    )
    red = [key(c) for c in ((0, 1), (1, 1), (1, 0), (2, 0))]
    assert score_district(city, red) == {ANA: 6, BEN: 3}
    assert score_district(city, [key((-1, 0)), key((0, 0))]) == {CARA: 4}
    assert district_scores(city, 3) == [6, 3, 4]


def test_district_tie_decided_by_the_number_of_the_tallest_building() -> None:
    city = _city(
        {(0, 0): (["Y4", "Y16"], CARA), (1, 0): (["Y6", "Y13"], ANA), (2, 0): (["Y5"], BEN)}
    )
    assert district_scores(city, 3) == [2, 0, 5]


def test_district_three_way_tie() -> None:
    city = _city(
        {
            (0, 0): (["R1", "R10"], ANA),
            (1, 0): (["R14"], BEN),
            (2, 0): (["R5"], BEN),
            (3, 0): (["R2", "R9"], CARA),
        }
    )
    assert district_scores(city, 3) == [6, 0, 2]


# --------------------------------------------------------------------------- example 10


def _example10_state() -> tuple:  # type: ignore[type-arg]
    s = round1_selecting()
    put_building(s, (0, -1), ["B2", "B7", "B18"], CARA)
    s.players[BEN].hand.append("B18")
    set_holdings(s, ANA, tiles=["B4", "B5", "Y4"])
    set_holdings(s, BEN, tiles=["R4"])
    set_holdings(s, CARA, tiles=["R5", "R6"])
    moved = s.supply[2:]
    s.supply = s.supply[:2]
    s.removed_tiles += moved  # keep the 60 tiles accounted for
    return (s,)


def test_first_tile_supply_exhaustion_in_the_middle_of_an_action() -> None:
    (s,) = _example10_state()
    ben0 = s.players[BEN].model_copy()
    s, _ = resolve(s, BEN, "B18", None)
    assert s.phase == "contribute" and s.refill_done
    assert ENGINE.to_act(s) == {ANA, BEN, CARA}
    assert len(s.players[BEN].tiles) == 3  # two drawn so far
    s, _ = ENGINE.apply(s, ANA, Contribute(tile="B4"))
    s, _ = ENGINE.apply(s, ANA, Contribute(tile="Y4"))
    s, _ = ENGINE.apply(s, ANA, ContributeDone())
    s, _ = ENGINE.apply(s, CARA, Contribute(tile="R5"))
    counts = [p.tile_count for p in ENGINE.view(s, BEN).players]
    assert counts == [3, 3, 2]  # public counts unchanged until the reveal
    s, _ = ENGINE.apply(s, CARA, ContributeDone())
    s, events = ENGINE.apply(s, BEN, ContributeDone())
    revealed = next(e for e in events if e.type == "contributions_revealed")
    assert revealed.tiles == {ANA: ["Y4", "B4"], CARA: ["R5"]}  # type: ignore[attr-defined]
    assert len(s.supply) == 2  # 3 shuffled in, Ben drew his 3rd
    ben = s.players[BEN]
    assert len(ben.tiles) == 4
    assert ben.resources == ben0.resources + 1 and ben.sp == ben0.sp + 1  # C13, C14
    assert s.players[ANA].sp == 4 + 2 and s.players[CARA].sp == 2 + 1
    assert not s.end_triggered


def test_exhaustion_with_no_contribution_triggers_the_end_and_loses_the_tile() -> None:
    (s,) = _example10_state()
    s, _ = resolve(s, BEN, "B18", None)
    for seat in (ANA, BEN, CARA):
        s, _ = ENGINE.apply(s, seat, ContributeDone())
    assert s.end_triggered and s.end_reasons == ["second_exhaustion"]
    assert len(s.players[BEN].tiles) == 3  # the 3rd tile is lost
    assert s.supply == []


# --------------------------------------------------------------------------- example 11


def test_end_game_cards_for_one_tableau() -> None:
    pl = PlayerState(
        colour="orange",
        characters=["C07", "C08", "C09"],
        tableau=["R4", "B5", "Y15", "R16", "Y17", "R19", "B20"],
    )
    city = _city(
        {
            (0, 0): (["R1", "R5", "Y6"], ANA),
            (5, 0): (["B1", "B5", "B6"], ANA),
            (0, 5): (["Y1", "Y5"], ANA),
            (5, 5): (["R7"], ANA),
        }
    )
    assert end_cards_total(pl, ANA, city) == 33
    pl.tableau.append("R14")
    assert end_cards_total(pl, ANA, city) == 37


# --------------------------------------------------------------------------- example 12


def test_new_hand_with_a_rebuild_in_the_middle_of_the_draw() -> None:
    s = example_setup()
    s.round = 6
    # deck 3, discard 8, pending R6 and Y12 (two extra cards taken from the colour stacks)
    s.deck.append("Y20")
    s.discard.append("B19")
    s.stacks["Y"].remove(20)
    s.stacks["B"].remove(19)
    assert (len(s.deck), len(s.discard)) == (3, 8)
    put_building(s, (0, 1), ["R2", "R6"], ANA)
    put_building(s, (1, 0), ["R3", "Y12"], BEN)
    s.city[key((0, 1))].pending = True
    s.city[key((1, 0))].pending = True
    s, _ = ENGINE.apply(s, ANA, KeepHand())
    s, _ = ENGINE.apply(s, BEN, NewHand())
    s, events = ENGINE.apply(s, CARA, KeepHand())
    rebuilt = next(e for e in events if e.type == "deck_rebuilt")
    assert rebuilt.pending_cards == ["R6", "Y12"]  # type: ignore[attr-defined]
    assert rebuilt.deck_count == 7  # type: ignore[attr-defined]
    assert s.players[BEN].tokens == 1
    assert len(s.players[BEN].hand) == 4
    assert (len(s.deck), len(s.discard)) == (6, 7)
    assert s.phase == "select"
    assert compute_scores(s)[BEN].tokens == 2


# --------------------------------------------------------------------------- example 13


def _solo_state():  # type: ignore[no-untyped-def]
    deck = deck_with(["U-H", "U-I", "U-J", "U-D", "U-E", "U-F", "U-G", "R3"])
    supply = supply_with(["R4", "R5", "R6", "R7", "R8", "R9", "B11", "Y5"])
    return assemble(
        1, GinkgopolisOptions(), Rng.from_seed(3), list(EXAMPLE_CITY), supply, deck, [[]], 0
    )


def test_solo_one_round_with_hal() -> None:
    s = _solo_state()
    you, hal = s.players
    assert hal.hal and hal.colour == "natural" and hal.supply == 25
    assert (you.resources, len(you.tiles), you.sp, you.supply) == (6, 6, 6, 19)
    assert you.hand == ["U-H", "U-I", "U-J"] and s.hal_card == "U-D"
    assert ENGINE.to_act(s) == {0}
    s, _ = ENGINE.apply(s, 0, Select(card="U-H"))
    s, _ = ENGINE.apply(s, 0, Take(item="resource"))
    # your 2 other cards are discarded; Hal urbanizes at D with B11; you move token D
    assert {"U-I", "U-J"} <= set(s.discard)
    assert s.city[key((2, 1))].tiles == ["B11"] and s.city[key((2, 1))].owner == 1
    assert s.players[1].supply == 24
    assert ENGINE.legal_actions(s, 0) == [MoveToken(cell=(2, 2)), MoveToken(cell=(3, 1))]
    s, _ = ENGINE.apply(s, 0, MoveToken(cell=(3, 1)))
    assert s.players[1].sp == 1
    assert s.round == 2 and s.hal_card == "R3"
    # round 2: Hal builds Y5 on R3, pays no number or colour cost
    s, _ = ENGINE.apply(s, 0, Select(card="U-E"))
    s, _ = ENGINE.apply(s, 0, Take(item="resource"))
    b = s.city[key((1, 0))]
    assert (b.tiles, b.owner, b.pending) == (["R3", "Y5"], 1, True)
    hal = s.players[1]
    assert (hal.supply, hal.sp, hal.tableau) == (22, 1, ["R3"])


def test_hal_urbanizes_token_first_then_scores_then_discards() -> None:
    # §15 step 3 follows §7.2 steps 5-8: while you choose where Hal's token D goes, his
    # neighbour SP and the discard of U-D have not happened yet.
    s = _solo_state()
    s, _ = ENGINE.apply(s, 0, Select(card="U-H"))
    s, events = ENGINE.apply(s, 0, Take(item="resource"))
    assert s.decision is not None and (s.decision.kind, s.decision.player) == ("move_token", 1)
    assert not [e for e in events if e.type == "items_gained" and e.hal]  # type: ignore[attr-defined]
    # the 7 set-up discards, your exploited U-H, your 2 unplayed cards; U-D not yet
    assert (s.players[1].sp, len(s.discard), s.discard[-3:]) == (0, 10, ["U-H", "U-I", "U-J"])
    seen = ENGINE.view(s, 0)
    assert (seen.players[1].sp, seen.discard_count) == (0, 10)
    s, events = ENGINE.apply(s, 0, MoveToken(cell=(3, 1)))
    hal_gain = next(e for e in events if e.type == "items_gained")
    assert [e.type for e in events][:2] == ["token_moved", "items_gained"]
    assert (hal_gain.player, hal_gain.sp, hal_gain.hal) == (1, 1, True)  # type: ignore[attr-defined]
    # the next round drew its 4 cards from the deck (no rebuild): the discard is as Hal left it
    assert (s.players[1].sp, len(s.discard), s.discard[-1]) == (1, 11, "U-D")


def test_solo_hal_covering_your_building_returns_resources_and_sp() -> None:
    s = _solo_state()
    put_building(s, (1, 0), ["R3", "Y12"], 0)  # your height-2 building, card Y12 in circulation
    s.hal_card = "Y12"
    you = s.players[0]
    res, sp = you.resources, you.sp
    s, _ = ENGINE.apply(s, 0, Select(card="U-H"))
    s, _ = ENGINE.apply(s, 0, Take(item="tile"))
    you = s.players[0]
    assert you.resources == res + 2 and you.sp == sp + 2
    assert s.city[key((1, 0))].owner == 1 and s.players[1].supply == 25 - 3


# --------------------------------------------------------------------------- example 14


def test_final_totals_and_winner() -> None:
    s = example_setup()
    s.phase = "over"
    s.final = [
        FinalScore(player=ANA, sp=41, districts=17, cards=33, tokens=2, total=93),
        FinalScore(player=BEN, sp=38, districts=17, cards=18, tokens=2, total=75),
        FinalScore(player=CARA, sp=44, districts=13, cards=12, tokens=4, total=73),
    ]
    r = result(s)
    assert r is not None
    assert r.scores == {ANA: 93, BEN: 75, CARA: 73}
    assert r.ranking == [ANA, BEN, CARA] and r.places == {ANA: 1, BEN: 2, CARA: 3}
    s.final[BEN] = s.final[BEN].model_copy(update={"total": 93})
    r = result(s)
    assert r is not None and r.places[ANA] == r.places[BEN] == 1  # shared victory (D11)


def test_final_score_adds_sp_districts_cards_and_tokens() -> None:
    s = example_setup()
    put_building(s, (0, 1), ["R2", "R12"], ANA)
    put_building(s, (1, 0), ["R3"], ANA)  # red district with (0,1)? not adjacent: (1,1) is B3
    s.players[ANA].tableau = ["B20"]
    s.players[ANA].tokens = 1
    f = compute_scores(s)[ANA]
    assert (f.cards, f.tokens) == (9, 2)
    assert f.total == s.players[ANA].sp + f.districts + 9 + 2


# --------------------------------------------------------------------------- example 15


def test_illegal_selections_are_blocked() -> None:
    s = round1_selecting()
    # 1. Urbanize with 0 resources
    set_holdings(s, ANA, resources=0, tiles=["B14", "B15"])
    s.players[ANA].hand = ["U-F", *s.players[ANA].hand[1:]]
    with pytest.raises(IllegalAction, match="no resource"):
        ENGINE.apply(s, ANA, Select(card="U-F", tile="B14"))
    # 2./3. Ben on Cara's height-2 Y15
    put_building(s, (1, 2), ["Y9", "Y15"], CARA)
    s.tokens["C"] = (1, 3)
    s.players[BEN].hand = ["Y15", *s.players[BEN].hand[1:]]
    set_holdings(s, BEN, resources=3, sp=20, tiles=["Y4", "B4"])
    assert Select(card="Y15", tile="Y4") in ENGINE.legal_actions(s, BEN)
    assert Select(card="Y15", tile="B4") not in ENGINE.legal_actions(s, BEN)
    with pytest.raises(IllegalAction, match="needs 4 resources"):
        ENGINE.apply(s, BEN, Select(card="Y15", tile="B4"))
    # 4. two tiles, 5. no card: not even a valid action
    with pytest.raises(ValidationError):
        parse_action(ENGINE, {"type": "select", "card": "U-K", "tile": ["R4", "R5"]})
    with pytest.raises(ValidationError):
        parse_action(ENGINE, {"type": "select", "card": "U-K", "tiles": ["R4", "R5"]})
    with pytest.raises(ValidationError):
        parse_action(ENGINE, {"type": "select", "tile": "R4"})
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, CARA, KeepHand())


# --------------------------------------------------------------------------- example 16


def test_urbanize_where_the_token_has_no_free_neighbour() -> None:
    s = round1_selecting()
    put_building(s, (-1, 2), ["B14"], ANA)
    put_building(s, (-1, 3), ["Y10"], BEN)
    put_building(s, (1, 2), ["R8"], CARA)
    s.tokens.update({"A": (0, 3), "C": (1, 3)})
    set_holdings(s, ANA, resources=3, sp=6, tiles=["Y16", "B15"])
    s.players[ANA].hand.append("U-B")
    supply = len(s.supply)
    s, _ = resolve(s, ANA, "U-B", "Y16")
    assert ENGINE.legal_actions(s, ANA) == [
        MoveToken(cell=(-1, 4)),
        MoveToken(cell=(-2, 3)),
        MoveToken(cell=(-2, 2)),
        MoveToken(cell=(2, 2)),
    ]
    s, _ = ENGINE.apply(s, ANA, MoveToken(cell=(2, 2)))
    ana = s.players[ANA]
    assert s.tokens["B"] == (2, 2)
    assert (ana.resources, len(ana.tiles), ana.sp) == (4, 3, 7)
    assert len(s.supply) == supply - 2
    assert s.discard[-1] == "U-B"


def test_example_city_is_the_fixed_start() -> None:
    s = example_setup()
    assert [s.city[key(c)].top for c in D.START_CELLS] == EXAMPLE_CITY
