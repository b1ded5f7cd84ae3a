"""What the log may still show with ``strict_memory`` (rules §6 note 2, §10 item 12).

With the option on, only the current trick and the last completed trick may be read
while the game runs: the view shows no older trick, and neither may any logged event
(the log, a resync after a reconnect, a repeated action's answer). This module narrows
logged events to that, against the state the game is in now:

- ``card_played`` of an older trick is left out;
- ``trick_won`` of an older trick keeps who won it (the counters stay visible) but not
  its cards;
- ``hand_shown`` and ``hands_dealt`` of the current deal no longer name the cards, nor
  the slots, that went into older tricks; those of earlier deals are left out (every
  card of them went into a trick, and the last trick's cards are in its ``trick_won``).

"The last completed trick" runs across deals: right after a deal ends it is the deal's
last trick until the new deal completes one. Once the game has ended everything is
shown. The engine's events themselves never change (they were public when played).
"""

from __future__ import annotations

from typing import Any

from app.games.base import Seat
from app.games.luz.rules import LuzState

TRICKS_PER_DEAL = 10


def last_shown(state: LuzState) -> tuple[int, int]:
    """(deal, trick number) of the oldest trick that may still be shown: the last completed."""
    if state.tricks:
        return (state.deal, state.tricks[-1].number)
    return (state.deal - 1, TRICKS_PER_DEAL)


def redact_log(
    state: LuzState, events: list[dict[str, Any]], seat: Seat | None
) -> list[dict[str, Any]]:
    """The logged ``events`` (in log order, ending at ``state`` or later) that may be shown now."""
    if not state.options.strict_memory or state.phase == "finished":
        return events
    oldest = last_shown(state)
    hidden = state.tricks[:-1]
    hidden_cards = {play.card for trick in hidden for play in trick.plays}
    hidden_slots = {(play.seat, play.slot) for trick in hidden for play in trick.plays}
    # The deal each event belongs to: the events before the first deal_started in the list
    # belong to the deal before it (or, with none in the list, to the state's deal).
    starts = [e["deal"] for e in events if e.get("type") == "deal_started"]
    deal = starts[0] - 1 if starts else state.deal
    out: list[dict[str, Any]] = []
    for event in events:
        kind = event.get("type")
        if kind == "deal_started":
            deal = event["deal"]
        elif kind in ("card_played", "trick_won"):
            if (deal, event["trick_no"]) < oldest:
                if kind == "card_played":
                    continue
                event = {**event, "cards": []}
        elif kind == "hand_shown":
            if event["deal"] < state.deal:
                continue
            if event["deal"] == state.deal and hidden_cards:
                cards = [c for c in event["cards"] if c["card"] not in hidden_cards]
                event = {**event, "cards": cards}
        elif kind == "hands_dealt":
            if event["deal"] < state.deal:
                continue
            if event["deal"] == state.deal and hidden_slots:
                hands = [
                    {
                        **hand,
                        "slots": [
                            s
                            for s in hand["slots"]
                            if (hand["seat"], s["slot"]) not in hidden_slots
                        ],
                    }
                    for hand in event["hands"]
                ]
                event = {**event, "hands": hands}
        out.append(event)
    return out
