"""What people read about every Glück Auf action, event and result, as catalogue messages.

The words are in ``static/i18n/games/gluckauf.<lang>.json``: the board's own names
(``gluckauf.colour.*``, ``gluckauf.space.*``, ``gluckauf.tile_name_*``, ...), the lines
(``gluckauf.line.*``), their parts (``gluckauf.text.*``) and the result's ties
(``gluckauf.result.*``); this module only decides which message and with which numbers.
A line never reveals more than the item itself carries: private events (draw-5 contents,
return order) are only ever shown to the seat they are addressed to. Scorings span several
lines, one per step, so a player can follow how the points came about (§8.1, §9).
"""

from __future__ import annotations

from pydantic import BaseModel

from app.games.base import Locale, Result, by_seat
from app.games.messages import Message, Param, SeatRef, items, lines, msg, render

from . import actions as a
from . import events as ev
from .data import ORDERS, TILES, Category, categories_for_shift

# --------------------------------------------------------------------------- names


def _colour(c: str) -> Message:
    return msg(f"gluckauf.colour.{c}")


def _transport(t: str) -> Message:
    return msg(f"gluckauf.transport.{t}")


def _tile(t: int) -> Message:
    tile = TILES[t]
    return msg(
        f"gluckauf.tile_name_{tile.carts}",
        colour=_colour(tile.colour),
        side=msg(f"gluckauf.side.{tile.side}"),
    )


def _order(o: int) -> Message:
    card = ORDERS[o]
    return msg(
        "gluckauf.order_name",
        code=card.code,
        transport=_transport(card.transport),
        coal=items((msg(f"gluckauf.letter.{c}") for c in card.spots), ""),
        vp=card.vp,
    )


def _code(o: int) -> str:
    """An order's printed code ("W09"): the same in every language."""
    return ORDERS[o].code


def _item(kind: str, item: int) -> Message:
    return _tile(item) if kind == "tile" else _order(item)


def _items(kind: str, values: list[int]) -> Param:
    return items((_item(kind, i) for i in values), "; ")


def _seats(seats: list[int]) -> Param:
    """One seat, or "A, B and C" (a list read with ``{x, seat, cap}``)."""
    if len(seats) < 2:
        return items(SeatRef(s) for s in seats)
    return msg(
        "gluckauf.text.seats_and",
        first=items(SeatRef(s) for s in seats[:-1]),
        last=SeatRef(seats[-1]),
    )


def _seat_number(seat: int, n: int) -> Message:
    """A seat and a number of its, as in "Seat 2 3"."""
    return msg("gluckauf.text.seat_number", seat=SeatRef(seat), n=n)


def _level(level: int) -> Message:
    if level == 0:
        return msg("gluckauf.surface")
    return msg("gluckauf.level_n", n=level)


def _space(space: str) -> Message:
    """The space as the board names it (gluckauf.space.* keys)."""
    if space == "FACT-DRAW":
        return msg("gluckauf.space.fact_draw")
    if space == "ORDER-DRAW":
        return msg("gluckauf.space.order_draw")
    if space == "BANK":
        return msg("gluckauf.space.bank")
    group, value = space.split("-")
    if group == "DELIV":
        return msg("gluckauf.space.deliv", transport=_transport(value))
    # The space's number is a number in the message (issue 35), as every count is.
    return msg(f"gluckauf.space.{group.lower()}", n=int(value) if value.isdigit() else value)


def _category(cat: Category) -> Message:
    if cat.kind == "colour":
        return msg("gluckauf.cat.colour", colour=_colour(cat.key))
    if cat.kind == "transport":
        return msg("gluckauf.text.category.transport", transport=_transport(cat.key))
    # The colour agrees with "carts" (Spanish: "vagonetas amarillas vacías").
    return msg("gluckauf.text.category.empty", colour=msg(f"gluckauf.text.cart_colour.{cat.key}"))


# --------------------------------------------------------------------------- entry points


def message(item: BaseModel) -> Message:
    """The log line (several for scorings) of an action or an event of this game.

    For the game's Result: how each tie on VP was settled (one line per tie), or none.
    """
    if isinstance(item, Result):
        return _result_ties(item)
    line = _action(item)
    if line is not None:
        return line
    return _event(item)


def describe(item: BaseModel, locale: Locale = "en") -> str:
    """:func:`message` as text in ``locale``, seats by number."""
    return render(message(item), locale)


