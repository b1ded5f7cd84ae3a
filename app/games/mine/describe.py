"""What people read about every MINE! action, event and result, as catalogue messages.

A line never says more than the item carries: a public ``card_placed`` names no card.
Directors are named by their colour's neutral name (director k plays colour ck, §2.4:
red, blue, green, yellow, purple, orange). The seed's towns are the game's partner towns,
not colour names, so no line names a town. Scoring events (raids, sales, extraction, the end)
answer several lines, one per step, so a player can follow the numbers.

Python decides which key and which numbers; the words are in
``static/i18n/games/mine.<lang>.json`` (``mine.line.*`` for whole lines, ``mine.text.*`` for
their parts, and the board's own ``mine.kind.*``, ``mine.loc.*`` and ``mine.stat.*``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from pydantic import BaseModel

from app.games.base import Locale, Result, by_seat
from app.games.messages import Message, Param, SeatRef, items, lines, msg, render
from app.games.mine import events as ev
from app.games.mine.actions import DiscardCard, PassTurn, PlaceCard
from app.games.mine.data import ATK, CARDS, DEF, N_COLOURS

Namer = Callable[[int], Param]


def _who(d: int) -> Param:
    """Director d: "Rojo", by the name of its colour (§2.4), or its player's name where the
    reader knows it (the dummy director has none)."""
    if not 0 <= d < N_COLOURS:
        return d
    return SeatRef(d, label=msg(f"mine.text.director.c{d}"))


def _loc(location: str) -> Message:
    return msg(f"mine.loc.{location}")


def _card(card: int) -> Message:
    """ "Minero 3": the card's kind and its id."""
    return msg("mine.text.card", kind=msg(f"mine.kind.{CARDS[card].kind}"), id=card)


def _cards(cards: Sequence[int]) -> Param:
    return items(_card(c) for c in cards) if cards else "—"


def _valued(cards: Sequence[int], values: tuple[int, ...], stat: str) -> Param:
    """ "Minero 3 (ATQ 2) + Matón 55 (ATQ 3)": each card with the value that counts there."""
    return items(
        (
            msg("mine.text.valued", card=_card(c), stat=msg(f"mine.stat.{stat}"), value=values[c])
            for c in cards
        ),
        " + ",
    )


def _lines(parts: Sequence[Message | None]) -> Message:
    return lines(p for p in parts if p is not None)


def message(item: BaseModel) -> Message:
    """The log line(s) for an action or event, or how a Result's ties were broken."""
    if isinstance(item, Result):
        return _result_ties(item)
    if isinstance(item, PlaceCard | PassTurn | DiscardCard):
        return _action(item)
    if isinstance(item, ev.RaidSettled):
        return _raid(item)
    if isinstance(item, ev.CoalSold):
        return _sale(item)
    if isinstance(item, ev.CoalExtracted):
        return _extraction(item)
    if isinstance(item, ev.GameEnded):
        return _game_ended(item)
    return _event(item)


def describe(item: BaseModel, locale: Locale = "en") -> str:
    """Return the log line(s) for an action or event.

    >>> describe(PlaceCard(card=3, location="mine"), "es")
    'coloca Minero 3 en Mina'
    """
    return render(message(item), locale)


def _action(item: PlaceCard | PassTurn | DiscardCard) -> Message:
    if isinstance(item, PlaceCard):
        where, c = _loc(item.location), _card(item.card)
        if item.victim is not None:
            return msg("mine.line.place.raid", card=c, where=where, victim=_who(item.victim))
        return msg("mine.line.place", card=c, where=where)
    if isinstance(item, PassTurn):
        return msg("mine.line.pass")
    return msg("mine.line.discard", card=_card(item.card))


