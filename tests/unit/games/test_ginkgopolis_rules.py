"""Rules not covered by a worked example: draft, New Hand window, end triggers, solo, view."""

from __future__ import annotations

import json

import pytest

from app.games.base import Engine, Event, IllegalAction, InvalidOptions, dump
from app.games.ginkgopolis import ENGINE
from app.games.ginkgopolis import data as D
from app.games.ginkgopolis.actions import (
    Contribute,
    ContributeDone,
    DraftPick,
    KeepHand,
    MoveToken,
    NewHand,
    Select,
    Take,
)
from app.games.ginkgopolis.events import (
    CardsDrawn,
    CardsReceived,
    DraftPileReceived,
    DraftStarted,
    GameSetUp,
    HalCardDrawn,
    ItemsGained,
    RoundStarted,
    TilesReceived,
)
from app.games.ginkgopolis.rules import (
    GinkgopolisOptions,
    GinkgopolisState,
    _order_kept,
    token_candidates,
)

from .test_ginkgopolis_scenarios import (
    ANA,
    BEN,
    CARA,
    example_setup,
    put_building,
    resolve,
    round1_selecting,
    set_holdings,
)


def test_engine_satisfies_the_protocol() -> None:
    assert isinstance(ENGINE, Engine)
    assert ENGINE.info.id == "ginkgopolis"
    assert (ENGINE.info.min_players, ENGINE.info.max_players) == (1, 5)
    assert ENGINE.Options() == GinkgopolisOptions(
        characters="sets", keep_token_order=False, hidden_sp=False
    )


@pytest.mark.parametrize("n", [0, 6, 9])
def test_bad_player_counts_are_refused(n: int) -> None:
    with pytest.raises(InvalidOptions, match="1 to 5"):
        ENGINE.validate_options(GinkgopolisOptions(), n)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (GinkgopolisOptions(characters="draft"), "characters"),
        (GinkgopolisOptions(characters="random"), "characters"),
        (GinkgopolisOptions(hidden_sp=True), "hidden_sp"),
    ],
)
def test_solo_refuses_the_options_that_do_nothing_solo(
    options: GinkgopolisOptions, named: str
) -> None:
    # §15: no characters solo; Hal has no screen, so his SP are always shown (D12).
    with pytest.raises(InvalidOptions, match=named) as refused:
        ENGINE.validate_options(options, 1)
    assert "solo" in refused.value.message and "§15" in refused.value.message
    ENGINE.validate_options(options, 2)  # with two players they matter


def test_solo_accepts_the_options_that_matter_solo() -> None:
    ENGINE.validate_options(GinkgopolisOptions(), 1)
    ENGINE.validate_options(GinkgopolisOptions(keep_token_order=True), 1)  # you move tokens


def test_options_forbid_unknown_keys() -> None:
    with pytest.raises(ValueError):
        GinkgopolisOptions.model_validate({"expert": True})


def test_token_order_option_also_answers_to_the_specs_name() -> None:
    # D2 names the flag keepTokenOrder; the API's own spelling is keep_token_order.
    for key in ("keep_token_order", "keepTokenOrder"):
        assert GinkgopolisOptions.model_validate({key: True}).keep_token_order is True
    assert "keep_token_order" in GinkgopolisOptions().model_dump()


# --------------------------------------------------------------------------- simultaneous selection


def test_selection_is_simultaneous_and_to_act_lists_every_undecided_seat() -> None:
    s = round1_selecting()
    assert ENGINE.to_act(s) == {ANA, BEN, CARA}
    s, events = ENGINE.apply(s, BEN, Select(card="R2"))
    assert ENGINE.to_act(s) == {ANA, CARA}
    assert ENGINE.legal_actions(s, BEN) == []
    public = [e for e in events if e.visible_to is None]
    assert [e.type for e in public] == ["choice_committed"]
    assert "R2" not in public[0].model_dump_json()
    with pytest.raises(Exception, match="no decision"):
        ENGINE.apply(s, BEN, Select(card="U-K"))


def test_selection_list_order_and_tiles() -> None:
    s = round1_selecting()
    legal = ENGINE.legal_actions(s, ANA)
    hand = s.players[ANA].hand
    assert [a.card for a in legal if a.tile is None] == hand
    # urbanization cards may take any tile behind the screen
    assert Select(card="U-A", tile="B14") in legal and Select(card="U-A", tile="B15") in legal