def _action(item: BaseModel) -> Message | None:
    key = f"gluckauf.line.{getattr(item, 'type', '')}"
    if isinstance(item, a.DraftOrder):
        return msg(key, order=_order(item.card))
    if isinstance(item, a.PlaceWorker):
        return msg(key, space=_space(item.space))
    if isinstance(item, a.ChooseCoal):
        return msg(key, colour=_colour(item.colour))
    if isinstance(item, a.KeepItem):
        if item.item is None:
            return msg(f"{key}.none")
        return msg(key, item=item.item)
    if isinstance(item, a.ChooseEnd):
        return msg(key, end=item.end)
    if isinstance(item, a.ReturnItem):
        return msg(key, item=item.item)
    if isinstance(item, a.MoveCage):
        return msg(key, level=_level(item.level))
    if isinstance(item, a.LoadCube | a.StoreCube):
        return msg(key, colour=_colour(item.colour))
    if isinstance(item, a.UnloadCube | a.PlaceStoredCube | a.StartTwoForOne):
        return msg(key, colour=_colour(item.colour), order=_code(item.order))
    if isinstance(item, a.AddCube):
        return msg(key, colour=_colour(item.colour), source=item.source)
    if isinstance(item, a.StopMining):
        return msg(key)
    return None


def _event(item: BaseModel) -> Message:
    key = f"gluckauf.line.{getattr(item, 'type', '')}"
    if isinstance(item, ev.OrderDrafted | ev.OrderTaken):
        return msg(key, seat=SeatRef(item.seat), order=_order(item.card))
    if isinstance(item, ev.FactoryLaidOut):
        tiles = items(
            (
                msg("gluckauf.text.space_item", space=_space(k), item=_tile(v))
                for k, v in item.tiles.items()
            ),
            "; ",
        )
        return msg(key, tiles=tiles)
    if isinstance(item, ev.StartingPlayerDrawn):
        return msg(f"{key}.{'drawn' if item.drawn else 'fixed'}", seat=SeatRef(item.seat))
    if isinstance(item, ev.DraftDisplayLaidOut):
        return msg(key, cards=items(_order(c) for c in item.cards), n=len(item.cards))
    if isinstance(item, ev.OrderSpacesFilled):
        cards = items(
            (
                msg("gluckauf.text.space_item", space=_space(k), item=_order(v))
                for k, v in item.cards.items()
            ),
            "; ",
        )
        return msg(key, cards=cards)
    if isinstance(item, ev.WorkerPlaced):
        seat, space, n = SeatRef(item.seat), _space(item.space), item.count
        if item.ousted_seat is None:
            return msg(key, seat=seat, count=n, space=space)
        return msg(
            f"{key}.ousted",
            seat=seat,
            count=n,
            space=space,
            ousted=SeatRef(item.ousted_seat),
            ousted_count=item.ousted_count,
        )
    if isinstance(item, ev.TileBought):
        return msg(key, seat=SeatRef(item.seat), tile=_tile(item.tile), cost=item.cost)
    if isinstance(item, ev.CoalSubstituted):
        if item.colour is None:
            return msg(f"{key}.none", seat=SeatRef(item.seat))
        return msg(key, seat=SeatRef(item.seat), colour=_colour(item.colour))
    if isinstance(item, ev.ItemsDrawn):
        return msg(key, seat=SeatRef(item.seat), count=item.count, kind=item.kind)
    if isinstance(item, ev.ItemsSeen | ev.ItemsReturnedPrivately):
        return msg(key, items=_items(item.kind, item.items))
    if isinstance(item, ev.ItemKept):
        if item.item is None:
            return msg(f"{key}.none", seat=SeatRef(item.seat))
        return msg(key, seat=SeatRef(item.seat), item=_item(item.kind, item.item))
    if isinstance(item, ev.ItemsReturned):
        if item.end is None:
            return msg(f"{key}.no_end", seat=SeatRef(item.seat), count=item.count)
        return msg(key, seat=SeatRef(item.seat), count=item.count, end=item.end)
    if isinstance(item, ev.MoneyGained):
        return msg(key, seat=SeatRef(item.seat), amount=item.amount)
    if isinstance(item, ev.MiningStarted):
        return msg(key, seat=SeatRef(item.seat), steps=item.steps)
    if isinstance(item, ev.CageMoved):
        level = _level(item.to_level)
        return msg(key, seat=SeatRef(item.seat), level=level, left=item.steps_left)
    if isinstance(item, ev.CubeLoaded):
        colour = _colour(item.colour)
        return msg(
            key, seat=SeatRef(item.seat), colour=colour, level=item.level, left=item.steps_left
        )
    if isinstance(item, ev.CubeUnloaded | ev.StoredCubePlaced):
        colour, order = _colour(item.colour), _code(item.order)
        return msg(key, seat=SeatRef(item.seat), colour=colour, order=order, left=item.steps_left)
    if isinstance(item, ev.CubeStored):
        colour = _colour(item.colour)
        return msg(key, seat=SeatRef(item.seat), colour=colour, left=item.steps_left)
    if isinstance(item, ev.TwoForOneStarted):
        colour, order = _colour(item.colour), _code(item.order)
        return msg(key, seat=SeatRef(item.seat), colour=colour, order=order)
    if isinstance(item, ev.CubeAdded):
        colour = _colour(item.colour)
        return msg(
            key, seat=SeatRef(item.seat), colour=colour, source=item.source, left=item.steps_left
        )
    if isinstance(item, ev.MiningEnded):
        return msg(key, seat=SeatRef(item.seat), lost=item.steps_lost)
    if isinstance(item, ev.OrdersDelivered):
        cards = items(items((_code(c), ORDERS[c].vp), " ") for c in item.cards)
        transport = _transport(item.transport)
        return msg(key, seat=SeatRef(item.seat), transport=transport, cards=cards, vp=item.vp)
    if isinstance(item, ev.SpaceRefilled):
        name = _tile(item.item) if item.space.startswith("FACT") else _order(item.item)
        return msg(key, space=_space(item.space), item=name)
    if isinstance(item, ev.ShiftScored):
        return _shift_scored(item)
    if isinstance(item, ev.StartingPlayerChosen):
        if not item.factory_workers:
            # The setup's choice (§4 step 6): drawn or fixed by the host, no factory count.
            return msg(f"{key}.setup", seat=SeatRef(item.seat))
        counts = items(_seat_number(s, n) for s, n in item.factory_workers.items())
        return msg(key, seat=SeatRef(item.seat), counts=counts)
    if isinstance(item, ev.ShiftStarted):
        return msg(key, shift=item.shift, seat=SeatRef(item.starting_player))
    if isinstance(item, ev.FinalScored):
        return _final_scored(item)
    if isinstance(item, ev.GameEnded):
        return _game_ended(item)
    raise TypeError(f"describe: unknown item {type(item).__name__}")


