"""Readable Spanish and English log lines for every MINE! action and event.

A line never says more than the item carries: a public ``card_placed`` names no card.
Directors are named by their colour's neutral name (director k plays colour ck, §2.4:
red, blue, green, yellow, purple, orange). The seed's towns are the game's partner towns,
not colour names, so no line names a town. Scoring events (raids, sales, extraction, the end)
answer several lines joined by "\\n", one per step, so a player can follow the numbers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from pydantic import BaseModel

from app.games.base import Locale, Result, by_seat
from app.games.mine import events as ev
from app.games.mine.actions import DiscardCard, PassTurn, PlaceCard
from app.games.mine.data import (
    ATK,
    COLOUR_NAMES,
    DEF,
    LOCATION_NAMES,
    card_name,
)
from app.games.plural import count, form


def _who(d: int, locale: Locale) -> str:
    """ "Rojo": director d by the name of its colour (§2.4)."""
    names = COLOUR_NAMES[locale]
    if not 0 <= d < len(names):
        return str(d)
    return names[d].capitalize()


def _loc(location: str, locale: Locale) -> str:
    return LOCATION_NAMES[location][locale]  # type: ignore[index]


def _cards(cards: Sequence[int], locale: Locale) -> str:
    return ", ".join(card_name(c, locale) for c in cards) or "—"


def _valued(cards: Sequence[int], values: tuple[int, ...], stat: str, locale: Locale) -> str:
    """ "Minero 3 (ATQ 2) + Matón 55 (ATQ 3)": each card with the value that counts there."""
    return " + ".join(f"{card_name(c, locale)} ({stat} {values[c]})" for c in cards)


def _join(lines: list[str]) -> str:
    return "\n".join(line for line in lines if line)


def describe(item: BaseModel, locale: Locale = "en") -> str:
    """Return the log line(s) for an action or event.

    >>> describe(PlaceCard(card=3, location="mine"), "es")
    'coloca Minero 3 en Mina'
    """
    es = locale == "es"
    if isinstance(item, Result):
        return _result_ties(item, es, locale)
    if isinstance(item, PlaceCard | PassTurn | DiscardCard):
        return _action(item, es, locale)
    if isinstance(item, ev.RaidSettled):
        return _raid(item, es, locale)
    if isinstance(item, ev.CoalSold):
        return _sale(item, es, locale)
    if isinstance(item, ev.CoalExtracted):
        return _extraction(item, es, locale)
    if isinstance(item, ev.GameEnded):
        return _game_ended(item, es, locale)
    return _event(item, es, locale)


def _action(item: PlaceCard | PassTurn | DiscardCard, es: bool, locale: Locale) -> str:
    if isinstance(item, PlaceCard):
        where = _loc(item.location, locale)
        c = card_name(item.card, locale)
        if item.victim is not None:
            victim = _who(item.victim, locale)
            if es:
                return f"coloca {c} en {where} contra {victim}"
            return f"place {c} at the {where} against {victim}"
        return f"coloca {c} en {where}" if es else f"place {c} on {where}"
    if isinstance(item, PassTurn):
        return (
            "pasa (no coloca más cartas esta ronda)"
            if es
            else "pass (place no more cards this round)"
        )
    c = card_name(item.card, locale)
    return f"descarta {c}" if es else f"discard {c}"


def _raid(item: ev.RaidSettled, es: bool, locale: Locale) -> str:
    """Every step of one raid (§5.5): the stack, the watchtower, the outcome, the coal moved."""
    r, v = _who(item.raider, locale), _who(item.victim, locale)
    atk_word, def_word = ("ATQ", "DEF") if es else ("ATK", "DEF")
    lines: list[str] = []
    if item.cards:
        stack = _valued(item.cards, ATK, atk_word, locale)
        lines.append(
            f"Saqueo de {r} contra {v}: {stack} = ataque {item.attack}"
            if es
            else f"{r}'s raid on {v}: {stack} = attack {item.attack}"
        )
    else:
        lines.append(
            f"Saqueo de {r} contra {v}: ataque {item.attack}"
            if es
            else f"{r}'s raid on {v}: attack {item.attack}"
        )
    if item.outcome == "cancelled":
        lines.append(
            f"{v} jugó Gendarmes: se anulan todos los saqueos contra él; nadie pierde carbón"
            if es
            else f"{v} played Gendarmes: every raid on it is cancelled; no coal moves"
        )
        return _join(lines)
    if item.guards:
        guards = _valued(item.guards, DEF, def_word, locale)
        lines.append(
            f"Torre de vigilancia de {v}: {guards} = defensa {item.defence}"
            if es
            else f"{v}'s Watchtower: {guards} = defence {item.defence}"
        )
    elif item.cards:  # new-style event: no guards means an empty Watchtower
        lines.append(
            f"{v} no tiene guardias en la Torre de vigilancia: defensa 0"
            if es
            else f"{v} has no guard at the Watchtower: defence 0"
        )
    if item.outcome == "failed":
        lines.append(
            f"Ataque {item.attack} ≤ defensa {item.defence}: el saqueo fracasa (la defensa gana "
            "los empates); nadie pierde carbón"
            if es
            else f"Attack {item.attack} ≤ defence {item.defence}: the raid fails (defence wins "
            "ties); no coal moves"
        )
        return _join(lines)
    lines.append(
        f"Ataque {item.attack} > defensa {item.defence}: el saqueo triunfa y reclama "
        f"{item.attack} − {item.defence} = {item.claim} carbón"
        if es
        else f"Attack {item.attack} > defence {item.defence}: the raid succeeds and claims "
        f"{item.attack} − {item.defence} = {item.claim} coal"
    )
    if item.stock is not None and item.available is not None:
        if item.available == item.stock:
            lines.append(
                f"{v} tenía {item.stock} carbón al empezar los saqueos (solo ese stock se puede "
                "saquear)"
                if es
                else f"{v} had {item.stock} coal when the raids began (only that stock can be "
                "looted)"
            )
        else:
            lines.append(
                f"{v} tenía {item.stock} carbón; tras los saqueos más fuertes "
                f"{form(item.available, 'queda', 'quedan')} {item.available}"
                if es
                else f"{v} had {item.stock} coal; after the stronger raids {item.available} "
                f"{form(item.available, 'is', 'are')} left"
            )
        if item.tied_with:
            k = len(item.tied_with) + 1
            others = ", ".join(_who(t, locale) for t in item.tied_with)
            if k * item.claim <= item.available:
                lines.append(
                    f"Empata en ataque con {others}: {k} × {item.claim} ≤ {item.available}, "
                    f"cada uno se lleva {item.claim}"
                    if es
                    else f"Tied on attack with {others}: {k} × {item.claim} ≤ {item.available}, "
                    f"each takes {item.claim}"
                )
            else:
                lines.append(
                    f"Empata en ataque con {others}: {k} × {item.claim} > {item.available}, "
                    f"cada uno se lleva ⌊{item.available} / {k}⌋ = {item.taken}"
                    if es
                    else f"Tied on attack with {others}: {k} × {item.claim} > {item.available}, "
                    f"each takes ⌊{item.available} / {k}⌋ = {item.taken}"
                )
        elif item.taken < item.claim:
            lines.append(
                f"Solo {form(item.available, 'queda', 'quedan')} {item.available}: se lleva {item.taken} de {item.claim}"
                if es
                else f"Only {item.available} left: it takes {item.taken} of {item.claim}"
            )
    lines.append(
        f"{r} se lleva {item.taken} carbón de {v} (a su stock cuando se han resuelto todos los "
        "saqueos)"
        if es
        else f"{r} takes {item.taken} coal from {v} (added to its stock once every raid is settled)"
    )
    return _join(lines)


def _sale(item: ev.CoalSold, es: bool, locale: Locale) -> str:
    """The Expedition of one director (§5.6): the sale limit, then coal sold = points scored."""
    who = _who(item.director, locale)
    before_stock, before_score = item.stock + item.sold, item.score - item.sold
    lines = [
        f"{who} vende {item.sold} carbón en la Expedición"
        if es
        else f"{who} sells {item.sold} coal at the Expedition"
    ]
    if item.base_limit is not None:
        parts = [f"{'la ronda da' if es else 'the round gives'} {item.base_limit}"]
        if item.big_order:
            parts.append("+ 2 (Gran pedido)" if es else "+ 2 (Big Order)")
        if item.cage_breakdown:
            parts.append(
                "− 1 (Avería de la jaula de otro)" if es else "− 1 (someone's Cage Breakdown)"
            )
        limit = f"{' '.join(parts)} = {item.limit}" if len(parts) > 1 else parts[0]
        lines.append(
            f"Límite de venta: {limit} (dado o carta de dado)"
            if es
            else f"Sale limit: {limit} (die or die card)"
        )
    lines.append(
        f"Vende el mínimo de su stock {before_stock} y el límite {item.limit} = {item.sold}: "
        f"puntuación {before_score} → {item.score} (1 punto por carbón), stock {item.stock}"
        if es
        else f"It sells the lesser of its stock {before_stock} and the limit {item.limit} = "
        f"{item.sold}: score {before_score} → {item.score} (1 point per coal), stock {item.stock}"
    )
    return _join(lines)


def _extraction(item: ev.CoalExtracted, es: bool, locale: Locale) -> str:
    """The Mine of one director (§5.8), modifier by modifier, then what the supply gave."""
    who = _who(item.director, locale)
    if item.base == 0 and not item.blasted and item.taken == 0:
        return f"{who} no extrae nada en la Mina (EXT 0)" if es else f"{who} mines nothing (EXT 0)"
    lines = [f"{who} extrae en la Mina: EXT {item.base}" if es else f"{who} mines: EXT {item.base}"]
    shoring = _shoring(item, es)
    if item.blasted:
        zero = "extracción 0" if es else "extraction 0"
        if shoring:
            lines.append(f"{shoring} < {item.firedamp}: {zero}")
        else:
            lines.append(f"Sufre el grisú: {zero}" if es else f"Blasted by firedamp: {zero}")
        return _join(lines)
    if item.firedamp and shoring:
        safe = "a salvo del grisú" if es else "safe from the firedamp"
        lines.append(f"{shoring} ≥ {item.firedamp}: {safe}")
    value = item.base
    if item.rich_seam:
        lines.append(
            f"Veta rica: {value} + 2 = {value + 2}"
            if es
            else f"Rich Seam: {value} + 2 = {value + 2}"
        )
        value += 2
    if item.strike:
        lines.append(
            f"Huelga de otro: ⌊{value} / 2⌋ = {value // 2}"
            if es
            else f"Someone's Strike: ⌊{value} / 2⌋ = {value // 2}"
        )
        value //= 2
    if item.mine_max is not None and value > item.mine_max:
        lines.append(
            f"Máximo de mina de la carta de dado: {item.mine_max}"
            if es
            else f"The die card's mine maximum: {item.mine_max}"
        )
    took = item.taken - item.created - item.from_box
    if item.created or item.from_box:
        lines.append(
            f"Extracción {item.extraction}: toma {took} de la reserva, {item.from_box} de la caja "
            f"y {item.created} creados (el ficticio extrae sin límite); "
            f"{form(item.supply, 'queda', 'quedan')} {item.supply} en "
            "la reserva"
            if es
            else f"Extraction {item.extraction}: takes {took} from the supply, {item.from_box} "
            f"from the box and {item.created} created (the dummy mines without limit); "
            f"{item.supply} left in the supply"
        )
    elif item.taken < item.extraction:
        lines.append(
            f"Extracción {item.extraction}, pero la reserva solo tenía {item.taken}: toma "
            f"{item.taken}, el resto se pierde; "
            f"{form(item.supply, 'queda', 'quedan')} {item.supply}"
            if es
            else f"Extraction {item.extraction}, but the supply held only {item.taken}: takes "
            f"{item.taken}, the rest is lost; {item.supply} left"
        )
    else:
        lines.append(
            f"Extracción {item.extraction}: toma {item.taken} de la reserva; "
            f"{form(item.supply, 'queda', 'quedan')} {item.supply}"
            if es
            else f"Extraction {item.extraction}: takes {item.taken} from the supply; "
            f"{item.supply} left"
        )
    return _join(lines)


def _shoring(item: ev.CoalExtracted, es: bool) -> str:
    """ "Firedamp ×2: 1 pit builder at the Mine, ×2 with Safety Lamp, protects against 2":
    the sum of §5.8 step 2 ("" for an event stored without the pit builders)."""
    if item.pit_builders is None or not item.firedamp:
        return ""
    pb = item.pit_builders
    protected = item.protected
    if protected is None:  # stored before the field: the lamp then meant "never blasted"
        protected = pb * (2 if item.safety_lamp else 1)
    if es:
        lamp = ", ×2 con la Lámpara de seguridad," if item.safety_lamp else ""
        return (
            f"Grisú ×{item.firedamp}: {count(pb, 'entibador', 'entibadores')} en la Mina{lamp} "
            f"{form(pb, 'protege', 'protegen')} de "
            f"{count(protected, 'carta', 'cartas')} de grisú"
        )
    lamp = ", ×2 with Safety Lamp," if item.safety_lamp else ""
    return (
        f"Firedamp ×{item.firedamp}: {count(pb, 'pit builder', 'pit builders')} at the "
        f"Mine{lamp} {form(pb, 'protects', 'protect')} against "
        f"{count(protected, 'firedamp card', 'firedamp cards')}"
    )


def _namer(item: ev.GameEnded, es: bool, locale: Locale) -> Callable[[int], str]:
    """How the end names a director: its colour, and whether it is the dummy."""

    def name(d: int) -> str:
        base = _who(d, locale)
        if item.dummy is not None and d == item.dummy:
            base += " (director ficticio)" if es else " (dummy director)"
        return base

    return name


def _game_ended(item: ev.GameEnded, es: bool, locale: Locale) -> str:
    """The end (§6): why, then each place with its keys, then how every tie was broken."""
    name = _namer(item, es, locale)
    if item.reason == "score_21":
        when = (
            f" en la ronda {item.round}"
            if es and item.round
            else (f" in round {item.round}" if item.round else "")
        )
        head = (
            f"Fin de la partida{when}: alguien llegó a 21 puntos en la Expedición"
            if es
            else f"Game over{when}: someone reached 21 points at the Expedition"
        )
    else:
        head = "Fin de la partida tras la ronda 6" if es else "Game over after round 6"
    lines = [head]
    has_stocks = len(item.stocks) == len(item.scores)
    for place, d in enumerate(item.ranking, start=1):
        score = item.scores[d]
        if has_stocks:
            lines.append(
                f"{place}.º {name(d)}: {score} puntos, stock {item.stocks[d]}"
                if es
                else f"{place}. {name(d)}: {score} points, stock {item.stocks[d]}"
            )
        else:
            lines.append(f"{place}. {name(d)}: {score}" + (" puntos" if es else " points"))
    if has_stocks:
        lines += _tie_lines(item, name, es)
    elif item.tiebreak:
        lines.append(f"Desempate: {item.tiebreak}" if es else f"Tie-break: {item.tiebreak}")
    if item.dummy is not None and item.ranking and item.ranking[0] == item.dummy:
        lines.append(
            "El director ficticio queda primero: ningún jugador gana"
            if es
            else "The dummy director ranks first: no seat wins"
        )
    return _join(lines)


def _tie_lines(item: ev.GameEnded, name: Callable[[int], str], es: bool) -> list[str]:
    """For each pair of neighbours in the final order, how their tie was broken ("" if none)."""
    return [_tie_line(item, a, b, name, es) for a, b in itertools.pairwise(item.ranking)]


def _result_ties(result: Result, es: bool, locale: Locale) -> str:
    """How the Result's ties were broken, told as the end's log line tells them."""
    item = _ended(result)
    return _join(_tie_lines(item, _namer(item, es, locale), es))


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


def _tie_line(item: ev.GameEnded, a: int, b: int, name: Callable[[int], str], es: bool) -> str:
    """Which key of §6 put ``a`` before ``b`` when they tied on score ("" if they did not)."""
    if item.scores[a] != item.scores[b]:
        return ""
    na, nb, score = name(a), name(b), item.scores[a]
    if item.stocks[a] != item.stocks[b]:
        return (
            f"{na} y {nb} empatan a {score} puntos: desempata el stock "
            f"({item.stocks[a]} > {item.stocks[b]})"
            if es
            else f"{na} and {nb} tie on {score} points: stock breaks the tie "
            f"({item.stocks[a]} > {item.stocks[b]})"
        )
    pa = item.professions[a] if a < len(item.professions) else None
    pb = item.professions[b] if b < len(item.professions) else None
    if pa is not None and pb is not None and pa != pb:
        return (
            f"{na} y {nb} empatan a {score} puntos y stock {item.stocks[a]}: desempatan las "
            f"cartas de profesión en la mano ({pa} > {pb})"
            if es
            else f"{na} and {nb} tie on {score} points and stock {item.stocks[a]}: profession "
            f"cards in hand break the tie ({pa} > {pb})"
        )
    rolls = []
    for group in item.rolls:
        values = {r.director: r.value for r in group}
        if a in values and b in values:
            rolls.append(f"{values[a]}–{values[b]}")
    seq = (", luego " if es else ", then ").join(rolls) or "—"
    return (
        f"{na} y {nb} siguen empatados (puntos, stock y cartas de profesión): gana la tirada "
        f"de dado ({seq})"
        if es
        else f"{na} and {nb} are still tied (points, stock, profession cards): the die "
        f"roll-off decides ({seq})"
    )


def _event(item: BaseModel, es: bool, locale: Locale) -> str:
    if isinstance(item, ev.RoundStarted):
        holder = _who(item.die_holder, locale)
        card = ""
        if item.die_card is not None:
            card = (
                f"; carta de dado {item.die_card}: mina máx. {item.mine_max}, venta máx. {item.sale_max}"
                if es
                else f"; die card {item.die_card}: mine max {item.mine_max}, sale max {item.sale_max}"
            )
        if es:
            return f"Empieza la ronda {item.round}; {holder} tiene el dado{card}"
        return f"Round {item.round} begins; {holder} holds the die{card}"
    if isinstance(item, ev.CardPlaced):
        who = _who(item.director, locale)
        if item.dummy:
            who += " (director ficticio)" if es else " (dummy director)"
        where = _loc(item.location, locale)
        if item.victim is not None:
            victim = _who(item.victim, locale)
            if es:
                extra = " (abre un montón con su carta de color)" if item.stack_opened else ""
                return f"{who} coloca una carta boca abajo en {where} contra {victim}{extra}"
            extra = " (opening a stack with the colour card)" if item.stack_opened else ""
            return f"{who} places a card face down at the {where} against {victim}{extra}"
        if es:
            return f"{who} coloca una carta boca abajo en {where}"
        return f"{who} places a card face down on {where}"
    if isinstance(item, ev.OwnCardPlaced):
        c = card_name(item.card, locale)
        where = _loc(item.location, locale)
        return f"Has colocado {c} en {where}" if es else f"You placed {c} on {where}"
    if isinstance(item, ev.PlacementPassed):
        who = _who(item.director, locale)
        if es:
            why = {
                "chose": "",
                "empty_hand": " (mano vacía)",
                "dummy_plan_done": " (ha colocado todo su plan)",
            }[item.reason]
            return f"{who} pasa{why}"
        why = {
            "chose": "",
            "empty_hand": " (empty hand)",
            "dummy_plan_done": " (its plan is placed)",
        }[item.reason]
        return f"{who} passes{why}"
    if isinstance(item, ev.CardsRevealed):
        where = _loc(item.location, locale)
        if not item.cards:
            return f"{where}: ninguna carta" if es else f"{where}: no cards"
        parts = []
        for rc in item.cards:
            line = f"{_who(rc.director, locale)} {card_name(rc.card, locale)}"
            if rc.victim is not None:
                line += f" → {_who(rc.victim, locale)}"
            parts.append(line)
        return (f"Se revela {where}: " if es else f"{where} revealed: ") + "; ".join(parts)
    if isinstance(item, ev.FiredampCounted):
        if es:
            return (
                f"Cartas de grisú reveladas: {item.firedamp} (cada entibador en la Mina protege "
                f"de una, de dos con la Lámpara de seguridad; una Mina protegida de menos de "
                f"{item.firedamp} no extrae nada)"
                if item.firedamp
                else "Sin grisú esta ronda"
            )
        return (
            f"Firedamp cards revealed: {item.firedamp} (each pit builder at the Mine protects "
            f"against one, two with Safety Lamp; a Mine protected against fewer than "
            f"{item.firedamp} extracts nothing)"
            if item.firedamp
            else "No firedamp this round"
        )
    if isinstance(item, ev.StocksLooted):
        pairs = ", ".join(
            f"{_who(i, locale)} {b}→{a}"
            for i, (b, a) in enumerate(zip(item.before, item.after, strict=True))
            if a != b
        )
        return f"Stocks tras los saqueos: {pairs}" if es else f"Stocks after the raids: {pairs}"
    if isinstance(item, ev.DrawPileReshuffled):
        return (
            f"Se baraja el descarte: nuevo mazo de {item.cards} cartas"
            if es
            else f"The discard pile is shuffled into a new draw pile of {item.cards} cards"
        )
    if isinstance(item, ev.CardsDrawn):
        who = _who(item.director, locale)
        return (
            f"{who} roba {item.count} cartas (de {item.wanted})"
            if es
            else f"{who} draws {item.count} cards (of {item.wanted})"
        )
    if isinstance(item, ev.CardsReceived):
        c = _cards(item.cards, locale)
        return f"Has robado: {c}" if es else f"You drew: {c}"
    if isinstance(item, ev.DummyEventReplaced):
        c = card_name(item.card, locale)
        who = _who(item.director, locale)
        return (
            f"El director ficticio {who} roba {c}: va boca arriba al descarte y roba otra"
            if es
            else f"The dummy director {who} drew {c}: it goes face up to the discard pile and "
            "the dummy draws again"
        )
    if isinstance(item, ev.CardDiscarded):
        who = _who(item.director, locale)
        c = card_name(item.card, locale)
        auto = (" automáticamente" if es else " automatically") if item.automatic else ""
        return (
            f"{who} descarta {c}{auto} (límite de mano)"
            if es
            else f"{who} discards {c}{auto} (hand limit)"
        )
    if isinstance(item, ev.RoundCleanedUp):
        if item.next_die_holder is None:
            return (
                f"Fin de la ronda {item.round}: {len(item.discarded)} cartas al descarte"
                if es
                else f"Round {item.round} cleaned up: {len(item.discarded)} cards discarded"
            )
        nxt = _who(item.next_die_holder, locale)
        return (
            f"Fin de la ronda {item.round}: {len(item.discarded)} cartas al descarte; el dado "
            f"pasa a {nxt}"
            if es
            else f"Round {item.round} cleaned up: {len(item.discarded)} cards discarded; the die "
            f"passes to {nxt}"
        )
    return type(item).__name__


__all__ = ["describe"]