def test_the_view_hides_other_selections_until_the_reveal() -> None:
    s = round1_selecting()
    s, _ = ENGINE.apply(s, ANA, Select(card="U-A", tile="B14"))
    ben_view = ENGINE.view(s, BEN)
    ana = ben_view.players[ANA]
    assert ana.has_selected and ana.tile_attached and ana.selection is None and ana.revealed is None
    assert "U-A" not in ben_view.model_dump_json().replace('"A"', "")
    own = ENGINE.view(s, ANA).players[ANA]
    assert own.selection is not None and own.selection.card == "U-A"
    spectator = ENGINE.view(s, None)
    assert all(p.hand is None and p.tiles is None for p in spectator.players)
    s, _ = ENGINE.apply(s, BEN, Select(card="R2"))
    s, _ = ENGINE.apply(s, CARA, Select(card="U-K"))
    revealed = ENGINE.view(s, BEN).players[ANA].revealed
    assert revealed is not None and (revealed.card, revealed.tile) == ("U-A", "B14")


def test_hidden_sp_option() -> None:
    s = example_setup(options=GinkgopolisOptions(hidden_sp=True))
    v = ENGINE.view(s, BEN)
    assert v.players[BEN].sp == 3 and v.players[ANA].sp is None
    assert ENGINE.view(example_setup(), BEN).players[ANA].sp == 4


# --------------------------------------------------------------------------- New Hand window


def test_new_hand_window_skipped_when_nobody_has_a_token() -> None:
    s = round1_selecting()
    for seat, card in ((ANA, "U-A"), (BEN, "R2"), (CARA, "U-K")):
        s, _ = ENGINE.apply(s, seat, Select(card=card))
    s, _ = ENGINE.apply(s, ANA, Take(item="resource"))
    for pl in s.players:
        pl.tokens = 0
    s, _ = ENGINE.apply(s, CARA, Take(item="tile"))
    assert s.round == 2 and s.phase == "select"
    assert ENGINE.to_act(s) == {ANA, BEN, CARA}


def test_only_token_holders_declare_new_hand() -> None:
    s = example_setup()
    assert ENGINE.legal_actions(s, BEN) == [KeepHand(), NewHand()]
    s.players[BEN].tokens = 0
    assert ENGINE.to_act(s) == {ANA, CARA}


def test_new_hand_replaces_the_hand() -> None:
    s = example_setup()
    old = list(s.players[ANA].hand)
    s, _ = ENGINE.apply(s, ANA, NewHand())
    s, _ = ENGINE.apply(s, BEN, KeepHand())
    s, events = ENGINE.apply(s, CARA, KeepHand())
    assert s.players[ANA].tokens == 1 and len(s.players[ANA].hand) == 4
    assert set(old) <= set(s.discard) | set(s.deck) | set(s.players[ANA].hand)
    used = [e for e in events if e.type == "new_hand_used"]
    assert len(used) == 1 and used[0].visible_to is None
    private = [e for e in events if e.type == "cards_received"]
    assert all(e.visible_to == frozenset({ANA}) for e in private)


# --------------------------------------------------------------------------- draft (§16.2)


def test_character_draft_four_three_two_then_one_removed() -> None:
    s = ENGINE.setup(3, 11, GinkgopolisOptions(characters="draft"))
    assert s.phase == "draft"
    assert all(len(p.draft_pile) == 4 for p in s.players)
    piles = {p: list(s.players[p].draft_pile) for p in range(3)}
    v = ENGINE.view(s, BEN)
    assert v.players[ANA].draft_pile is None and v.players[BEN].draft_pile == piles[BEN]
    assert all(not p.characters for p in v.players)
    for size in (4, 3, 2):
        for seat in range(3):
            legal = ENGINE.legal_actions(s, seat)
            assert len(legal) == size
            assert [a.character for a in legal] == sorted(a.character for a in legal)
            s, _ = ENGINE.apply(s, seat, legal[0])
        if size == 4:
            # the pile passes to the left: seat 1 now holds seat 0's rest
            assert set(s.players[BEN].draft_pile) == set(piles[ANA]) - {min(piles[ANA])}
    assert s.phase == "new_hand"
    assert all(len(p.characters) == 3 for p in s.players)
    assert all(not p.draft_pile for p in s.players)