# --------------------------------------------------------------------------- scorings


def _shift_scored(item: ev.ShiftScored) -> Message:
    """A headline with each seat's gain, then one line per category (§8.1 step 4)."""
    totals = items(
        msg("gluckauf.text.seat_gain", seat=SeatRef(s), vp=v)
        for s, v in sorted(item.totals.items())
    )
    head = msg("gluckauf.line.shift_scored", shift=item.shift, totals=totals)
    two_players = len(item.totals) == 2
    rows = [
        _category_line(
            cat, item.counts.get(cat.number, {}), item.awards.get(cat.number, {}), two_players
        )
        for cat in categories_for_shift(item.shift)
    ]
    return lines([head, *rows])


def _category_line(
    cat: Category, counts: dict[int, int], awards: dict[int, int], two_players: bool
) -> Message:
    if two_players:
        prizes = msg("gluckauf.text.prizes.first", first=cat.first)
    else:
        prizes = msg("gluckauf.text.prizes.both", first=cat.first, second=cat.second)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    listed = items(_seat_number(s, n) for s, n in ranked)

    def line(outcome: Message) -> Message:
        return msg(
            "gluckauf.text.category_line",
            number=cat.number,
            category=_category(cat),
            prizes=prizes,
            counts=listed,
            outcome=outcome,
        )

    positive = {s: n for s, n in counts.items() if n > 0}
    if not positive:
        return line(msg("gluckauf.text.outcome.nobody"))
    top = max(positive.values())
    leaders = sorted(s for s, n in positive.items() if n == top)
    first_vp = awards.get(leaders[0], cat.first)
    if len(leaders) > 1:
        return line(msg("gluckauf.text.outcome.tie", seats=_seats(leaders), vp=first_vp))
    first = SeatRef(leaders[0])
    seconds = sorted(s for s, v in awards.items() if s not in leaders and v > 0)
    if seconds:
        return line(
            msg(
                "gluckauf.text.outcome.second",
                first=first,
                first_vp=first_vp,
                seconds=_seats(seconds),
                count=len(seconds),
                vp=awards[seconds[0]],
            )
        )
    variant = "two_players" if two_players else "alone"
    return line(msg(f"gluckauf.text.outcome.{variant}", first=first, first_vp=first_vp))