def _raid(item: ev.RaidSettled) -> Message:
    """Every step of one raid (§5.5): the stack, the watchtower, the outcome, the coal moved."""
    r, v = _who(item.raider), _who(item.victim)
    atk, dfc = item.attack, item.defence
    out: list[Message | None] = []
    if item.cards:
        stack = _valued(item.cards, ATK, "atk")
        out.append(msg("mine.line.raid_settled.stack", raider=r, victim=v, stack=stack, attack=atk))
    else:
        out.append(msg("mine.line.raid_settled.attack", raider=r, victim=v, attack=atk))
    if item.outcome == "cancelled":
        out.append(msg("mine.line.raid_settled.cancelled", victim=v))
        return _lines(out)
    if item.guards:
        guards = _valued(item.guards, DEF, "def")
        out.append(msg("mine.line.raid_settled.guards", victim=v, guards=guards, defence=dfc))
    elif item.cards:  # new-style event: no guards means an empty Watchtower
        out.append(msg("mine.line.raid_settled.no_guard", victim=v))
    if item.outcome == "failed":
        out.append(msg("mine.line.raid_settled.failed", attack=atk, defence=dfc))
        return _lines(out)
    out.append(msg("mine.line.raid_settled.succeeded", attack=atk, defence=dfc, claim=item.claim))
    if item.stock is not None and item.available is not None:
        avail, claim = item.available, item.claim
        if avail == item.stock:
            out.append(msg("mine.line.raid_settled.stock", victim=v, stock=item.stock))
        else:
            out.append(
                msg(
                    "mine.line.raid_settled.stock_left", victim=v, stock=item.stock, available=avail
                )
            )
        if item.tied_with:
            k = len(item.tied_with) + 1
            others = items(_who(t) for t in item.tied_with)
            if k * claim <= avail:
                out.append(
                    msg(
                        "mine.line.raid_settled.tied",
                        others=others,
                        k=k,
                        claim=claim,
                        available=avail,
                    )
                )
            else:
                out.append(
                    msg(
                        "mine.line.raid_settled.tied_short",
                        others=others,
                        k=k,
                        claim=claim,
                        available=avail,
                        taken=item.taken,
                    )
                )
        elif item.taken < claim:
            out.append(
                msg("mine.line.raid_settled.short", available=avail, taken=item.taken, claim=claim)
            )
    out.append(msg("mine.line.raid_settled.takes", raider=r, victim=v, taken=item.taken))
    return _lines(out)


def _sale(item: ev.CoalSold) -> Message:
    """The Expedition of one director (§5.6): the sale limit, then coal sold = points scored."""
    who = _who(item.director)
    before_stock, before_score = item.stock + item.sold, item.score - item.sold
    out: list[Message | None] = [msg("mine.line.coal_sold", director=who, sold=item.sold)]
    if item.base_limit is not None:
        parts = [msg("mine.text.limit.round", n=item.base_limit)]
        if item.big_order:
            parts.append(msg("mine.text.limit.big_order"))
        if item.cage_breakdown:
            parts.append(msg("mine.text.limit.cage_breakdown"))
        limit = (
            msg("mine.text.limit.sum", parts=items(parts, " "), limit=item.limit)
            if len(parts) > 1
            else parts[0]
        )
        out.append(msg("mine.line.coal_sold.limit", limit=limit))
    out.append(
        msg(
            "mine.line.coal_sold.sells",
            before_stock=before_stock,
            limit=item.limit,
            sold=item.sold,
            before_score=before_score,
            score=item.score,
            stock=item.stock,
        )
    )
    return _lines(out)


