"""Each engine explains its Result's ties for people: ``describe(result, locale)``.

The text is what the server sends as ``result.tiebreak_text`` (docs/API-EXTENSIONS.md
"Readable tie-breaks"): Spanish and English, seats named as the log lines name them
(numbered from 1), one tie per line, "" when nothing needs explaining. It reads only the
Result, which the server keeps as JSON, so every check also describes the Result after a
JSON round trip. ``Result.tiebreak`` (the engine's English record) does not change.
"""

from __future__ import annotations

import json
import re

from app.games.base import Engine, Event, Locale, Result, Rng
from app.games.ginkgopolis import ENGINE as GINKGOPOLIS
from app.games.ginkgopolis.rules import FinalScore, GinkgopolisOptions, GinkgopolisState
from app.games.gluckauf import ENGINE as GLUCKAUF
from app.games.gluckauf import events as gluckauf_events
from app.games.gluckauf.rules import final_scoring
from app.games.luz import ENGINE as LUZ
from app.games.luz.rules import LuzOptions
from app.games.luz.rules import result as luz_result
from app.games.luz.rules import setup as luz_setup
from app.games.mine import ENGINE as MINE
from app.games.mine import events as mine_events
from app.games.mine import rules as mine_rules
from tests.unit.games.test_gluckauf_examples import ANNA, _example15
from tests.unit.games.test_mine_examples import _example8, _example12, build

LOCALES: tuple[Locale, ...] = ("es", "en")
# A seat numbered from 0, as the API numbers it: never in a text for people.
_ZERO_SEAT = re.compile(r"\b(seats?|asientos?|players?|jugador(es)?) 0\b", re.IGNORECASE)


def _texts(engine: Engine, res: Result | None) -> dict[str, str]:
    """The explanation in both languages, the same before and after a JSON round trip."""
    assert res is not None
    stored = Result.model_validate(json.loads(res.model_dump_json()))
    texts: dict[str, str] = {}
    for locale in LOCALES:
        text = engine.describe(res, locale)
        assert text == engine.describe(stored, locale), locale
        assert not _ZERO_SEAT.search(text), text
        assert "None" not in text and "{" not in text, text
        assert all(line.strip() for line in text.split("\n")) or text == "", text
        texts[locale] = text
    if texts["en"]:
        assert texts["es"] != texts["en"]
    return texts


# --------------------------------------------------------------------------- Luz


def _luz_finished(scores: list[int]) -> Result | None:
    state = luz_setup(len(scores), 11, LuzOptions(first_player=0))
    state.scores = scores
    state.phase = "finished"
    return luz_result(state)


def test_luz_tied_seats_share_the_place_in_both_languages() -> None:
    res = _luz_finished([60, 60, 35])
    assert res is not None
    assert res.tiebreak == "Seats 0 and 1 are tied on 60 points and share first place."
    assert _texts(LUZ, res) == {
        "es": "Los asientos 1 y 2 empatan a 60 puntos y comparten el primer puesto.",
        "en": "Seats 1 and 2 tie on 60 points and share 1st place.",
    }


def test_luz_two_ties_take_a_line_each_and_no_tie_says_nothing() -> None:
    texts = _texts(LUZ, _luz_finished([60, 60, 35, 35, 35]))
    assert texts["en"].split("\n") == [
        "Seats 1 and 2 tie on 60 points and share 1st place.",
        "Seats 3, 4 and 5 tie on 35 points and share 3rd place.",
    ]
    assert texts["es"].split("\n")[1] == (
        "Los asientos 3, 4 y 5 empatan a 35 puntos y comparten el tercer puesto."
    )
    assert _texts(LUZ, _luz_finished([10, 60, 35])) == {"es": "", "en": ""}


# --------------------------------------------------------------------------- Glück Auf


def _gluckauf_ended(anna_money: int | None = None) -> tuple[Result | None, Event]:
    state = _example15()
    if anna_money is not None:
        state.players[ANNA].money = anna_money
    events: list[Event] = []
    final_scoring(state, events)
    assert isinstance(events[-1], gluckauf_events.GameEnded)
    return GLUCKAUF.result(state), events[-1]


def test_gluckauf_tie_broken_by_leftover_marks_in_both_languages() -> None:
    res, ended = _gluckauf_ended()
    assert res is not None and res.places == {1: 1, 0: 2}
    texts = _texts(GLUCKAUF, res)
    assert texts == {
        "es": "Empate a 51 PV: deciden los marcos sobrantes (Asiento 2 4, Asiento 1 3)",
        "en": "Tie at 51 VP: the Marks left over decide (Seat 2 4, Seat 1 3)",
    }
    # The same words as the end's log line.
    for locale in LOCALES:
        assert texts[locale] in GLUCKAUF.describe(ended, locale)