def _final_scored(item: ev.FinalScored) -> Message:
    """The four steps of §9 for one seat, each with the count behind it when known."""
    before = item.vp_before
    if before is None:
        before = (
            item.total - item.money_vp - item.coal_vp - item.order_penalty - item.imbalance_penalty
        )
    money = item.money if item.money is not None else 5 * item.money_vp + item.money_left
    if item.cubes is not None:
        cubes = msg("gluckauf.text.final.cubes", n=item.cubes)
    else:
        cubes = msg("gluckauf.text.final.cubes_uncounted")
    if item.light_tiles is not None and item.dark_tiles is not None:
        sides = msg("gluckauf.text.final.sides", light=item.light_tiles, dark=item.dark_tiles)
    else:
        sides = msg("gluckauf.text.final.sides_apart", n=-item.imbalance_penalty // 2)
    return lines(
        [
            msg(
                "gluckauf.line.final_scored",
                seat=SeatRef(item.seat),
                before=before,
                total=item.total,
            ),
            msg(
                "gluckauf.text.final.money",
                money=money,
                vp=item.money_vp,
                left=item.money_left,
            ),
            msg("gluckauf.text.final.coal", cubes=cubes, vp=item.coal_vp),
            msg("gluckauf.text.final.orders", open=-item.order_penalty, vp=item.order_penalty),
            msg("gluckauf.text.final.imbalance", sides=sides, vp=item.imbalance_penalty),
        ]
    )


def _game_ended(item: ev.GameEnded) -> Message:
    """The ranking, then how each tie on VP was settled by the Marks left over (§9)."""
    places = item.places
    if not places:
        places = {}
        for i, seat in enumerate(item.ranking):
            prev = item.ranking[i - 1] if i else None
            same = (
                prev is not None
                and item.scores.get(prev) == item.scores.get(seat)
                and item.money_left.get(prev) == item.money_left.get(seat)
                and bool(item.money_left)
            )
            places[seat] = places[prev] if same and prev is not None else i + 1
    ranking = items(
        msg(
            "gluckauf.text.rank",
            place=places.get(s, i + 1),
            seat=SeatRef(s),
            vp=item.scores.get(s, 0),
        )
        for i, s in enumerate(item.ranking)
    )
    out: list[Message] = [msg("gluckauf.line.game_ended", ranking=ranking)]
    if item.money_left:
        ties = _tie_lines(item.scores, item.ranking, item.money_left)
        out += [msg("gluckauf.text.bullet", line=line) for line in ties]
    elif any(list(item.scores.values()).count(v) > 1 for v in item.scores.values()):
        # Events stored before money_left existed: their tie-break as the engine wrote it.
        out.append(msg("gluckauf.text.bullet", line=item.tiebreak))
    return lines(out)


def _tie_lines(
    scores: dict[int, int], ranking: list[int], money_left: dict[int, int]
) -> list[Message]:
    """One line per tie on VP: the Marks left over decide, equal Marks share the place (§9)."""
    out: list[Message] = []
    for score in sorted(set(scores.values()), reverse=True):
        tied = [s for s in ranking if scores.get(s) == score]
        if len(tied) < 2:
            continue
        by_marks: dict[int, list[int]] = {}
        for s in tied:
            by_marks.setdefault(money_left.get(s, 0), []).append(s)
        shared = items(
            (
                msg("gluckauf.result.shared", seats=_seats(sorted(group)))
                for group in by_marks.values()
                if len(group) > 1
            ),
            "",
        )
        marks = items(_seat_number(s, money_left.get(s, 0)) for s in tied)
        out.append(msg("gluckauf.result.tie", vp=score, marks=marks, shared=shared))
    return out


def _result_ties(result: Result) -> Message:
    """The Result's ties, from the leftover Marks each seat's final scoring kept."""
    final = by_seat(result.details.get("final", {}))
    money_left = {seat: int(f.get("money_left", 0)) for seat, f in final.items()}
    return lines(_tie_lines(result.scores, result.ranking, money_left))


__all__ = ["describe", "message"]
