"""MINE! engine surface: options, setup chance order, errors, result shape, describe, bot."""

from __future__ import annotations

import random

import pytest

from app.games.base import (
    Engine,
    Event,
    GameOver,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Rng,
    parse_action,
)
from app.games.mine import ENGINE
from app.games.mine import events as ev
from app.games.mine.actions import DiscardCard, PassTurn, PlaceCard
from app.games.mine.data import PROFESSION_IDS, starting_hand
from app.games.mine.rules import MineOptions, MineState


def _play(n: int, seed: int, options: MineOptions, level: str = "random") -> MineState:
    state = ENGINE.setup(n, seed, options)
    rng = random.Random(seed)
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        action = ENGINE.bot(ENGINE.view(state, seat), legal, rng, level)
        state, _ = ENGINE.apply(state, seat, action)
    return state


def test_engine_satisfies_the_protocol() -> None:
    assert isinstance(ENGINE, Engine)
    assert ENGINE.info.id == "mine" and (ENGINE.info.min_players, ENGINE.info.max_players) == (2, 6)
    assert ENGINE.max_length(6) < 1000


@pytest.mark.parametrize("n", [1, 7])
def test_bad_player_counts_are_rejected(n: int) -> None:
    with pytest.raises(InvalidOptions, match="2 to 6"):
        ENGINE.validate_options(MineOptions(), n)


def test_dummy_needs_a_free_colour() -> None:
    with pytest.raises(InvalidOptions, match="free colour"):
        ENGINE.validate_options(MineOptions(dummy=True), 6)
    ENGINE.validate_options(MineOptions(dummy=True), 5)


def test_first_player_must_be_a_seat() -> None:
    with pytest.raises(InvalidOptions, match="first_player"):
        ENGINE.validate_options(MineOptions(first_player=3), 3)
    with pytest.raises(ValueError):
        MineOptions(first_player=True)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        MineOptions.model_validate({"colour": "red"})


def test_dummy_auto_is_on_only_with_two_seats() -> None:
    assert ENGINE.setup(2, 1, MineOptions()).dummy
    assert not ENGINE.setup(3, 1, MineOptions()).dummy
    assert ENGINE.setup(3, 1, MineOptions(dummy=True)).n_directors == 4
    assert not ENGINE.setup(2, 1, MineOptions(dummy=False)).dummy


def test_setup_draws_r1_then_r2_then_r3() -> None:
    state = ENGINE.setup(3, 42, MineOptions(variant=True))
    rng = Rng.from_seed(42)
    assert state.die_holder == rng.below(3)
    pile = [c for c in range(1, 71) if c not in {c for k in range(3) for c in starting_hand(k)}]
    rng.shuffle(pile)
    assert state.draw_pile == pile
    dice = ["D1", "D2", "D3", "D4", "D5", "D6"]
    rng.shuffle(dice)
    assert [state.die_card, *state.die_pile] == dice
    assert state.rng.draws == rng.draws


def test_setup_coal_and_hands() -> None:
    state = ENGINE.setup(6, 3, MineOptions(first_player=4))
    assert state.supply == 8 and state.die_holder == 4
    assert [d.hand for d in state.directors] == [starting_hand(k) for k in range(6)]
    assert ENGINE.setup(3, 3, MineOptions()).supply == 14


def test_dummy_never_starts_and_never_acts() -> None:
    for seed in range(20):
        state = ENGINE.setup(2, seed, MineOptions())
        assert state.die_holder in (0, 1)
        assert ENGINE.to_act(state) <= {0, 1}


def test_wrong_seat_and_game_over_errors() -> None:
    state = ENGINE.setup(3, 5, MineOptions(first_player=1))
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 0, PassTurn())
    with pytest.raises(IllegalAction, match="hand-limit"):
        ENGINE.apply(state, 1, DiscardCard(card=5))
    with pytest.raises(IllegalAction, match="not in your hand"):
        ENGINE.apply(state, 1, PlaceCard(card=1, location="mine"))
    with pytest.raises(IllegalAction, match="without a victim"):
        ENGINE.apply(state, 1, PlaceCard(card=5, location="shelter"))
    with pytest.raises(IllegalAction, match="only a card at the"):
        ENGINE.apply(state, 1, PlaceCard(card=5, location="mine", victim=0))
    with pytest.raises(IllegalAction, match="there are directors"):
        ENGINE.apply(state, 1, PlaceCard(card=5, location="shelter", victim=7))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "dance"})
    state, _ = ENGINE.apply(state, 1, {"type": "pass"})
    end = _play(2, 9, MineOptions())
    with pytest.raises(GameOver):
        ENGINE.apply(end, 0, PassTurn())
    assert ENGINE.legal_actions(end, 0) == []


def test_result_reports_the_dummy_apart() -> None:
    state = _play(2, 11, MineOptions())
    res = ENGINE.result(state)
    assert res is not None and state.final is not None
    assert set(res.scores) == {0, 1} and sorted(res.ranking) == [0, 1]
    dummy = res.details["dummy"]
    assert set(dummy) == {"score", "stock", "place"}
    assert dummy["place"] == state.final.order.index(2) + 1
    assert sorted([*res.places.values(), dummy["place"]]) == [1, 2, 3]