def test_gluckauf_equal_marks_share_the_place() -> None:
    res, _ = _gluckauf_ended(anna_money=14)
    assert res is not None and res.places == {0: 1, 1: 1}
    texts = _texts(GLUCKAUF, res)
    assert texts["en"].endswith("; Seat 1 and Seat 2 share the place")
    assert texts["es"].endswith("; Asiento 1 y Asiento 2 comparten el puesto")


# --------------------------------------------------------------------------- MINE!


def test_mine_tie_broken_by_stock_in_both_languages() -> None:
    state, _ = _example8(big_order=True)
    assert _texts(MINE, MINE.result(state)) == {
        "es": "Rojo y Azul empatan a 21 puntos: desempata el stock (1 > 0)",
        "en": "Red and Blue tie on 21 points: stock breaks the tie (1 > 0)",
    }
    state, _ = _example8(big_order=False)
    assert _texts(MINE, MINE.result(state)) == {"es": "", "en": ""}


def test_mine_ties_broken_by_hand_then_dice_read_as_the_end_of_the_log() -> None:
    state = _example12([2, 3, 29, 52], seed=639)
    res = MINE.result(state)
    assert res is not None and res.details["professions"] == {0: 3, 1: 4, 2: 3}
    texts = _texts(MINE, res)
    assert texts["en"].split("\n") == [
        "Blue and Red tie on 17 points and stock 2: profession cards in hand break the tie (4 > 3)",
        "Red and Green are still tied (points, stock, "
        "profession cards): the die roll-off decides (4–4, then 5–2)",
    ]
    assert "gana la tirada de dado (4–4, luego 5–2)" in texts["es"]


def test_mine_tie_with_the_dummy_puts_the_dummy_back_in_its_place() -> None:
    state = build(
        2, dummy=True, round=6, stocks=[3, 3, 3], scores=[10, 12, 10], hands={0: [1, 2], 2: [4, 5]}
    )
    state.rng = Rng.from_seed(1)
    events: list[Event] = []
    mine_rules._finish(state, "round_6", events)
    res = MINE.result(state)
    assert res is not None and 2 not in res.ranking and res.details["dummy"]["score"] == 10
    texts = _texts(MINE, res)
    assert "(dummy director)" in texts["en"] and "(director ficticio)" in texts["es"]
    ended = events[-1]
    assert isinstance(ended, mine_events.GameEnded)
    for locale in LOCALES:
        assert texts[locale] and texts[locale] in MINE.describe(ended, locale)


# --------------------------------------------------------------------------- Ginkgopolis


def _ginkgopolis_over(totals: list[int]) -> Result | None:
    """A game over with these totals; one player (and Hal last) is the solo game."""
    n = 1 if len(totals) == 2 else len(totals)
    state = GINKGOPOLIS.setup(n, 5, GinkgopolisOptions())
    assert isinstance(state, GinkgopolisState) and state.solo == (n == 1)
    state.phase = "over"
    state.final = [
        FinalScore(player=p, sp=total, districts=0, cards=0, tokens=0, total=total)
        for p, total in enumerate(totals)
    ]
    return GINKGOPOLIS.result(state)


def test_ginkgopolis_tied_players_share_the_place_in_both_languages() -> None:
    res = _ginkgopolis_over([93, 93, 73])
    assert res is not None and res.places == {0: 1, 1: 1, 2: 3}
    assert _texts(GINKGOPOLIS, res) == {
        "es": "Los jugadores 1 y 2 empatan a 93 PE y comparten el primer puesto "
        "(no hay desempate).",
        "en": "Players 1 and 2 tie on 93 SP and share 1st place (there is no tie-breaker).",
    }
    res = _ginkgopolis_over([93, 75, 73])
    assert _texts(GINKGOPOLIS, res) == {"es": "", "en": ""}


def test_ginkgopolis_solo_tie_with_hal_goes_to_hal() -> None:
    res = _ginkgopolis_over([80, 80])
    assert res is not None and res.places == {0: 2}
    texts = _texts(GINKGOPOLIS, res)
    assert texts["en"].startswith("Player 1 and Hal tie on 80 SP")
    assert texts["es"].startswith("El jugador 1 y Hal empatan a 80 PE")
    assert _texts(GINKGOPOLIS, _ginkgopolis_over([81, 80])) == {"es": "", "en": ""}