def test_draft_pick_must_come_from_the_pile() -> None:
    s = ENGINE.setup(2, 3, GinkgopolisOptions(characters="draft"))
    other = next(c for c in D.CHARACTER_IDS if c not in s.players[0].draft_pile)
    with pytest.raises(IllegalAction, match=r"§16\.2"):
        ENGINE.apply(s, 0, DraftPick(character=other))


def test_random_deal_gives_three_characters() -> None:
    s = ENGINE.setup(5, 3, GinkgopolisOptions(characters="random"))
    assert all(len(p.characters) == 3 for p in s.players)


# --------------------------------------------------------------------------- tokens (D2, D3)


def test_token_order_holds_at_setup_and_detects_a_break() -> None:
    s = example_setup()
    assert _order_kept(s.tokens, "A", (-1, 2))
    assert not _order_kept(s.tokens, "A", (2, 2))
    assert _order_kept(s.tokens, "D", (2, 2))


def test_token_candidates_with_the_order_flag() -> None:
    s = example_setup(options=GinkgopolisOptions(keep_token_order=True))
    # lift C (1,2) off the board after a building went there: N (1,3) and E (2,2) are free
    put_building(s, (1, 2), ["R8"], ANA)
    del s.tokens["C"]
    assert token_candidates(s, (1, 2), "C") == [(1, 3), (2, 2)]
    s.tokens["D"] = (2, 2)  # now only (1,3)
    assert token_candidates(s, (1, 2), "C") == [(1, 3)]


def _boxed_site_b(options: GinkgopolisOptions) -> GinkgopolisState:
    """Ana urbanizes B at (0,2): N, E, S and W of it are buildings, A sits at (-1,4)."""
    s = round1_selecting()
    s.options = options
    put_building(s, (-1, 2), ["B14"], ANA)
    put_building(s, (-1, 3), ["Y10"], BEN)
    put_building(s, (1, 2), ["R8"], CARA)
    put_building(s, (0, 3), ["R9"], CARA)
    s.tokens.update({"A": (-1, 4), "C": (1, 3)})
    set_holdings(s, ANA, resources=3, tiles=["Y16"])
    s.players[ANA].hand.append("U-B")
    s, _ = resolve(s, ANA, "U-B", "Y16")
    return s


def test_token_fallback_is_any_empty_cell_next_to_any_building() -> None:
    # D3: no empty orthogonal neighbour of the site, so every empty cell orthogonally
    # adjacent to a building of the city (no building, no token on it), in reading order.
    s = _boxed_site_b(GinkgopolisOptions())
    assert ENGINE.legal_actions(s, ANA) == [
        MoveToken(cell=(0, 4)),
        MoveToken(cell=(-2, 3)),
        MoveToken(cell=(-2, 2)),
        MoveToken(cell=(2, 2)),
    ]


def test_token_fallback_keeps_the_order_flag() -> None:
    # D3 "same order flag applies": of the four cells only (0,4) keeps A, B, C in order,
    # so B moves there by itself (one candidate, D22).
    s = _boxed_site_b(GinkgopolisOptions(keep_token_order=True))
    assert s.decision is None and s.tokens["B"] == (0, 4)


def test_move_token_outside_the_candidates_is_illegal() -> None:
    s = round1_selecting()
    s, _ = ENGINE.apply(s, ANA, Select(card="U-A", tile="B14"))
    s, _ = ENGINE.apply(s, BEN, Select(card="R2"))
    s, _ = ENGINE.apply(s, CARA, Select(card="U-K"))
    with pytest.raises(IllegalAction, match="D3"):
        ENGINE.apply(s, ANA, MoveToken(cell=(5, 5)))
    with pytest.raises(IllegalAction, match="move token A"):
        ENGINE.apply(s, ANA, Take(item="tile"))


# --------------------------------------------------------------------------- end triggers (§11)


