"""An oracle for Luz ``strict_memory``: which cards of completed tricks may no longer be shown.

It reads only the unredacted log (every version's events, as the engine produced them):
each ``trick_won`` completes a trick, each ``deal_started`` begins a deal. At a version,
every trick completed so far except the last one is hidden; a shown event names a hidden
card when it names ``(deal, card)`` or ``(deal, seat, slot)`` of a hidden trick (cards are
dealt anew each deal, so the same card in another deal is another matter).
"""

from __future__ import annotations

import re
from typing import Any

from app.games.luz.describe import card_text

Log = list[list[dict[str, Any]]]
"""Each version's events (index = version; version 0 has none)."""


def deals(log: Log) -> dict[tuple[int, int], int]:
    """The deal every logged event belongs to, keyed by (version, index)."""
    deal = 0
    out: dict[tuple[int, int], int] = {}
    for version, events in enumerate(log):
        for index, event in enumerate(events):
            if event["type"] == "deal_started":
                deal = event["deal"]
            out[version, index] = deal
    return out


def deal_after(log: Log) -> list[int]:
    """The deal under way after each version."""
    deal, out = 0, []
    for events in log:
        for event in events:
            if event["type"] == "deal_started":
                deal = event["deal"]
        out.append(deal)
    return out


def hidden(log: Log, upto: int) -> tuple[set[Any], set[Any]]:
    """(deal, card) and (deal, seat, slot) of every trick completed by ``upto`` but the last."""
    where = deals(log)
    done = [
        (where[v, i], e)
        for v in range(min(upto, len(log) - 1) + 1)
        for i, e in enumerate(log[v])
        if e["type"] == "trick_won"
    ]
    cards = {(deal, p["card"]) for deal, e in done[:-1] for p in e["cards"]}
    slots = {(deal, p["seat"], p["slot"]) for deal, e in done[:-1] for p in e["cards"]}
    return cards, slots


def last_done(log: Log, upto: int) -> tuple[tuple[int, int], int, dict[str, Any]] | None:
    """((version, index), deal, event) of the last trick_won logged by ``upto``."""
    where = deals(log)
    for v in range(upto, 0, -1):
        for i in range(len(log[v]) - 1, -1, -1):
            if log[v][i]["type"] == "trick_won":
                return (v, i), where[v, i], log[v][i]
    return None


def named(event: dict[str, Any]) -> tuple[list[str], list[tuple[int, int]]]:
    """The cards and the (seat, slot)s an event names."""
    kind = event["type"]
    if kind == "card_played":
        return [event["card"]], [(event["seat"], event["slot"])]
    if kind == "trick_won":
        return [p["card"] for p in event["cards"]], [(p["seat"], p["slot"]) for p in event["cards"]]
    if kind == "hand_shown":
        return [c["card"] for c in event["cards"]], [
            (event["seat"], c["slot"]) for c in event["cards"]
        ]
    if kind == "hands_dealt":
        return [], [(h["seat"], s["slot"]) for h in event["hands"] for s in h["slots"]]
    return [], []


def leaks(
    log: Log, upto: int, shown: list[dict[str, Any]], *, since: int = 0
) -> list[dict[str, Any]]:
    """The shown events (each with its ``version``, in log order, after ``since``) that name a
    card, a slot or (in their ``text``) a card of a trick hidden at version ``upto``."""
    cards, slots = hidden(log, upto)
    after = deal_after(log)
    out: list[dict[str, Any]] = []
    deal, version = 0, -1
    for event in shown:
        if event["version"] != version:
            version = event["version"]
            deal = after[version - 1] if version > 0 else 0
        if event["type"] == "deal_started":
            deal = event["deal"]
        names, places = named(event)
        bad = {(deal, c) for c in names} & cards or {(deal, *s) for s in places} & slots
        text = event.get("text")
        if not bad and isinstance(text, str):
            bad = {
                (d, c)
                for d, c in cards
                if d == deal
                and any(
                    re.search(rf"\b{re.escape(words)}\b", text)
                    for words in (c, card_text(c, "en"), card_text(c, "es"))
                )
            }
        if bad:
            out.append(event)
    return out
