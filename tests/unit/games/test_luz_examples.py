"""Every worked example of shared/rules/luz-examples.md, one test each (exact numbers)."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction, NotYourTurn, Rng
from app.games.luz import ENGINE
from app.games.luz.actions import ChooseHighEnd, PlaceBet, PlayCard
from app.games.luz.data import deck
from app.games.luz.events import (
    Bet,
    DealScored,
    DealStarted,
    TrickWon,
)
from app.games.luz.rules import (
    LuzOptions,
    LuzState,
    deal_hands,
    deal_points,
    legal_slots,
    result,
    score_deal,
    setup,
)
from tests.unit.games.test_luz_builders import (
    EXAMPLE1_HANDS,
    EXAMPLE1_ORDER,
    EXAMPLE1_UNDEALT,
    example1_deal,
    example3_bets,
    play_tricks,
    reference_policy,
    trick_state,
)

# --------------------------------------------------------------------------- Example 1


def test_deal_formula_gives_the_example_hands() -> None:
    hands, undealt = deal_hands(list(EXAMPLE1_ORDER), 3, 0)
    assert hands == EXAMPLE1_HANDS
    assert undealt == EXAMPLE1_UNDEALT
    # D[0]=R2 ends with seat 2, D[1]=R1 with seat 0, D[2]=R3 with seat 1 (sorters 1, 2, 0)
    assert "R2" in hands[2] and "R1" in hands[0] and "R3" in hands[1]
    for colour in "RYGBP":
        total = sum(1 for h in hands for c in h if c and c[0] == colour)
        total += sum(1 for c in undealt if c[0] == colour)
        assert total == 8


# --------------------------------------------------------------------------- Example 2


def test_own_hand_shows_colours_and_order_but_no_value() -> None:
    state = example1_deal()
    view = ENGINE.view(state, 0)
    own = view.players[0].hand
    assert [s.colour for s in own.slots] == list("RRYYGGGBPP")
    assert [s.slot for s in own.slots] == list(range(10))
    assert all(s.card is None for s in own.slots)
    assert own.high_end == "right" and not own.values_visible
    assert [s.card for s in view.players[1].hand.slots] == EXAMPLE1_HANDS[1]
    assert [s.card for s in view.players[2].hand.slots] == EXAMPLE1_HANDS[2]
    # what A can deduce from its view alone
    visible = {s.card for p in view.players for s in p.hand.slots if s.card}
    unseen_reds = [v for v in range(1, view.max_value + 1) if f"R{v}" not in visible]
    assert unseen_reds == [1, 5, 6]
    unseen_yellows = [v for v in range(1, view.max_value + 1) if f"Y{v}" not in visible]
    assert unseen_yellows == [3, 4, 7, 8]
    undealt_counts = {
        c: view.max_value
        - sum(1 for card in visible if card[0] == c)
        - sum(1 for s in own.slots if s.colour == c)
        for c in "RYGBP"
    }
    assert undealt_counts == {"R": 1, "Y": 2, "G": 2, "B": 2, "P": 3}
    assert view.undealt_count == 10
    spectator = ENGINE.view(state, None)
    assert ["".join(s.colour for s in p.hand.slots) for p in spectator.players] == [
        "RRYYGGGBPP",
        "RRYYGGBBBP",
        "RRRYYGBBPP",
    ]
    assert all(s.card is None for p in spectator.players for s in p.hand.slots)
    assert all(p.hand.high_end == "right" for p in spectator.players)


# --------------------------------------------------------------------------- Example 3


def test_betting_round_in_order_with_public_bets() -> None:
    state = example1_deal()
    assert len(ENGINE.legal_actions(state, 0)) == 22
    assert ENGINE.legal_actions(state, 0)[:3] == [
        PlaceBet(tricks=0, safety=False),
        PlaceBet(tricks=0, safety=True),
        PlaceBet(tricks=1, safety=False),
    ]
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 1, PlaceBet(tricks=4, safety=True))
    state = ENGINE.apply(state, 0, PlaceBet(tricks=2, safety=False)).state
    assert [(p.bet, p.safety) for p in ENGINE.view(state, None).players] == [
        (2, False),
        (None, False),
        (None, False),
    ]
    with pytest.raises(IllegalAction, match="already bet"):
        ENGINE.apply(state, 0, PlaceBet(tricks=3, safety=False))
    state = ENGINE.apply(state, 1, PlaceBet(tricks=4, safety=True)).state
    state = ENGINE.apply(state, 2, PlaceBet(tricks=1, safety=False)).state
    view = ENGINE.view(state, 2)
    assert [(p.bet, p.safety) for p in view.players] == [(2, False), (4, True), (1, False)]
    assert sum(p.bet or 0 for p in view.players) == 7
    assert view.phase == "playing" and view.to_act == [0]


# --------------------------------------------------------------------------- Example 4

EXAMPLE4_TRICKS = [
    (0, ["P6", "P3", "P8"], 2),
    (2, ["P4", "P1", "Y1"], 1),
    (1, ["B8", "B5", "B4"], 1),
    (1, ["B7", "B1", "Y3"], 0),
    (0, ["G7", "G8", "G3"], 1),
    (1, ["B2", "Y2", "Y8"], 0),
    (0, ["G5", "G1", "Y6"], 2),
    (2, ["R7", "R6", "R8"], 1),
    (1, ["Y5", "R2", "R1"], 1),
    (1, ["R3", "R4", "G2"], 2),
]

EXAMPLE4_NO_TRUMP = [
    (["P6", "P3", "P8"], 2),
    (["P4", "P1", "Y1"], 2),
    (["B5", "B4", "B8"], 1),
    (["B7", "B1", "Y3"], 1),
    (["B2", "Y2", "Y8"], 1),
    (["G8", "G3", "G7"], 1),
    (["G1", "Y6", "G5"], 0),
    (["G2", "Y5", "R2"], 0),
    (["R6", "R8", "R7"], 1),
    (["R3", "R4", "R1"], 2),
]


def test_complete_deal_with_reference_policy() -> None:
    state = example3_bets()
    # trick 2 check: after trick 1, C leads P4 and A holds only one purple (P1, slot 8)
    state, _ = play_tricks(state, 1)
    state = ENGINE.apply(state, 2, reference_policy(ENGINE.view(state, 2))).state
    assert ENGINE.legal_actions(state, 0) == [PlayCard(slot=8)]
    state, _ = play_tricks(example3_bets(), 8)
    # trick 9 check: B leads Y5, C and A have no yellow: all their slots are legal
    state = ENGINE.apply(state, 1, reference_policy(ENGINE.view(state, 1))).state
    assert [state.hands[2][i] for i in legal_slots(state, 2)] == ["R2", "R4"]

    state, events = play_tricks(example3_bets(), 10)
    tricks = [e for e in events if isinstance(e, TrickWon)]
    assert [(t.cards[0].seat, [p.card for p in t.cards], t.seat) for t in tricks] == EXAMPLE4_TRICKS
    (scored,) = [e for e in events if isinstance(e, DealScored)]
    assert [(r.won, r.points) for r in scored.rows] == [(2, 10), (5, 5), (3, -10)]
    assert state.scores == [10, 5, -10]
    assert state.deal == 2 and state.first_player == 1


def test_complete_deal_without_trump() -> None:
    _, events = play_tricks(example3_bets(trump="none"), 10)
    tricks = [e for e in events if isinstance(e, TrickWon)]
    assert [([p.card for p in t.cards], t.seat) for t in tricks] == EXAMPLE4_NO_TRUMP
    (scored,) = [e for e in events if isinstance(e, DealScored)]
    assert [r.won for r in scored.rows] == [2, 5, 3]
    assert [r.points for r in scored.rows] == [10, 5, -10]


# --------------------------------------------------------------------------- Example 5


def _play_out(state: LuzState, order: list[int]) -> int:
    """Each seat plays its only slot 0 in ``order``; return the trick winner."""
    winner = None
    for seat in order:
        state, events = ENGINE.apply(state, seat, PlayCard(slot=0))
        for event in events:
            if isinstance(event, TrickWon):
                winner = event.seat
    assert winner is not None
    return winner


@pytest.mark.parametrize(
    ("n", "leader", "cards", "winner", "winner_no_trump"),
    [
        (4, 2, {2: "G5", 3: "G9", 0: "Y2", 1: "G10"}, 0, 1),
        (4, 1, {1: "B3", 2: "B7", 3: "R10", 0: "B6"}, 2, 2),
        (5, 4, {4: "Y4", 0: "Y9", 1: "P12", 2: "Y11", 3: "R12"}, 2, 2),
        (5, 0, {0: "R2", 1: "Y1", 2: "Y12", 3: "R12", 4: "R11"}, 2, 3),
    ],
    ids=["a-lowest-trump-beats-green", "b-off-colour-cannot-win", "c-yellow-led", "d-two-trumps"],
)
def test_single_trick_winner(
    n: int, leader: int, cards: dict[int, str], winner: int, winner_no_trump: int
) -> None:
    order = [(leader + i) % n for i in range(n)]
    holdings: dict[int, list[str | None]] = {s: [c] for s, c in cards.items()}
    assert _play_out(trick_state(n, holdings, leader), order) == winner
    assert _play_out(trick_state(n, holdings, leader, trump="none"), order) == winner_no_trump


def test_must_follow_the_led_colour_by_colour_only() -> None:
    # seat 3 sees 0:R 1:R 2:G 3:B 4:B 5:P (slots 6-9 already played); seat 2 leads green
    seat3: list[str | None] = ["R3", "R8", "G4", "B2", "B9", "P1", None, None, None, None]
    state = trick_state(4, {2: ["G7"], 3: seat3, 0: ["G1"], 1: ["G2"]}, leader=2)
    state = ENGINE.apply(state, 2, PlayCard(slot=0)).state
    assert ENGINE.legal_actions(state, 3) == [PlayCard(slot=2)]
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, 3, PlayCard(slot=0))
    message = info.value.message
    assert "green" in message and "must play green" in message and "§5.6" in message
    for card in ("R3", "R8", "G4", "B2", "B9", "P1"):
        assert card[1:] not in message.replace("§5.6", "").replace("slot 0", "")
    no_green: list[str | None] = ["R3", "R8", "B1", "B2", "B9", "P1", None, None, None, None]
    state = trick_state(4, {2: ["G7"], 3: no_green, 0: ["G1"], 1: ["G2"]}, leader=2)
    state = ENGINE.apply(state, 2, PlayCard(slot=0)).state
    assert ENGINE.legal_actions(state, 3) == [PlayCard(slot=i) for i in range(6)]


# --------------------------------------------------------------------------- Examples 6-9


@pytest.mark.parametrize(
    ("deal", "bet", "won", "points"),
    [(1, 3, 3, 10), (2, 3, 3, 20), (3, 3, 3, 30), (4, 3, 3, 40), (1, 0, 0, 10)],
)
def test_exact_bet_scores_ten_times_the_deal(deal: int, bet: int, won: int, points: int) -> None:
    assert deal_points(deal, bet, False, won) == points


@pytest.mark.parametrize(
    ("deal", "bet", "won", "points"),
    [(2, 2, 2, 10), (3, 2, 3, 15), (1, 2, 3, 5), (1, 0, 1, 5), (3, 0, 1, 15)],
)
def test_safety_bead_hits_at_bet_and_bet_plus_one(
    deal: int, bet: int, won: int, points: int
) -> None:
    assert deal_points(deal, bet, True, won) == points
    assert deal_points(deal, bet, True, won, "nearest") == points
    assert deal_points(2, 2, False, 2) == 20


@pytest.mark.parametrize(
    ("deal", "bet", "safety", "won", "points", "alt"),
    [
        (2, 4, False, 2, -10, -10),
        (1, 2, False, 4, -10, -10),
        (1, 3, True, 1, -10, -10),
        (3, 1, True, 3, -10, -5),
        (2, 0, False, 2, -10, -10),
        (2, 0, True, 2, -10, -5),
        (2, 2, True, 5, -15, -10),
        (1, 10, False, 0, -50, -50),
        (1, 0, False, 10, -50, -50),
    ],
)
def test_misses_cost_five_per_trick_flat(
    deal: int, bet: int, safety: bool, won: int, points: int, alt: int
) -> None:
    assert deal_points(deal, bet, safety, won) == points
    assert deal_points(deal, bet, safety, won, "nearest") == alt


@pytest.mark.parametrize(
    ("bet", "safety", "won", "points"),
    [(3, False, 3, 40), (3, True, 3, 20), (3, True, 4, 20), (3, False, 5, -10), (10, True, 10, 20)],
)
def test_fourth_deal_scores(bet: int, safety: bool, won: int, points: int) -> None:
    assert deal_points(4, bet, safety, won) == points


# --------------------------------------------------------------------------- Example 10

EXAMPLE10 = [  # per deal: (bet, safety, won) for seats 0..3
    [(3, False, 3), (2, True, 3), (4, False, 2), (1, False, 2)],
    [(2, True, 2), (3, False, 3), (1, False, 1), (3, False, 4)],
    [(0, False, 0), (4, True, 6), (2, True, 3), (3, False, 1)],
    [(3, False, 3), (2, False, 2), (3, True, 4), (1, True, 1)],
]


def _score_example10(miss_from: str) -> tuple[LuzState, list[int], list[list[int]]]:
    """Score Example 10's four deals through the engine's deal scoring; return first players."""
    state = setup(4, 10, LuzOptions(first_player=0, safety_miss_from=miss_from))  # type: ignore[arg-type]
    firsts: list[int] = []
    totals: list[list[int]] = []
    for rows in EXAMPLE10:
        firsts.append(state.first_player)
        state.bets = [Bet(tricks=b, safety=s) for b, s, _ in rows]
        state.tricks_won = [w for _, _, w in rows]
        events: list = []
        score_deal(state, events)
        totals.append(list(state.scores))
        if state.phase != "finished":
            assert any(isinstance(e, DealStarted) for e in events)
    return state, firsts, totals


def test_full_four_player_game_scores() -> None:
    state, firsts, totals = _score_example10("bet")
    assert firsts == [0, 1, 2, 3]
    assert totals == [[10, 5, -10, -5], [20, 25, 10, -10], [50, 15, 25, -20], [90, 55, 45, 0]]
    res = result(state)
    assert res is not None
    assert res.scores == {0: 90, 1: 55, 2: 45, 3: 0}
    assert res.ranking == [0, 1, 2, 3]
    assert res.tiebreak == ""
    assert ENGINE.to_act(state) == frozenset()
    state, _, totals = _score_example10("nearest")
    assert totals[2][1] == 20 and totals[3][1] == 60
    res = result(state)
    assert res is not None and res.ranking == [0, 1, 2, 3]


# --------------------------------------------------------------------------- Example 11


def test_tied_seats_share_first_place() -> None:
    state = setup(3, 11, LuzOptions(first_player=0))
    state.scores = [60, 60, 35]
    state.phase = "finished"
    res = result(state)
    assert res is not None
    assert res.ranking == [0, 1, 2]
    assert res.places == {0: 1, 1: 1, 2: 3}
    assert res.tiebreak == "Seats 0 and 1 are tied on 60 points and share first place."


# --------------------------------------------------------------------------- Example 12


def _deal_first_players(n: int, first: int, rotation: str) -> list[int]:
    opts = LuzOptions(first_player=first, first_player_rotation=rotation)  # type: ignore[arg-type]
    state = setup(n, 12, opts)
    firsts = [state.first_player]
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.to_act(state)
        action = ENGINE.legal_actions(state, seat)[0]
        state, events = ENGINE.apply(state, seat, action)
        firsts += [e.first_player for e in events if isinstance(e, DealStarted)]
    return firsts


def test_first_player_rotates_left_each_deal() -> None:
    assert _deal_first_players(3, 0, "left") == [0, 1, 2, 0]
    assert _deal_first_players(5, 3, "left") == [3, 4, 0, 1]
    assert _deal_first_players(3, 0, "fixed") == [0, 0, 0, 0]


def test_trick_leaders_follow_the_winners() -> None:
    _, events = play_tricks(example3_bets(), 10)
    leaders = [e.cards[0].seat for e in events if isinstance(e, TrickWon)]
    assert leaders == [0, 2, 1, 1, 0, 1, 0, 2, 1, 1]


# --------------------------------------------------------------------------- Example 13


def test_redacted_views_after_trick_two() -> None:
    state, _ = play_tricks(example3_bets(), 2)
    remaining = {
        0: ["R1", "R6", "Y3", "Y8", "G2", "G5", "G7", "B4"],
        1: ["R3", "R8", "Y5", "G1", "G8", "B2", "B7", "B8"],
        2: ["R2", "R4", "R7", "Y2", "Y6", "G3", "B1", "B5"],
    }
    colours = {0: "RRYYGGGB", 1: "RRYGGBBB", 2: "RRRYYGBB"}
    slots = {0: list(range(8)), 1: [0, 1, 3, 4, 5, 6, 7, 8], 2: list(range(8))}
    for viewer in (0, 1, 2, None):
        view = ENGINE.view(state, viewer)
        for seat in range(3):
            hand = view.players[seat].hand
            assert "".join(s.colour for s in hand.slots) == colours[seat]
            assert [s.slot for s in hand.slots] == slots[seat]
            if viewer is None or viewer == seat:
                assert all(s.card is None for s in hand.slots)
            else:
                assert [s.card for s in hand.slots] == remaining[seat]
        assert [(p.bet, p.safety) for p in view.players] == [(2, False), (4, True), (1, False)]
        assert [p.tricks_won for p in view.players] == [0, 1, 1]
        assert [(t.winner, [p.card for p in t.plays]) for t in view.completed_tricks] == [
            (2, ["P6", "P3", "P8"]),
            (1, ["P4", "P1", "Y1"]),
        ]
        assert view.undealt_count == 10
        assert view.to_act == [1]
    assert ENGINE.legal_actions(state, 0) == [] == ENGINE.legal_actions(state, 2)
    assert ENGINE.legal_actions(state, 1) == [PlayCard(slot=i) for i in slots[1]]
    # B's remaining yellow (slot 3) is above Y1 and not visible to B: one of Y4, Y5, Y7
    view = ENGINE.view(state, 1)
    seen = {s.card for p in view.players for s in p.hand.slots if s.card}
    seen |= {p.card for t in view.completed_tricks for p in t.plays}
    assert [v for v in range(2, 9) if f"Y{v}" not in seen] == [4, 5, 7]
    # strict memory: only the last completed trick stays in the view
    strict, _ = play_tricks(example3_bets(strict_memory=True), 2)
    strict_view = ENGINE.view(strict, 1)
    assert [t.number for t in strict_view.completed_tricks] == [2]
    assert strict_view.hidden_tricks == 1


# --------------------------------------------------------------------------- Example 14


def test_seeded_setup_draws_first_player_before_the_shuffle() -> None:
    for n in (3, 4, 5):
        for seed in (0, 1, 99, 2**63 + 5):
            state = setup(n, seed, LuzOptions())
            rng = Rng.from_seed(seed)
            first = rng.below(n)
            order = deck(n)
            rng.shuffle(order)
            hands, undealt = deal_hands(order, n, first)
            assert state.start_player == state.first_player == first
            assert state.hands == hands and state.undealt == undealt
            assert state.rng == rng
            again = setup(n, seed, LuzOptions())
            assert again.model_dump_json() == state.model_dump_json()


def test_manual_high_end_changes_only_the_marker_side() -> None:
    def run(side: str) -> tuple[list[int], list[int], list[str]]:
        state = setup(4, 14, LuzOptions(first_player=1, manual_sort_direction=True))
        assert ENGINE.to_act(state) == frozenset({0, 1, 2, 3})
        assert ENGINE.legal_actions(state, 2) == [
            ChooseHighEnd(side="left"),
            ChooseHighEnd(side="right"),
        ]
        for seat in range(4):
            state = ENGINE.apply(state, seat, ChooseHighEnd(side=side)).state  # type: ignore[arg-type]
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, ChooseHighEnd(side="left"))
        sides = [p.hand.high_end for p in ENGINE.view(state, 0).players]
        winners: list[int] = []
        while state.deal == 1:
            (seat,) = ENGINE.to_act(state)
            action = ENGINE.legal_actions(state, seat)[-1]
            state, events = ENGINE.apply(state, seat, action)
            winners += [e.seat for e in events if isinstance(e, TrickWon)]
        return winners, state.scores, sides

    left = run("left")
    right = run("right")
    assert left[0] == right[0] and left[1] == right[1]
    assert left[2] == ["left"] * 4 and right[2] == ["right"] * 4