def test_all_resources_in_the_city_triggers_the_end_after_the_round() -> None:
    s = round1_selecting()
    ana = s.players[ANA]
    # Ana keeps 1 resource behind her screen and none in the supply
    ana.supply, ana.resources = 0, 1
    for seat, sel in (
        (ANA, Select(card="U-A", tile="B14")),
        (BEN, Select(card="R2")),
        (CARA, Select(card="U-K")),
    ):
        s, _ = ENGINE.apply(s, seat, sel)
    s, events = ENGINE.apply(s, ANA, MoveToken(cell=(-1, 3)))
    assert s.end_triggered and "all_resources" in s.end_reasons
    # the round is completed: Cara still resolves
    assert ENGINE.to_act(s) == {CARA}
    s, events = ENGINE.apply(s, CARA, Take(item="tile"))
    assert s.phase == "over" and ENGINE.result(s) is not None
    assert any(e.type == "game_ended" for e in events)
    assert ENGINE.to_act(s) == frozenset()
    assert ENGINE.legal_actions(s, ANA) == []


def test_contribution_legal_actions_and_auto_done() -> None:
    s = round1_selecting()
    put_building(s, (0, -1), ["B2", "B18"], CARA)
    s.players[BEN].hand.append("B18")
    set_holdings(s, ANA, tiles=["B4"])
    set_holdings(s, CARA, tiles=[])
    s.supply = s.supply[:1]
    s, _ = resolve(s, BEN, "B18", None)
    assert s.phase == "contribute"
    assert ENGINE.to_act(s) == {ANA, BEN}  # Cara has no tile: done without asking
    assert ENGINE.legal_actions(s, ANA) == [Contribute(tile="B4"), ContributeDone()]
    s, _ = ENGINE.apply(s, ANA, Contribute(tile="B4"))  # last tile: done
    assert ENGINE.to_act(s) == {BEN}
    with pytest.raises(IllegalAction, match="§10"):
        ENGINE.apply(s, BEN, Contribute(tile="Y20"))


# --------------------------------------------------------------------------- solo (§15)


def test_solo_setup_and_hal_is_never_asked() -> None:
    # A new solo table refuses characters="draft" (validate_options); one stored before
    # that refusal still sets up, and the option changes nothing (§15: no characters).
    s = ENGINE.setup(1, 4, GinkgopolisOptions(characters="draft"))
    you, hal = s.players
    assert s.phase == "select" and ENGINE.to_act(s) == {0}
    assert (you.resources, len(you.tiles), you.sp, you.tokens, you.characters) == (6, 6, 6, 0, [])
    assert hal.hal and hal.sp == 0 and not hal.tiles
    assert len(you.hand) == 3 and s.hal_card is not None
    assert len(s.supply) == 45 - 6 and len(s.deck) == 14 - 4
    v = ENGINE.view(s, 0)
    assert v.hal_card_face_down and '"hal_card"' not in v.model_dump_json()


def _finish_solo_round(s):  # type: ignore[no-untyped-def]
    while s.phase == "resolve" and ENGINE.to_act(s):
        s, _ = ENGINE.apply(s, 0, ENGINE.legal_actions(s, 0)[0])
    return s


def test_solo_first_exhaustion_ends_the_game() -> None:
    s = ENGINE.setup(1, 4, GinkgopolisOptions())
    s.removed_tiles += s.supply[1:]
    s.supply = s.supply[:1]
    s, _ = ENGINE.apply(s, 0, Select(card=s.players[0].hand[0]))
    s = _finish_solo_round(s)
    assert s.end_reasons == ["solo_exhaustion"]
    assert s.phase == "over"
    assert not s.refill_done or s.supply == []


def test_solo_hal_cannot_pay_ends_the_game() -> None:
    s = ENGINE.setup(1, 4, GinkgopolisOptions())
    s.players[1].supply = 0  # (not conserved: only this rule is under test)
    supply_before = len(s.supply)
    s, _ = ENGINE.apply(s, 0, Select(card=s.players[0].hand[0]))
    s = _finish_solo_round(s)
    assert "hal_cannot_pay" in s.end_reasons
    assert s.phase == "over"
    assert len(s.supply) >= supply_before - 3  # no tile was drawn for Hal
    res = ENGINE.result(s)
    assert res is not None and set(res.details) >= {"hal", "beat_hal"}
    assert res.places[0] == (1 if res.details["beat_hal"] else 2)