def _extraction(item: ev.CoalExtracted) -> Message:
    """The Mine of one director (§5.8), modifier by modifier, then what the supply gave."""
    who = _who(item.director)
    if item.base == 0 and not item.blasted and item.taken == 0:
        return msg("mine.line.coal_extracted.nothing", director=who)
    out: list[Message | None] = [msg("mine.line.coal_extracted", director=who, base=item.base)]
    shoring = _shoring(item)
    if item.blasted:
        if shoring:
            out.append(
                msg("mine.line.coal_extracted.blasted_shored", shoring=shoring, n=item.firedamp)
            )
        else:
            out.append(msg("mine.line.coal_extracted.blasted"))
        return _lines(out)
    if item.firedamp and shoring:
        out.append(msg("mine.line.coal_extracted.safe", shoring=shoring, n=item.firedamp))
    value = item.base
    if item.rich_seam:
        out.append(msg("mine.line.coal_extracted.rich_seam", value=value, total=value + 2))
        value += 2
    if item.strike:
        out.append(msg("mine.line.coal_extracted.strike", value=value, half=value // 2))
        value //= 2
    if item.mine_max is not None and value > item.mine_max:
        out.append(msg("mine.line.coal_extracted.mine_max", n=item.mine_max))
    took = item.taken - item.created - item.from_box
    ext, supply = item.extraction, item.supply
    if item.created or item.from_box:
        out.append(
            msg(
                "mine.line.coal_extracted.dummy",
                extraction=ext,
                took=took,
                box=item.from_box,
                created=item.created,
                supply=supply,
            )
        )
    elif item.taken < ext:
        out.append(
            msg("mine.line.coal_extracted.short", extraction=ext, taken=item.taken, supply=supply)
        )
    else:
        out.append(
            msg("mine.line.coal_extracted.takes", extraction=ext, taken=item.taken, supply=supply)
        )
    return _lines(out)


def _shoring(item: ev.CoalExtracted) -> Message | None:
    """ "Firedamp ×2: 1 pit builder at the Mine, ×2 with Safety Lamp, protects against 2":
    the sum of §5.8 step 2 (None for an event stored without the pit builders)."""
    if item.pit_builders is None or not item.firedamp:
        return None
    pb = item.pit_builders
    protected = item.protected
    if protected is None:  # stored before the field: the lamp then meant "never blasted"
        protected = pb * (2 if item.safety_lamp else 1)
    return msg(
        "mine.text.shoring.lamp" if item.safety_lamp else "mine.text.shoring",
        firedamp=item.firedamp,
        pit_builders=pb,
        protected=protected,
    )


def _namer(item: ev.GameEnded) -> Namer:
    """How the end names a director: its colour, and whether it is the dummy."""

    def name(d: int) -> Param:
        if item.dummy is not None and d == item.dummy:
            return msg("mine.text.dummy_named", director=_who(d))
        return _who(d)

    return name


def _game_ended(item: ev.GameEnded) -> Message:
    """The end (§6): why, then each place with its keys, then how every tie was broken."""
    name = _namer(item)
    if item.reason == "score_21":
        head = (
            msg("mine.line.game_ended.score_21_round", round=item.round)
            if item.round
            else msg("mine.line.game_ended.score_21")
        )
    else:
        head = msg("mine.line.game_ended.round_6")
    out: list[Message | None] = [head]
    has_stocks = len(item.stocks) == len(item.scores)
    for place, d in enumerate(item.ranking, start=1):
        score = item.scores[d]
        if has_stocks:
            out.append(
                msg(
                    "mine.line.game_ended.place_stock",
                    place=place,
                    director=name(d),
                    score=score,
                    stock=item.stocks[d],
                )
            )
        else:
            out.append(
                msg("mine.line.game_ended.place", place=place, director=name(d), score=score)
            )
    if has_stocks:
        out += _tie_lines(item, name)
    elif item.tiebreak:
        out.append(msg("mine.line.game_ended.tiebreak", text=item.tiebreak))
    if item.dummy is not None and item.ranking and item.ranking[0] == item.dummy:
        out.append(msg("mine.line.game_ended.dummy_first"))
    return _lines(out)


def _tie_lines(item: ev.GameEnded, name: Namer) -> list[Message | None]:
    """For each pair of neighbours in the final order, how their tie was broken (None if none)."""
    return [_tie_line(item, a, b, name) for a, b in itertools.pairwise(item.ranking)]


def _result_ties(result: Result) -> Message:
    """How the Result's ties were broken, told as the end's log line tells them."""
    item = _ended(result)
    return _lines(_tie_lines(item, _namer(item)))


def _ended(result: Result) -> ev.GameEnded:
    """The game_ended event's facts, rebuilt from the Result: the dummy (director n_seats,
    left out of the ranking) back in its place, and the tie-break keys from ``details``."""
    details = result.details
    seats = sorted(result.scores)
    order = list(result.ranking)
    scores = [result.scores[d] for d in seats]
    stocks_by = by_seat(details.get("stocks", {}))
    stocks = [stocks_by.get(d, 0) for d in seats]
    dummy = details.get("dummy")
    dummy_index = None
    if isinstance(dummy, dict):
        dummy_index = len(seats)
        scores.append(dummy["score"])
        stocks.append(dummy["stock"])
        order.insert(dummy["place"] - 1, dummy_index)
    professions = by_seat(details.get("professions", {}))
    return ev.GameEnded(
        reason=details.get("reason", "round_6"),
        ranking=tuple(order),
        scores=tuple(scores),
        dummy=dummy_index,
        stocks=tuple(stocks),
        professions=tuple(professions.get(d) for d in range(len(scores))),
        rolls=tuple(
            tuple(ev.DieRoll(director=r["director"], value=r["value"]) for r in group)
            for group in details.get("rolls", [])
        ),
    )


def _tie_line(item: ev.GameEnded, a: int, b: int, name: Namer) -> Message | None:
    """Which key of §6 put ``a`` before ``b`` when they tied on score (None if they did not)."""
    if item.scores[a] != item.scores[b]:
        return None
    na, nb, score = name(a), name(b), item.scores[a]
    if item.stocks[a] != item.stocks[b]:
        return msg(
            "mine.line.game_ended.tie_stock",
            a=na,
            b=nb,
            score=score,
            stock_a=item.stocks[a],
            stock_b=item.stocks[b],
        )
    pa = item.professions[a] if a < len(item.professions) else None
    pb = item.professions[b] if b < len(item.professions) else None
    if pa is not None and pb is not None and pa != pb:
        return msg(
            "mine.line.game_ended.tie_professions",
            a=na,
            b=nb,
            score=score,
            stock=item.stocks[a],
            professions_a=pa,
            professions_b=pb,
        )
    rolls: list[Message] = []
    for group in item.rolls:
        values = {r.director: r.value for r in group}
        if a in values and b in values:
            rolls.append(msg("mine.text.roll", a=values[a], b=values[b]))
    seq: Param | None = None
    for roll in reversed(rolls):  # "4–4, then 5–2": each roll then the ones after it
        seq = roll if seq is None else msg("mine.text.then", first=roll, rest=seq)
    return msg("mine.line.game_ended.tie_dice", a=na, b=nb, rolls="—" if seq is None else seq)


def _event(item: BaseModel) -> Message:
    if isinstance(item, ev.RoundStarted):
        holder = _who(item.die_holder)
        # (a die card always comes with both limits; numbers stay numbers in the message)
        if item.die_card is not None and item.mine_max is not None and item.sale_max is not None:
            return msg(
                "mine.line.round_started.die_card",
                round=item.round,
                holder=holder,
                card=item.die_card,
                mine_max=item.mine_max,
                sale_max=item.sale_max,
            )
        return msg("mine.line.round_started", round=item.round, holder=holder)
    if isinstance(item, ev.CardPlaced):
        who = _who(item.director)
        if item.dummy:
            who = msg("mine.text.dummy_named", director=who)
        where = _loc(item.location)
        if item.victim is not None:
            key = (
                "mine.line.card_placed.raid_opened"
                if item.stack_opened
                else "mine.line.card_placed.raid"
            )
            return msg(key, director=who, where=where, victim=_who(item.victim))
        return msg("mine.line.card_placed", director=who, where=where)
    if isinstance(item, ev.OwnCardPlaced):
        return msg("mine.line.own_card_placed", card=_card(item.card), where=_loc(item.location))
    if isinstance(item, ev.PlacementPassed):
        return msg(f"mine.line.placement_passed.{item.reason}", director=_who(item.director))
    if isinstance(item, ev.CardsRevealed):
        where = _loc(item.location)
        if not item.cards:
            return msg("mine.line.cards_revealed.none", where=where)
        parts = [
            msg("mine.text.revealed", director=_who(rc.director), card=_card(rc.card))
            if rc.victim is None
            else msg(
                "mine.text.revealed.raid",
                director=_who(rc.director),
                card=_card(rc.card),
                victim=_who(rc.victim),
            )
            for rc in item.cards
        ]
        return msg("mine.line.cards_revealed", where=where, cards=items(parts, "; "))
    if isinstance(item, ev.FiredampCounted):
        if item.firedamp:
            return msg("mine.line.firedamp_counted", n=item.firedamp)
        return msg("mine.line.firedamp_counted.none")
    if isinstance(item, ev.StocksLooted):
        pairs = items(
            msg("mine.text.stock_change", director=_who(i), before=b, after=a)
            for i, (b, a) in enumerate(zip(item.before, item.after, strict=True))
            if a != b
        )
        return msg("mine.line.stocks_looted", changes=pairs)
    if isinstance(item, ev.DrawPileReshuffled):
        return msg("mine.line.draw_pile_reshuffled", n=item.cards)
    if isinstance(item, ev.CardsDrawn):
        return msg(
            "mine.line.cards_drawn", director=_who(item.director), n=item.count, wanted=item.wanted
        )
    if isinstance(item, ev.CardsReceived):
        return msg("mine.line.cards_received", cards=_cards(item.cards))
    if isinstance(item, ev.DummyEventReplaced):
        return msg(
            "mine.line.dummy_event_replaced", director=_who(item.director), card=_card(item.card)
        )
    if isinstance(item, ev.CardDiscarded):
        key = "mine.line.card_discarded.automatic" if item.automatic else "mine.line.card_discarded"
        return msg(key, director=_who(item.director), card=_card(item.card))
    if isinstance(item, ev.RoundCleanedUp):
        n = len(item.discarded)
        if item.next_die_holder is None:
            return msg("mine.line.round_cleaned_up.last", round=item.round, n=n)
        return msg(
            "mine.line.round_cleaned_up", round=item.round, n=n, holder=_who(item.next_die_holder)
        )
    return msg("mine.line.unknown", type=type(item).__name__)


__all__ = ["describe", "message"]
