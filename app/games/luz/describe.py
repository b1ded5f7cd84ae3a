"""What people read about every Luz action, event and result, as catalogue messages.

The words are in ``static/i18n/games/luz.<lang>.json`` (keys ``luz.line.*`` and
``luz.text.*``); this module only decides which message and with which numbers. A line says
only what its item carries, so it never reveals more than the item itself.
"""

from __future__ import annotations

from pydantic import BaseModel

from app.games.base import Locale, Result, rank_by_score
from app.games.luz.actions import ChooseHighEnd, PlaceBet, PlayCard
from app.games.luz.data import card_colour, card_value
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
from app.games.messages import Items, Message, SeatRef, items, lines, msg, render


def card_message(card: str) -> Message:
    """``"Y7"`` -> yellow 7."""
    return msg("luz.card", colour=msg(f"luz.colour.{card_colour(card)}"), value=card_value(card))


def card_text(card: str, locale: Locale = "en") -> str:
    """``"Y7"`` -> ``"yellow 7"`` / ``"amarillo 7"``."""
    return render(card_message(card), locale)


def _plays(plays: tuple[Play, ...]) -> Items:
    return items(
        msg("luz.text.play", seat=SeatRef(p.seat), card=card_message(p.card)) for p in plays
    )


def _bet(tricks: int, safety: bool) -> Message:
    return msg("luz.text.bet", tricks=tricks, safety=safety)


def _why(deal: int, row: DealRow) -> Message:
    """How a row's points came about. Everything is read from the row; the miss rule
    (``safety_miss_from``) shows in the points: over the window with the safety bead,
    "nearest" measures from bet + 1, "bet" from the bet."""
    bet, won, points = row.bet, row.won, row.points
    if not row.safety and won == bet:
        return msg("luz.text.why_exact", deal=deal, points=points)
    if row.safety and won in (bet, bet + 1):
        return msg("luz.text.why_safety_hit", deal=deal, points=points, exact=won == bet)
    off = -points // 5
    nearest = row.safety and won > bet + 1 and off == won - bet - 1
    return msg(
        "luz.text.why_miss",
        off=off,
        points=points,
        nearest=nearest,
        target=bet + 1 if nearest else bet,
    )


def _score_row(deal: int, row: DealRow) -> Message:
    """One seat's scoring step (§5.7): bet, tricks won, hit or miss, points, running total."""
    before = row.total - row.points
    return msg(
        "luz.text.score_row",
        seat=SeatRef(row.seat),
        bet=_bet(row.bet, row.safety),
        won=row.won,
        why=_why(deal, row),
        before=before,
        sign="+" if row.points >= 0 else "-",
        change=abs(row.points),
        total=row.total,
    )


def _ties(scores: tuple[int, ...], ranking: tuple[int, ...]) -> list[Message]:
    """The result's ties for people, one sentence each: tied seats share the place (§5.9),
    seats from 1."""
    texts: list[Message] = []
    place = 1
    i = 0
    while i < len(ranking):
        group = [s for s in ranking if scores[s] == scores[ranking[i]]]
        if len(group) > 1:
            texts.append(
                msg(
                    "luz.text.tie",
                    first=items(s + 1 for s in group[:-1]),
                    last=group[-1] + 1,
                    points=scores[group[0]],
                    place=place,
                )
            )
        place += len(group)
        i += len(group)
    return texts


def _game_ended(scores: tuple[int, ...], ranking: tuple[int, ...]) -> Message:
    _, places = rank_by_score(dict(enumerate(scores)))
    rows: list[Message | Items] = [msg("luz.text.game_over")]
    for seat in ranking:
        place = places[seat]
        shared = sum(1 for p in places.values() if p == place) > 1
        rows.append(
            msg(
                "luz.text.place", place=place, shared=shared, seat=SeatRef(seat), score=scores[seat]
            )
        )
    ties = _ties(scores, ranking)
    if ties:
        rows.append(items(ties, " "))
    return lines(rows)


def message(item: BaseModel) -> Message:
    """The message of a Luz action or event; for the Result, its ties (no line if none)."""
    match item:
        case Result(scores=scores, ranking=ranking):
            return lines(_ties(tuple(scores[s] for s in sorted(scores)), tuple(ranking)))
        case ChooseHighEnd(side=side):
            return msg("luz.line.choose_high_end", side=msg(f"luz.side.{side}"))
        case PlaceBet(tricks=tricks, safety=safety):
            return msg("luz.line.place_bet", bet=_bet(tricks, safety))
        case PlayCard(slot=slot):
            return msg("luz.line.play_card", slot=slot)
        case DealStarted(deal=deal, first_player=first):
            return msg("luz.line.deal_started", deal=deal, first=SeatRef(first))
        case HandsDealt(undealt_count=undealt):
            # The backs are on the board; the line says only that the deal happened.
            return msg("luz.line.hands_dealt", undealt=undealt)
        case HandShown(seat=seat, cards=cards):
            faces = " ".join(c.card for c in cards)
            return msg("luz.line.hand_shown", seat=SeatRef(seat), faces=faces)
        case HighEndChosen(sorter=sorter, seat=seat, side=side):
            return msg(
                "luz.line.high_end_chosen",
                sorter=SeatRef(sorter),
                seat=SeatRef(seat),
                side=msg(f"luz.side.{side}"),
            )
        case BetPlaced(seat=seat, tricks=tricks, safety=safety):
            return msg("luz.line.bet_placed", seat=SeatRef(seat), bet=_bet(tricks, safety))
        case CardPlayed(seat=seat, slot=slot, card=card, trick_no=number):
            return msg(
                "luz.line.card_played",
                seat=SeatRef(seat),
                card=card_message(card),
                slot=slot,
                trick=number,
            )
        case TrickWon(seat=seat, trick_no=number, cards=()):
            # strict_memory keeps who won an older trick, not its cards (memory.py).
            return msg("luz.line.trick_won", seat=SeatRef(seat), trick=number)
        case TrickWon(seat=seat, trick_no=number, cards=cards):
            return msg(
                "luz.line.trick_won_cards", seat=SeatRef(seat), trick=number, plays=_plays(cards)
            )
        case DealScored(deal=deal, rows=rows):
            head = msg("luz.text.deal_scored", deal=deal, exact=10 * deal, safe=5 * deal)
            return lines([head, *(_score_row(deal, r) for r in rows)])
        case FirstPlayerPassed(from_seat=old, seat=seat):
            return msg("luz.line.first_player_passed", old=SeatRef(old), seat=SeatRef(seat))
        case GameEnded(scores=scores, ranking=ranking):
            return _game_ended(tuple(scores), tuple(ranking))
    raise TypeError(f"Luz cannot describe {type(item).__name__}")


def describe(item: BaseModel, locale: Locale = "en") -> str:
    """:func:`message` as text in ``locale``, seats by number."""
    return render(message(item), locale)
