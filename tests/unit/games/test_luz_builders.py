"""Named Luz state builders (scenario helpers) shared by the Luz tests, and their own checks."""

from __future__ import annotations

from app.games.base import Event, Seat
from app.games.luz import ENGINE
from app.games.luz.actions import PlaceBet, PlayCard
from app.games.luz.data import HAND_SIZE, Card
from app.games.luz.rules import LuzOptions, LuzState, deal_hands, setup
from app.games.luz.view import LuzView

#: Example 1: the post-shuffle order D of a 3-player deck, first player 0.
EXAMPLE1_ORDER: list[Card] = [
    "R2",
    "R1",
    "R3",
    "R4",
    "R6",
    "R8",
    "R7",
    "Y3",
    "Y1",
    "Y2",
    "Y8",
    "Y5",
    "Y6",
    "G2",
    "G1",
    "G3",
    "G5",
    "G8",
    "B1",
    "G7",
    "B2",
    "B5",
    "B4",
    "B7",
    "P4",
    "P1",
    "B8",
    "P8",
    "P6",
    "P3",
    "R5",
    "Y4",
    "Y7",
    "G4",
    "G6",
    "B3",
    "B6",
    "P2",
    "P5",
    "P7",
]

EXAMPLE1_HANDS: list[list[Card]] = [
    ["R1", "R6", "Y3", "Y8", "G2", "G5", "G7", "B4", "P1", "P6"],
    ["R3", "R8", "Y1", "Y5", "G1", "G8", "B2", "B7", "B8", "P3"],
    ["R2", "R4", "R7", "Y2", "Y6", "G3", "B1", "B5", "P4", "P8"],
]
EXAMPLE1_UNDEALT: list[Card] = ["R5", "Y4", "Y7", "G4", "G6", "B3", "B6", "P2", "P5", "P7"]


def example1_deal(**options: object) -> LuzState:
    """Deal 1 of a 3-player game dealt from Example 1's order (first player 0), betting next."""
    opts = LuzOptions.model_validate({"first_player": 0, **options})
    state = setup(3, 1, opts)
    state.hands, state.undealt = deal_hands(list(EXAMPLE1_ORDER), 3, 0)
    return state


def place_bets(state: LuzState, bets: list[tuple[int, bool]]) -> LuzState:
    """Apply the bets in betting order (from the first player), through the engine."""
    for tricks, safety in bets:
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, PlaceBet(tricks=tricks, safety=safety)).state
    return state


def example3_bets(**options: object) -> LuzState:
    """Example 1's deal after Example 3's bets (A 2, B 4 + safety, C 1): A leads trick 1."""
    return place_bets(example1_deal(**options), [(2, False), (4, True), (1, False)])


def trick_state(
    n_players: int,
    holdings: dict[Seat, list[Card | None]],
    leader: Seat,
    **options: object,
) -> LuzState:
    """A deal in its trick phase: ``holdings[s]`` gives seat s's slots (padded with played slots).

    Every seat bet 0; seat ``leader`` is first player and leads trick 1.
    """
    opts = LuzOptions.model_validate({"first_player": leader, **options})
    state = setup(n_players, 1, opts)
    for seat in range(n_players):
        slots = list(holdings.get(seat, []))
        state.hands[seat] = slots + [None] * (HAND_SIZE - len(slots))
    return place_bets(state, [(0, False)] * n_players)


def reference_policy(view: LuzView) -> PlayCard:
    """Example 4's reference test policy, decided from the view only (colours and positions)."""
    seat = view.viewer
    assert seat is not None
    mine = view.players[seat].hand.slots
    led = view.current_trick.led_colour
    if led is None:
        return PlayCard(slot=mine[-1].slot)
    same = [s for s in mine if s.colour == led]
    if same:
        return PlayCard(slot=same[-1].slot)
    yellows = [s for s in mine if s.colour == "Y"]
    if yellows:
        return PlayCard(slot=yellows[0].slot)
    return PlayCard(slot=mine[0].slot)


def play_tricks(state: LuzState, tricks: int) -> tuple[LuzState, list[Event]]:
    """Play ``tricks`` tricks with the reference policy; return the state and all events."""
    events: list[Event] = []
    for _ in range(tricks * state.n_players):
        (seat,) = ENGINE.to_act(state)
        action = reference_policy(ENGINE.view(state, seat))
        state, evs = ENGINE.apply(state, seat, action)
        events.extend(evs)
    return state, events


def test_example1_builder_deals_the_example_hands() -> None:
    state = example1_deal()
    assert state.hands == EXAMPLE1_HANDS
    assert state.undealt == EXAMPLE1_UNDEALT
    assert ENGINE.to_act(state) == frozenset({0})


def test_trick_state_builder_pads_hands_and_starts_the_trick_phase() -> None:
    state = trick_state(4, {2: ["G5"]}, leader=2)
    assert state.phase == "playing"
    assert state.hands[2] == ["G5"] + [None] * 9
    assert ENGINE.to_act(state) == frozenset({2})