def test_solo_hal_skips_when_your_action_emptied_the_supply() -> None:
    s = ENGINE.setup(1, 4, GinkgopolisOptions())
    s.removed_tiles += s.supply[1:]
    s.supply = s.supply[:1]
    s.hal_card = "U-L"
    if "U-A" not in s.players[0].hand:
        s.players[0].hand[0] = "U-A"
    s, _ = ENGINE.apply(s, 0, Select(card="U-A"))
    s, events = ENGINE.apply(s, 0, Take(item="tile"))
    skipped = [e for e in events if e.type == "hal_skipped"]
    assert len(skipped) == 1 and skipped[0].reason == "no_tile"  # type: ignore[attr-defined]
    assert s.phase == "over" and s.end_reasons == ["solo_exhaustion"]
    assert s.tokens["L"] == (-2, 1)


# --------------------------------------------------------------------------- describe


def test_describe_every_action_and_event_type_in_both_locales() -> None:
    actions = [
        DraftPick(character="C01"),
        KeepHand(),
        NewHand(),
        Select(card="U-A"),
        Select(card="U-A", tile="R4"),
        Select(card="R2", tile="R4"),
        Take(item="tile"),
        MoveToken(cell=(1, 2)),
        Contribute(tile="R4"),
        ContributeDone(),
    ]
    for a in actions:
        en, es = ENGINE.describe(a, "en"), ENGINE.describe(a, "es")
        assert en and es and en != es
    from app.games.ginkgopolis import events as E

    classes = [
        c
        for c in vars(E).values()
        if isinstance(c, type) and issubclass(c, E.Event) and c is not E.Event
    ]
    assert len(classes) >= 26
    samples = {
        "player": 0,
        "n_players": 3,
        "first_player": 0,
        "characters": {0: ["C01"]},
        "supply_count": 3,
        "deck_count": 2,
        "character": "C01",
        "step": "select",
        "use": True,
        "tokens_left": 1,
        "count": 2,
        "cards": ["U-A"],
        "round": 1,
        "card": "R2",
        "tile": "R4",
        "action": "build_up",
        "reason": "second_exhaustion",
        "tiles": ["R4"],
        "cell": (1, 2),
        "letter": "A",
        "height": 2,
        "sp_cost": 0,
        "colour_cost": 1,
        "sp": 1,
        "pending_cards": [],
        "pile_size": 4,
        "draft_round": 1,
        "set_aside": 7,
        "first": True,
        "districts": 1,
        "tokens": 2,
        "total": 5,
        "winners": [0],
    }
    for cls in classes:
        fields = {k: v for k, v in samples.items() if k in cls.model_fields}
        if cls is E.ContributionsRevealed:
            fields["tiles"] = {0: ["R4"]}
        if cls is E.HalSkipped:
            fields["reason"] = "cannot_pay"
        if cls is E.DraftPileReceived:
            fields["characters"] = ["C01", "C02"]
        if cls is E.ItemsGained:
            fields["reason"] = "neighbour"
            fields["tiles"] = 1
        if cls is E.PlayerScored:
            fields["cards"] = 3
        event = cls(**fields)
        en, es = ENGINE.describe(event, "en"), ENGINE.describe(event, "es")
        assert en and es and en != es, cls


def test_setup_events_are_public_counts_only() -> None:
    e = GameSetUp(n_players=2, first_player=1, characters={}, supply_count=40, deck_count=6)
    assert e.visible_to is None
    assert ItemsGained(player=0, tiles=2, reason="start").visible_to is None


# --------------------------------------------------------------------------- start: the setup's events


def _check_setup_events(s: GinkgopolisState, events: list[Event]) -> None:
    """Starting items (tiles private), set up, round 1 begun, each hand private to its holder
    (dealt before the set up; solo drawn when round 1 begins, §15)."""
    seats = range(s.n_players)
    types = [e.type for e in events]
    i = types.index("game_set_up")
    assert types.count("game_set_up") == 1 and types[i + 1] == "round_started"
    set_up = events[i]
    assert isinstance(set_up, GameSetUp) and set_up.first_player == s.first_player
    assert set_up.characters == {p: s.players[p].characters for p in seats}
    started = events[i + 1]
    assert isinstance(started, RoundStarted) and started.round == 1
    starts = [e for e in events if isinstance(e, ItemsGained) and e.reason == "start"]
    assert sorted(e.player for e in starts) == list(seats)
    for e in events:
        if isinstance(e, TilesReceived):
            assert e.visible_to == frozenset({e.player}) and set(e.tiles) <= set(
                s.players[e.player].tiles
            )
    hands = {e.player: e for e in events if isinstance(e, CardsReceived)}
    assert set(hands) == set(seats)
    for p, e in hands.items():
        assert e.visible_to == frozenset({p}) and e.cards == s.players[p].hand
    assert all(e.visible_to is None for e in events if e.type in ("cards_drawn", "items_gained"))