def test_describe_covers_every_action_and_event_in_both_locales() -> None:
    rc = ev.RevealedCard(director=0, card=3, victim=1)
    items = [
        PlaceCard(card=3, location="shelter", victim=1),
        PlaceCard(card=3, location="mine"),
        PassTurn(),
        DiscardCard(card=61),
        ev.RoundStarted(round=2, die_holder=1, die_card="D3", mine_max=4, sale_max=3),
        ev.RoundStarted(round=2, die_holder=1),
        ev.CardPlaced(director=0, location="shelter", victim=1, stack_opened=True, placed_count=1),
        ev.CardPlaced(director=0, location="mine", placed_count=2),
        ev.OwnCardPlaced(director=0, card=3, location="mine", visible_to=frozenset({0})),
        ev.PlacementPassed(director=2, reason="empty_hand"),
        ev.CardsRevealed(location="shelter", cards=(rc,)),
        ev.CardsRevealed(location="mine", cards=()),
        ev.FiredampCounted(firedamp=2),
        ev.RaidSettled(
            raider=0, victim=1, attack=5, defence=3, outcome="succeeded", claim=2, taken=2
        ),
        ev.RaidSettled(raider=0, victim=1, attack=2, defence=3, outcome="failed", claim=0, taken=0),
        ev.RaidSettled(
            raider=0, victim=1, attack=2, defence=0, outcome="cancelled", claim=0, taken=0
        ),
        ev.StocksLooted(before=(4, 0), after=(2, 2)),
        ev.CoalSold(director=1, limit=3, sold=2, stock=0, score=5),
        ev.CoalExtracted(
            director=1, base=4, blasted=False, extraction=4, taken=4, created=1, supply=0
        ),
        ev.CoalExtracted(director=1, base=4, blasted=True, extraction=0, taken=0, supply=3),
        ev.DrawPileReshuffled(cards=30),
        ev.CardsDrawn(director=0, wanted=3, count=3),
        ev.CardsReceived(director=0, cards=(1, 2), visible_to=frozenset({0})),
        ev.DummyEventReplaced(director=2, card=68),
        ev.CardDiscarded(director=0, card=9),
        ev.RoundCleanedUp(round=1, discarded=(1, 2), next_die_holder=1),
        ev.RoundCleanedUp(round=6, discarded=()),
        ev.GameEnded(reason="score_21", ranking=(1, 0), scores=(3, 21), tiebreak="x"),
    ]
    covered = {type(i) for i in items}
    assert set(ev.ALL_EVENT_TYPES) <= covered
    for item in items:
        for locale in ("es", "en"):
            text = ENGINE.describe(item, locale)  # type: ignore[arg-type]
            assert text and "Event" not in text and type(item).__name__ not in text
    public = ENGINE.describe(ev.CardPlaced(director=0, location="mine", placed_count=1), "en")
    assert not any(ch.isdigit() for ch in public)


def test_every_legal_action_parses_back_from_json() -> None:
    state = ENGINE.setup(4, 2, MineOptions())
    (seat,) = ENGINE.to_act(state)
    for action in ENGINE.legal_actions(state, seat):
        assert parse_action(ENGINE, action.model_dump(mode="json")) == action


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_normal_bot_plays_complete_games(n: int) -> None:
    for seed in range(3):
        state = _play(n, seed, MineOptions(variant=seed == 1), level="normal")
        assert ENGINE.result(state) is not None


def test_dummy_hand_always_professions() -> None:
    state = _play(2, 4, MineOptions())
    dummy = state.directors[2]
    assert all(c in PROFESSION_IDS for c in dummy.hand)


def _round_two_start(state: MineState) -> list[Event]:
    """Everybody passes (or discards) through round 1; the events after its clean-up."""
    while state.round == 1:
        (seat,) = ENGINE.to_act(state)
        action = next(
            (a for a in ENGINE.legal_actions(state, seat) if isinstance(a, PassTurn)),
            ENGINE.legal_actions(state, seat)[0],
        )
        state, events = ENGINE.apply(state, seat, action)
    cleaned = next(i for i, e in enumerate(events) if isinstance(e, ev.RoundCleanedUp))
    return events[cleaned + 1 :]


@pytest.mark.parametrize(
    ("n", "options"),
    [
        (3, MineOptions(first_player=0)),
        (3, MineOptions(first_player=1, variant=True, dummy=True)),
    ],
)
def test_start_announces_round_one_like_every_later_round(n: int, options: MineOptions) -> None:
    state, events = ENGINE.start(n, 4, options)
    assert state.model_dump(mode="json") == ENGINE.setup(n, 4, options).model_dump(mode="json")
    (started,) = [e for e in events if isinstance(e, ev.RoundStarted)]
    assert (started.round, started.die_holder) == (1, options.first_player)
    if options.variant:
        card = state.die_card
        assert card is not None and started.die_card == card
        assert (started.mine_max, started.sale_max) == (7 - int(card[1]), int(card[1]))
    else:
        assert started.die_card is None
    # One code path: round 1's start events are of the types, and the visibility, of round 2's
    # (whose die holder is a seat here, so no dummy placement follows either start).
    later = _round_two_start(state)
    assert [(type(e), e.visible_to) for e in events] == [(type(e), e.visible_to) for e in later]
    assert later[0].round == 2  # type: ignore[attr-defined]
