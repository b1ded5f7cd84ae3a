"""Readable log lines (Spanish and English) for every Luz action and event.

A line says only what its item carries, so it never reveals more than the item itself.
"""

from __future__ import annotations

from pydantic import BaseModel

from app.games.base import Locale, Result, rank_by_score
from app.games.luz.actions import ChooseHighEnd, PlaceBet, PlayCard
from app.games.luz.data import COLOUR_NAMES, card_colour, card_value
from app.games.luz.events import (
    BetPlaced,
    CardPlayed,
    DealRow,
    DealScored,
    DealStarted,
    FirstPlayerPassed,
    GameEnded,
    HandsDealt,
    HandShown,
    HighEndChosen,
    Play,
    TrickWon,
)

_SIDE = {"en": {"left": "left", "right": "right"}, "es": {"left": "izquierda", "right": "derecha"}}


def card_text(card: str, locale: Locale = "en") -> str:
    """``"Y7"`` -> ``"yellow 7"`` / ``"amarillo 7"``."""
    return f"{COLOUR_NAMES[locale][card_colour(card)]} {card_value(card)}"


def _plays(plays: tuple[Play, ...], locale: Locale) -> str:
    seat = "asiento" if locale == "es" else "seat"
    return ", ".join(f"{seat} {p.seat + 1}: {card_text(p.card, locale)}" for p in plays)


def _bet(tricks: int, safety: bool, locale: Locale) -> str:
    if locale == "es":
        text = f"{tricks} baza" + ("" if tricks == 1 else "s")
        return text + (" con ficha de seguridad" if safety else "")
    text = f"{tricks} trick" + ("" if tricks == 1 else "s")
    return text + (" with the safety bead" if safety else "")