@pytest.mark.parametrize("n", [1, 3, 5])
def test_start_returns_the_state_of_setup_and_the_setup_events(n: int) -> None:
    state, events = ENGINE.start(n, 7, GinkgopolisOptions())
    assert dump(state) == dump(ENGINE.setup(n, 7, GinkgopolisOptions()))
    _check_setup_events(state, events)
    assert sum(len(e.tiles) for e in events if isinstance(e, TilesReceived)) == sum(
        len(pl.tiles) for pl in state.players
    )


def _check_draft_piles(s: GinkgopolisState, events: list[Event], draft_round: int) -> None:
    """Each seat is told the pile it now holds, and only that seat (§16.2)."""
    piles = [e for e in events if isinstance(e, DraftPileReceived)]
    assert [e.player for e in piles] == list(range(s.n_players))
    for e in piles:
        assert e.visible_to == frozenset({e.player}) and e.draft_round == draft_round
        assert e.characters == s.players[e.player].draft_pile


def test_a_draft_tells_the_piles_at_the_start_and_the_rest_after_the_third_pick() -> None:
    """Issue 35: version 1 of a draft table announces what the start decides (the draft and
    its first player for all, each pile to its seat); each pass tells the piles passed on;
    the starting items and the deal come when the last pick decides them."""
    s, events = ENGINE.start(3, 11, GinkgopolisOptions(characters="draft"))
    assert (
        s.phase == "draft"
        and [e.type for e in events] == ["draft_started"] + ["draft_pile_received"] * 3
    )
    started = events[0]
    assert isinstance(started, DraftStarted) and started.visible_to is None
    assert (started.n_players, started.first_player, started.pile_size) == (3, s.first_player, 4)
    _check_draft_piles(s, events, 1)
    draft_round = 1
    while s.phase == "draft":
        for seat in range(3):
            s, events = ENGINE.apply(s, seat, ENGINE.legal_actions(s, seat)[0])
        draft_round += 1
        if s.phase == "draft":
            _check_draft_piles(s, events, draft_round)
    assert draft_round == 4 and not [e for e in events if isinstance(e, DraftPileReceived)]
    tail = events[[e.type for e in events].index("draft_completed") + 1 :]
    _check_setup_events(s, tail)


def test_hal_draws_his_card_face_down_in_a_public_event() -> None:
    """Issue 35: each solo round, the deck loses your cards and Hal's; the log tells both,
    Hal's without the card (§15.1)."""
    s, events = ENGINE.start(1, 7, GinkgopolisOptions())
    rounds = 0
    deck = len(s.deck) + sum(
        e.count for e in events if isinstance(e, CardsDrawn | HalCardDrawn)
    )  # before round 1's draw (no rebuild this early)
    while s.phase != "over" and rounds < 3:
        drawn = [e for e in events if isinstance(e, HalCardDrawn)]
        if any(isinstance(e, RoundStarted) for e in events):
            rounds += 1
            assert len(drawn) == 1 and drawn[0].visible_to is None and drawn[0].player == 1
            assert s.hal_card is not None and s.hal_card not in json.dumps(dump(drawn[0]))
            if not any(e.type == "deck_rebuilt" for e in events):
                counted = sum(e.count for e in events if isinstance(e, CardsDrawn | HalCardDrawn))
                assert deck - counted == len(s.deck)
            assert "Hal" in ENGINE.describe(drawn[0], "en")
        deck = len(s.deck)
        seat = min(ENGINE.to_act(s))
        s, events = ENGINE.apply(s, seat, ENGINE.legal_actions(s, seat)[0])
    assert rounds == 3
