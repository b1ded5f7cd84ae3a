"""What people read about every Ginkgopolis action, event and result, as catalogue messages.

Python decides which message and with which numbers; the words live only in
``static/i18n/games/ginkgopolis.<lang>.json`` (``ginkgopolis.line.*`` for actions and
events, ``ginkgopolis.text.*`` for their parts, ``ginkgopolis.result.*`` for the result),
which the server renders for ``?lang=`` and the browser renders the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from app.games.base import Locale, Result
from app.games.messages import Message, Param, SeatRef, items, lines, msg, render

from . import actions as A
from . import data as D
from . import events as E

#: Column letter "a" and row number 1 sit this far left of and below the centre tile (0, 0):
#: the centre is h8, the nine starting tiles g7-i9. Cities stay within about six cells of the
#: centre, so in play every name is one letter and a small number.
CELL_ORIGIN = 8


def _column(index: int) -> str:
    """Column 1 is "a", 26 "z", 27 "aa" (as a spreadsheet counts); left of "a", a minus sign."""
    if index < 1:
        return "-" + _column(1 - index)
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def cell_name(c: tuple[int, int]) -> str:
    """The name the board prints on its edges for a cell: column letter, then row number
    (rows count upwards, as y does): ``cell_name((0, 0)) == "h8"``. The board
    (static/js/games/ginkgopolis.js) names cells the same way."""
    return f"{_column(c[0] + CELL_ORIGIN)}{c[1] + CELL_ORIGIN}"


# --------------------------------------------------------------------------- parts


def _who(player: int, hal: bool = False) -> Message:
    """A player ("Player 2" / "Jugador 2", or their name where the reader knows it), or Hal."""
    return msg("ginkgopolis.hal") if hal else msg("ginkgopolis.text.player", seat=SeatRef(player))


def _character(card: str) -> Message:
    """A character card by what it is (colour and trigger, rules §4.4): the cards carry no
    name of their own, and the copies of a kind are alike."""
    ch = D.CHARACTERS[card]
    return msg(f"ginkgopolis.char.{ch.colour}.{ch.trigger}")


def character_name(card: str, loc: Locale) -> str:
    """ "Red Planner" / "Urbanista rojo" for a character card (C01-C27)."""
    return render(_character(card), loc)


def _card(card: str) -> Param:
    """A card as the log names it: characters by name, the others by their printed code."""
    return _character(card) if card in D.CHARACTERS else card


def _cards(cards: list[str]) -> Param:
    return items(_card(c) for c in cards)


def _colour(c: str, feminine: bool = False) -> Message:
    """A tile colour in words ("roja" for a feminine Spanish noun such as loseta)."""
    return msg(f"ginkgopolis.colour_f.{c}" if feminine else f"ginkgopolis.colour.{c}")


def _items(resources: int, sp: int, tiles: int) -> Param:
    """ "2 resources, 1 tile, 3 SP", or "nothing"."""
    parts = [
        *([msg("ginkgopolis.text.resources", n=resources)] if resources else []),
        *([msg("ginkgopolis.text.tiles", n=tiles)] if tiles else []),
        *([msg("ginkgopolis.text.sp", n=sp)] if sp else []),
    ]
    return items(parts) if parts else msg("ginkgopolis.nothing")


def _yield(top: str, height: int) -> Param:
    """What exploiting a building gives: one item per floor, of its colour (§7.1 step 2)."""
    item = D.ITEM_OF[top[0]]
    return _items(*(height if item == kind else 0 for kind in ("resource", "sp", "tile")))


def _gain_reason(e: E.ItemsGained) -> Message:
    """The ``reason`` of ItemsGained: a fixed word, ``bonus <card>``, or a card (with the
    building it exploited, when there is one)."""
    reason = e.reason
    if e.building and e.cell:
        where: dict[str, Param] = {"building": e.building, "cell": cell_name(e.cell)}
        if reason == "neighbour":
            return msg("ginkgopolis.text.gain.neighbour_at", **where)
        if reason not in ("start", "refill") and not reason.startswith("bonus "):
            return msg("ginkgopolis.text.gain.exploit_at", **where)
    if reason in ("start", "neighbour", "refill"):
        return msg(f"ginkgopolis.reason.{reason}")
    if reason.startswith("bonus "):
        return msg("ginkgopolis.reason.bonus", card=_card(reason[6:]))
    return msg("ginkgopolis.text.gain.card", card=_card(reason))


def _card_rule(card: str) -> Message:
    bc = D.BUILDING_CARDS[card]
    if bc.rule == "owned_colour" and bc.target_colour is not None:
        return msg("ginkgopolis.text.rule.owned_colour", colour=_colour(bc.target_colour))
    if bc.rule == "owned_height":
        return msg(
            "ginkgopolis.text.rule.low" if bc.min_height <= 1 else "ginkgopolis.text.rule.tall"
        )
    if bc.rule == "tableau_trigger" and bc.target_trigger is not None:
        trigger = msg(f"ginkgopolis.text.trigger.{bc.target_trigger}")
        return msg("ginkgopolis.text.rule.tableau_trigger", trigger=trigger)
    if bc.rule == "tableau_colour" and bc.target_colour is not None:
        return msg("ginkgopolis.text.rule.tableau_colour", colour=_colour(bc.target_colour, True))
    return msg("ginkgopolis.text.rule.flat")


def card_rule(card: str, loc: Locale) -> str:
    """The printed end-game effect of a building card 10-20 (§4.2), in words."""
    return render(_card_rule(card), loc)


def _player_list(by_player: dict[int, list[str]], each: Callable[[str], Param]) -> Param:
    """ "Player 1: a, b; Player 2: c" (or "-" when nobody is listed)."""
    parts = [
        msg("ginkgopolis.text.player_list", who=_who(p), list=items(each(x) for x in xs))
        for p, xs in by_player.items()
    ]
    return items(parts, "; ") if parts else "-"


# --------------------------------------------------------------------------- scores


def _district_line(d: E.DistrictScore) -> Message:
    """One district of a final score (§12.1): size, resources, place and points."""
    head = msg(
        "ginkgopolis.text.score.district",
        colour=_colour(d.colour),
        buildings=d.buildings,
        resources=d.resources,
        total=d.total,
    )
    numbers: dict[str, Param] = {"head": head, "points": d.points}
    if d.alone:
        return msg("ginkgopolis.text.score.alone", total=d.total, resources=d.resources, **numbers)
    if d.place == 1:
        return msg("ginkgopolis.text.score.majority", total=d.total, **numbers)
    if d.place == 2:
        return msg("ginkgopolis.text.score.second", resources=d.resources, **numbers)
    return msg("ginkgopolis.text.score.no_place", head=head, place=d.place)


def _card_line(c: E.CardScore) -> Message:
    """One end-game card of a final score (§12.2): its effect, the count and the points."""
    rule = _card_rule(c.card)
    if D.BUILDING_CARDS[c.card].rule == "flat":
        return msg("ginkgopolis.text.score.card_flat", card=c.card, rule=rule, points=c.points)
    return msg(
        "ginkgopolis.text.score.card",
        card=c.card,
        rule=rule,
        count=c.count,
        per=c.per,
        points=c.points,
    )


def _player_scored(e: E.PlayerScored) -> Message:
    head = msg(
        "ginkgopolis.line.player_scored",
        who=_who(e.player, e.hal),
        sp=e.sp,
        districts=e.districts,
        cards=e.cards,
        tokens=e.tokens,
        total=e.total,
    )
    steps: list[Message] = []
    if e.district_lines or e.card_lines or e.new_hand_tokens or e.tokens:
        steps.append(msg("ginkgopolis.text.score.play", sp=e.sp))
    steps += [_district_line(d) for d in e.district_lines]
    steps += [_card_line(c) for c in e.card_lines]
    if e.tokens:
        n = e.new_hand_tokens or e.tokens // D.NEW_HAND_VALUE
        steps.append(
            msg("ginkgopolis.text.score.tokens", n=n, value=D.NEW_HAND_VALUE, points=e.tokens)
        )
    return lines([head, *steps])


# --------------------------------------------------------------------------- events


def _built_up(e: E.BuiltUp) -> Message:
    where = {"tile": e.tile, "card": e.card, "cell": cell_name(e.cell)}
    steps = [msg("ginkgopolis.line.built_up", who=_who(e.player, e.hal), height=e.height, **where)]
    if e.hal:
        # D13: Hal pays neither the number cost nor the colour cost.
        steps.append(msg("ginkgopolis.text.built_up.hal_free"))
    else:
        if e.sp_cost:
            old, new = D.number_of(e.card), D.number_of(e.tile)
            steps.append(msg("ginkgopolis.text.built_up.sp_cost", old=old, new=new, sp=e.sp_cost))
        else:
            steps.append(msg("ginkgopolis.text.built_up.no_sp_cost"))
        if e.colour_cost:
            colours = {"old": _colour(e.card[0]), "new": _colour(e.tile[0])}
            steps.append(msg("ginkgopolis.text.built_up.colour_cost", n=e.colour_cost, **colours))
        else:
            steps.append(msg("ginkgopolis.text.built_up.no_colour_cost"))
    steps.append(msg("ginkgopolis.text.built_up.resources", n=e.height, card=e.card))
    return lines(steps)


def _urbanized(e: E.BuildingUrbanized) -> Message:
    head = msg(
        "ginkgopolis.line.building_urbanized",
        who=_who(e.player, e.hal),
        letter=e.letter,
        cell=cell_name(e.cell),
        tile=e.tile,
    )
    # §7.2 step 6: every orthogonal neighbour is exploited, one item per floor (Hal: SP).
    neighbours = [
        msg(
            "ginkgopolis.text.neighbour",
            top=nb.top,
            cell=cell_name(nb.cell),
            height=nb.height,
            gain=msg("ginkgopolis.text.sp", n=nb.height) if e.hal else _yield(nb.top, nb.height),
        )
        for nb in e.neighbours
    ]
    return lines([head, *neighbours])


def _items_gained(e: E.ItemsGained) -> Message:
    who, why = _who(e.player, e.hal), _gain_reason(e)
    if not (e.resources or e.sp or e.tiles):
        # The supply could not provide the item: that part of the reward is lost (§8).
        return msg("ginkgopolis.line.items_gained.nothing", who=who, why=why)
    what = _items(e.resources, e.sp, e.tiles)
    return msg("ginkgopolis.line.items_gained", who=who, what=what, why=why)


def _game_ended(e: E.GameEnded) -> Message:
    if e.hal_won:
        return msg("ginkgopolis.line.game_ended.hal")
    names = items(_who(p) for p in e.winners)
    return msg("ginkgopolis.line.game_ended", names=names, n=len(e.winners))


def _selected(key: str, card: str, tile: str | None, **params: Param) -> Message:
    """A card and, when there is one, the tile that came with it."""
    if tile:
        return msg(f"{key}.tile", card=card, tile=tile, **params)
    return msg(f"{key}.alone", card=card, **params)


def _event(e: Any) -> Message | None:
    """The message of one event (None for what is not an event)."""
    line = "ginkgopolis.line."
    match e:
        case E.GameSetUp():
            return msg(
                line + e.type,
                n=e.n_players,
                first=_who(e.first_player),
                supply=e.supply_count,
                deck=e.deck_count,
            )
        case E.DraftStarted():
            return msg(line + e.type, n=e.n_players, size=e.pile_size, first=_who(e.first_player))
        case E.DraftPileReceived():
            step = "dealt" if e.draft_round == 1 else "passed"
            return msg(f"{line}{e.type}.{step}", characters=_cards(e.characters))
        case E.DraftPicked():
            return msg(line + e.type, character=_character(e.character))
        case E.ChoiceCommitted():
            step = "select_tile" if e.step == "select" and e.tile_attached else e.step
            return msg(f"{line}{e.type}.{step}", who=_who(e.player))
        case E.DraftCompleted():
            return msg(line + e.type, parts=_player_list(e.characters, _card))
        case E.NewHandChosen():
            return msg(f"{line}{e.type}.{'use' if e.use else 'keep'}")
        case E.NewHandUsed():
            return msg(line + e.type, who=_who(e.player), n=e.tokens_left)
        case E.CardsDrawn():
            return msg(line + e.type, who=_who(e.player), n=e.count)
        case E.CardsReceived():
            return msg(line + e.type, cards=_cards(e.cards))
        case E.RoundStarted():
            return msg(line + e.type, round=e.round, first=_who(e.first_player))
        case E.HandsPassed():
            return msg(line + e.type, first=_who(e.first_player))
        case E.SelectionMade():
            return _selected(line + e.type, e.card, e.tile)
        case E.ActionRevealed():
            action = msg(f"ginkgopolis.text.action.{e.action}")
            return _selected(
                line + e.type, e.card, e.tile, who=_who(e.player, e.hal), action=action
            )
        case E.ItemsGained():
            return _items_gained(e)
        case E.TilesReceived():
            return msg(line + e.type, n=len(e.tiles), tiles=items(e.tiles))
        case E.BuildingUrbanized():
            return _urbanized(e)
        case E.TokenMoved():
            return msg(line + e.type, letter=e.letter, cell=cell_name(e.cell))
        case E.BuiltUp():
            return _built_up(e)
        case E.ResourcesReturned():
            return msg(line + e.type, who=_who(e.player, e.hal), n=e.count, sp=e.sp)
        case E.DeckRebuilt():
            cards = items(e.pending_cards) if e.pending_cards else "-"
            return msg(line + e.type, cards=cards, deck=e.deck_count, aside=e.set_aside)
        case E.TileSupplyExhausted():
            return msg(f"{line}{e.type}.{'first' if e.first else 'again'}")
        case E.ContributionMade():
            return msg(line + e.type, tile=e.tile)
        case E.ContributionsRevealed():
            parts = _player_list(e.tiles, str)
            return msg(line + e.type, parts=parts, supply=e.supply_count)
        case E.EndTriggered():
            return msg(line + e.type, reason=msg(f"ginkgopolis.end.{e.reason}"))
        case E.HalCardDrawn():
            return msg(line + e.type, n=e.count)
        case E.HalSkipped():
            return msg(line + e.type, card=e.card, reason=msg(f"ginkgopolis.skip.{e.reason}"))
        case E.PlayerScored():
            return _player_scored(e)
        case E.GameEnded():
            return _game_ended(e)
    return None


# --------------------------------------------------------------------------- actions


def _action(a: Any) -> Message | None:
    """The message of one action (None for what is not an action)."""
    line = "ginkgopolis.line."
    match a:
        case A.DraftPick():
            return msg(line + a.type, character=_character(a.character))
        case A.KeepHand() | A.NewHand() | A.ContributeDone():
            return msg(line + a.type)
        case A.Select(tile=None):
            return msg(f"{line}{a.type}.alone", card=a.card)
        case A.Select():
            variant = "urbanize" if D.is_urbanization(a.card) else "build_up"
            return msg(f"{line}{a.type}.{variant}", card=a.card, tile=a.tile or "")
        case A.Take():
            return msg(f"{line}{a.type}.{a.item}")
        case A.MoveToken():
            return msg(line + a.type, cell=cell_name(a.cell))
        case A.Contribute():
            return msg(line + a.type, tile=a.tile)
    return None


# --------------------------------------------------------------------------- result


def _result_ties(result: Result) -> Message:
    """The Result's ties (§12.3, D11: no tie-breaker, the place is shared; solo §15: Hal
    wins a tie). One line per tie; "" when nobody tied."""
    if "hal" in result.details:
        you, hal = result.scores.get(0, 0), int(result.details["hal"])
        if you != hal:
            return lines([])
        return msg("ginkgopolis.result.hal_tie", n=1, sp=you)
    ties: list[Message] = []
    for place in sorted(set(result.places.values())):
        tied = [p for p in result.ranking if result.places.get(p) == place]
        if len(tied) < 2:
            continue
        numbers = [p + 1 for p in tied]
        players = msg("ginkgopolis.result.players", list=items(numbers[:-1]), last=numbers[-1])
        ties.append(
            msg("ginkgopolis.result.tie", players=players, sp=result.scores[tied[0]], place=place)
        )
    return lines(ties)


def message(item: BaseModel) -> Message:
    """The message of an action or event; for the Result, its ties."""
    if isinstance(item, Result):
        return _result_ties(item)
    found = _action(item) or _event(item)
    if found is None:
        raise TypeError(f"Ginkgopolis has no message for {type(item).__name__}")
    return found


def describe(item: BaseModel, locale: Locale = "en") -> str:
    """A readable line for an action or event, in Spanish or English; for the Result, its ties."""
    return render(message(item), "es" if locale == "es" else "en")