def _ordinal_en(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _score_row(deal: int, row: DealRow, locale: Locale) -> str:
    """One seat's scoring step (§5.7): bet, tricks won, hit or miss, points, running total.

    Everything is read from the row; the miss rule (``safety_miss_from``) shows in the points:
    over the window with the safety bead, "nearest" measures from bet + 1, "bet" from the bet.
    """
    es = locale == "es"
    bet, won, points = row.bet, row.won, row.points
    before = row.total - points
    if not row.safety and won == bet:
        why = (
            f"apuesta exacta: +10 × mano {deal} = {points:+d}"
            if es
            else f"exact bet: +10 × deal {deal} = {points:+d}"
        )
    elif row.safety and won in (bet, bet + 1):
        if es:
            extra = "exacta" if won == bet else "una baza más, cubierta por la ficha de seguridad"
            why = f"acierta ({extra}): +5 × mano {deal} = {points:+d}"
        else:
            extra = "exact" if won == bet else "one trick more, covered by the safety bead"
            why = f"hit ({extra}): +5 × deal {deal} = {points:+d}"
    else:
        off = -points // 5
        nearest = row.safety and won > bet + 1 and off == won - bet - 1
        target = bet + 1 if nearest else bet
        if es:
            base = (
                f" (desde {target}, lo más cercano que la ficha de seguridad daba por bueno)"
                if nearest
                else ""
            )
            why = f"falla por {off} baza{'s' if off != 1 else ''}{base}: -5 × {off} = {points:+d}"
        else:
            base = f" (from {target}, the nearest count the safety bead allowed)" if nearest else ""
            why = f"missed by {off} trick{'s' if off != 1 else ''}{base}: -5 × {off} = {points:+d}"
    total = f"{before} {'+' if points >= 0 else '-'} {abs(points)} = {row.total}"
    if es:
        return (
            f"Asiento {row.seat + 1}: apostó {_bet(bet, row.safety, locale)}, ganó {won} → {why}; "
            f"total {total}"
        )
    return f"Seat {row.seat + 1}: bet {_bet(bet, row.safety, locale)}, won {won} → {why}; total {total}"


_ORDINALS_ES = ("primer", "segundo", "tercer", "cuarto", "quinto")


def _ties(scores: tuple[int, ...], ranking: tuple[int, ...], locale: Locale) -> list[str]:
    """The result's ties for people, one sentence each: tied seats share the place (§5.9),
    seats from 1."""
    texts: list[str] = []
    place = 1
    i = 0
    while i < len(ranking):
        group = [s for s in ranking if scores[s] == scores[ranking[i]]]
        if len(group) > 1:
            first = ", ".join(str(s + 1) for s in group[:-1])
            points = scores[group[0]]
            texts.append(
                f"Los asientos {first} y {group[-1] + 1} empatan a {points} puntos y comparten "
                f"el {_ORDINALS_ES[place - 1]} puesto."
                if locale == "es"
                else f"Seats {first} and {group[-1] + 1} tie on {points} points and share "
                f"{_ordinal_en(place)} place."
            )
        place += len(group)
        i += len(group)
    return texts


def describe(item: BaseModel, locale: Locale = "en") -> str:
    """Return one readable line for a Luz action or event; for the Result, its ties ("" if none)."""
    es = locale == "es"
    match item:
        case Result(scores=scores, ranking=ranking):
            return "\n".join(
                _ties(tuple(scores[s] for s in sorted(scores)), tuple(ranking), locale)
            )
        case ChooseHighEnd(side=side):
            side_text = _SIDE[locale][side]
            return (
                f"Poner el «+» a la {side_text} de la mano ordenada"
                if es
                else f'Put the "+" on the {side_text} of the sorted hand'
            )
        case PlaceBet(tricks=tricks, safety=safety):
            return (
                f"Apostar {_bet(tricks, safety, locale)}"
                if es
                else f"Bet {_bet(tricks, safety, locale)}"
            )
        case PlayCard(slot=slot):
            return (
                f"Jugar la carta de la posición {slot}" if es else f"Play the card in slot {slot}"
            )
        case DealStarted(deal=deal, first_player=first):
            return (
                f"Empieza la mano {deal}; el asiento {first + 1} es el jugador inicial"
                if es
                else f"Deal {deal} started; seat {first + 1} is the first player"
            )
        case HandsDealt(hands=hands, undealt_count=undealt):
            if es:
                parts = "; ".join(
                    f"asiento {h.seat + 1}: {' '.join(s.colour for s in h.slots)}" for h in hands
                )
                return f"Se repartieron las manos (dorsos: {parts}); {undealt} cartas sin repartir"
            parts = "; ".join(
                f"seat {h.seat + 1}: {' '.join(s.colour for s in h.slots)}" for h in hands
            )
            return f"Hands dealt (backs: {parts}); {undealt} cards undealt"
        case HandShown(seat=seat, cards=cards):
            faces = " ".join(c.card for c in cards)
            return (
                f"La mano del asiento {seat + 1}, vista por los demás: {faces}"
                if es
                else f"Seat {seat + 1}'s hand, as the others see it: {faces}"
            )
        case HighEndChosen(sorter=sorter, seat=seat, side=side):
            side_text = _SIDE[locale][side]
            return (
                f"El asiento {sorter + 1} puso el «+» de la mano del asiento {seat + 1} a la {side_text}"
                if es
                else f'Seat {sorter + 1} put the "+" of seat {seat + 1}\'s hand on the {side_text}'
            )
        case BetPlaced(seat=seat, tricks=tricks, safety=safety):
            return (
                f"El asiento {seat + 1} apostó {_bet(tricks, safety, locale)}"
                if es
                else f"Seat {seat + 1} bet {_bet(tricks, safety, locale)}"
            )
        case CardPlayed(seat=seat, slot=slot, card=card, trick_no=number):
            return (
                f"El asiento {seat + 1} jugó {card_text(card, locale)} (posición {slot}) en la baza {number}"
                if es
                else f"Seat {seat + 1} played {card_text(card, locale)} (slot {slot}) in trick {number}"
            )
        case TrickWon(seat=seat, trick_no=number, cards=()):
            # strict_memory keeps who won an older trick, not its cards (memory.py).
            return (
                f"El asiento {seat + 1} ganó la baza {number}"
                if es
                else f"Seat {seat + 1} won trick {number}"
            )
        case TrickWon(seat=seat, trick_no=number, cards=cards):
            return (
                f"El asiento {seat + 1} ganó la baza {number} ({_plays(cards, locale)})"
                if es
                else f"Seat {seat + 1} won trick {number} ({_plays(cards, locale)})"
            )
        case DealScored(deal=deal, rows=rows):
            head = (
                f"Puntuación de la mano {deal} (exacta +{10 * deal}, con ficha de seguridad "
                f"+{5 * deal}, fallo -5 por baza de diferencia):"
                if es
                else f"Deal {deal} scored (exact +{10 * deal}, with the safety bead +{5 * deal}, "
                "miss -5 per trick off):"
            )
            return "\n".join([head, *(_score_row(deal, r, locale) for r in rows)])
        case FirstPlayerPassed(from_seat=old, seat=seat):
            return (
                f"El marcador de jugador inicial pasa del asiento {old + 1} al asiento {seat + 1}"
                if es
                else f"The first-player marker passed from seat {old + 1} to seat {seat + 1}"
            )
        case GameEnded(scores=scores, ranking=ranking):
            _, places = rank_by_score(dict(enumerate(scores)))
            lines = ["Fin de la partida tras 4 manos:" if es else "Game over after 4 deals:"]
            for seat in ranking:
                place = places[seat]
                shared = sum(1 for p in places.values() if p == place) > 1
                if es:
                    lines.append(
                        f"{place}.º puesto{' (compartido)' if shared else ''}: asiento {seat + 1} "
                        f"con {scores[seat]} puntos"
                    )
                else:
                    lines.append(
                        f"{_ordinal_en(place)} place{' (shared)' if shared else ''}: seat {seat + 1} "
                        f"with {scores[seat]} points"
                    )
            ties = " ".join(_ties(scores, ranking, locale))
            if ties:
                lines.append(ties)
            return "\n".join(lines)
    raise TypeError(f"Luz cannot describe {type(item).__name__}")
