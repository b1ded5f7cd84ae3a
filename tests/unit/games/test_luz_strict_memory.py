"""Luz ``strict_memory`` (rules §6 note 2): while the game runs, neither the view nor any
logged event shown later names a card of a completed trick other than the last one.

Whole games are played by a seeded random policy straight through the engine, the log
kept as the server keeps it (JSON per version). At every version, for every seat and a
spectator, the log from several starting points (the whole log, a reconnect after a few
versions, the last version only) goes through ``base.redact_log`` as the server's log,
resync and answer paths do. The oracle is independent of the redaction: it knows every
trick completed so far from the states, and which deal each logged event belongs to from
the whole log read from its start.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.base import dump, redact_log
from app.games.gluckauf import ENGINE as GLUCKAUF
from app.games.luz import ENGINE, LuzOptions, LuzState
from app.games.luz.describe import describe
from app.games.luz.events import TrickWon
from tests.support import luz_memory


def _visible(event: dict[str, Any], seat: int | None) -> bool:
    to = event.get("visible_to")
    return to is None or (seat is not None and seat in to)


def _play(n: int, seed: int, **options: Any) -> tuple[list[LuzState], list[list[dict[str, Any]]]]:
    """States after each version (index = version) and each version's logged events."""
    opts = LuzOptions(**options)
    state, events = ENGINE.start(n, seed, opts)
    states: list[LuzState] = [state, state]  # version 0 = nothing; version 1 = the setup
    log: list[list[dict[str, Any]]] = [[], [dump(e) for e in events]]
    rng = random.Random(seed)
    while ENGINE.result(state) is None:
        seat = min(ENGINE.to_act(state))
        action = rng.choice(ENGINE.legal_actions(state, seat))
        state, events = ENGINE.apply(state, seat, action)
        states.append(state)
        log.append([dump(e) for e in events])
    return states, log


def _shown(
    log: list[list[dict[str, Any]]], state: LuzState, version: int, since: int, seat: int | None
) -> list[dict[str, Any]]:
    """What a path shows: the seat's events after ``since`` up to ``version``, redacted now."""
    events = [
        {"version": v, "index": i, **e}
        for v in range(since + 1, version + 1)
        for i, e in enumerate(log[v])
        if _visible(e, seat)
    ]
    return redact_log(ENGINE, state, events, seat)


# Games that reach the trick play of every deal and whose last deal ends the game.
GAMES = [(3, 11), (4, 5), (5, 23)]


@pytest.mark.parametrize(("n", "seed"), GAMES)
def test_strict_memory_no_logged_path_names_an_older_tricks_card(n: int, seed: int) -> None:
    states, log = _play(n, seed, strict_memory=True)
    deals = luz_memory.deals(log)
    final = len(log) - 1
    checked = shown_last = 0
    for version in range(1, final):
        state = states[version]
        hidden_cards, hidden_slots = luz_memory.hidden(log, version)
        for seat in (*range(n), None):
            view = ENGINE.view(state, seat)
            assert len(view.completed_tricks) <= 1
            assert len(view.completed_tricks) + view.hidden_tricks == len(state.tricks)
            for since in {0, max(0, version - 7), version - 1}:
                for event in _shown(log, state, version, since, seat):
                    deal = deals[event["version"], event["index"]]
                    cards, slots = luz_memory.named(event)
                    assert not {(deal, c) for c in cards} & hidden_cards, (version, since, event)
                    assert not {(deal, *s) for s in slots} & hidden_slots, (version, since, event)
                    checked += 1
            # What may be shown still is: the current trick's plays and the last completed
            # trick (its trick_won with its cards) are in the whole log.
            whole = _shown(log, state, version, 0, seat)
            played = {
                (deals[e["version"], e["index"]], e["trick_no"], e["card"])
                for e in whole
                if e["type"] == "card_played"
            }
            for play in state.trick:
                assert (state.deal, len(state.tricks) + 1, play.card) in played
            # ... and the last completed trick, in this deal or (right after a deal) the one
            # before: its trick_won with its cards and every card_played of it.
            last = luz_memory.last_done(log, version)
            if last is not None:
                (v, i), deal, event = last
                again = [e for e in whole if (e["version"], e["index"]) == (v, i)]
                assert again == [{"version": v, "index": i, **event}]
                assert {(deal, event["trick_no"], p["card"]) for p in event["cards"]} <= played
                assert len(event["cards"]) == n
                shown_last += 1
    assert checked > 10_000
    assert shown_last > 100
    # Once the game has ended, the whole log is shown as logged.
    for seat in (*range(n), None):
        events = [
            {"version": v, **e} for v in range(final + 1) for e in log[v] if _visible(e, seat)
        ]
        assert redact_log(ENGINE, states[final], events, seat) == events


@pytest.mark.parametrize(("n", "seed"), GAMES)
def test_without_strict_memory_the_log_is_shown_as_logged(n: int, seed: int) -> None:
    states, log = _play(n, seed, strict_memory=False)
    for version in range(1, len(log), 5):
        for seat in (*range(n), None):
            events = [
                {"version": v, **e} for v in range(version + 1) for e in log[v] if _visible(e, seat)
            ]
            assert redact_log(ENGINE, states[version], events, seat) == events


def test_older_trick_won_keeps_its_winner_and_reads_without_cards() -> None:
    event = TrickWon(seat=2, trick_no=4, cards=())
    assert describe(event, "en") == "Seat 3 won trick 4"
    assert describe(event, "es") == "El asiento 3 ganó la baza 4"


def test_an_engine_without_the_hook_shows_its_log_as_logged() -> None:
    n = GLUCKAUF.info.min_players
    state = GLUCKAUF.setup(n, 1, GLUCKAUF.Options())
    events = [{"type": "anything", "version": 3}]
    assert redact_log(GLUCKAUF, state, events, 0) is events
