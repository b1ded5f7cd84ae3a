"""The server's readable lines say "1 card" and "2 cards" (never "card(s)"), and Ginkgopolis
names cells as its board labels them ("h8") and characters by name ("Red Planner").

The sweep over every event type of every game (test_descriptions.py) checks that no line
leaves singular or plural open; these pin both forms down where a count can be 1.
"""

from __future__ import annotations

import pytest

from app.games.ginkgopolis import ENGINE as GINKGOPOLIS
from app.games.ginkgopolis import actions as ga
from app.games.ginkgopolis import events as gev
from app.games.ginkgopolis.describe import cell_name, character_name
from app.games.gluckauf import ENGINE as GLUCKAUF
from app.games.gluckauf import events as gaev
from app.games.mine import ENGINE as MINE
from app.games.mine import events as mev


def _both(engine: object, item: object) -> tuple[str, str]:
    describe = engine.describe  # type: ignore[attr-defined]
    return describe(item, "en"), describe(item, "es")


@pytest.mark.parametrize(
    ("n", "en", "es"),
    [(1, "drew 1 card.", "robó 1 carta."), (4, "drew 4 cards.", "robó 4 cartas.")],
)
def test_ginkgopolis_counts_agree_with_their_nouns(n: int, en: str, es: str) -> None:
    english, spanish = _both(GINKGOPOLIS, gev.CardsDrawn(player=0, count=n))
    assert english.endswith(en) and spanish.endswith(es)


def test_ginkgopolis_singular_and_plural_everywhere_a_count_can_be_one() -> None:
    one = _both(GINKGOPOLIS, gev.TilesReceived(player=0, tiles=["B16"]))
    two = _both(GINKGOPOLIS, gev.TilesReceived(player=0, tiles=["B16", "R3"]))
    assert one == ("You drew tile B16.", "Robaste la loseta B16.")
    assert two == ("You drew tiles B16, R3.", "Robaste las losetas B16, R3.")

    assert _both(GINKGOPOLIS, gev.GameEnded(winners=[1])) == (
        "Game over: Player 2 wins.",
        "Fin de la partida: gana Jugador 2.",
    )
    assert _both(GINKGOPOLIS, gev.GameEnded(winners=[0, 2])) == (
        "Game over: Player 1, Player 3 win.",
        "Fin de la partida: ganan Jugador 1, Jugador 3.",
    )
    setup = gev.GameSetUp(n_players=1, first_player=0, characters={}, supply_count=1, deck_count=6)
    en, es = _both(GINKGOPOLIS, setup)
    assert "for 1 player;" in en and "para 1 jugador;" in es and "reserva 1 loseta," in es
    back = _both(GINKGOPOLIS, gev.ResourcesReturned(player=0, count=1, sp=0))
    assert "gets 1 resource back" in back[0] and "recupera 1 recurso " in back[1]
    scored = gev.PlayerScored(
        player=0,
        sp=1,
        districts=1,
        cards=0,
        tokens=2,
        total=4,
        district_lines=[
            gev.DistrictScore(colour="R", buildings=1, resources=1, total=1, place=1, points=1)
        ],
        new_hand_tokens=1,
    )
    en, es = _both(GINKGOPOLIS, scored)
    assert "district of 1 building: 1 of its 1 resource," in en
    assert "barrio rojo de 1 edificio: 1 de 1 recurso, mayoría: el 1 = 1 PE" in es
    assert "1 unused New Hand token × 2" in en and "1 ficha de Mano Nueva sin usar" in es


def test_gluckauf_and_mine_agree_with_their_counts() -> None:
    placed = gaev.WorkerPlaced(seat=0, space="MONEY-6", count=1, ousted_seat=1, ousted_count=1)
    en, es = _both(GLUCKAUF, placed)
    assert "placed 1 worker on" in en and "1 worker of Seat 2 went" in en, en
    assert "colocó 1 trabajador en" in es and "1 trabajador de Asiento 2 va a" in es, es
    placed = gaev.WorkerPlaced(seat=0, space="MONEY-6", count=2, ousted_seat=1, ousted_count=3)
    en, es = _both(GLUCKAUF, placed)
    assert "placed 2 workers on" in en and "3 workers of Seat 2 went" in en, en
    assert "colocó 2 trabajadores en" in es and "3 trabajadores de Asiento 2 van a" in es, es

    blasted = {
        "director": 0,
        "base": 3,
        "extraction": 0,
        "taken": 0,
        "supply": 5,
        "blasted": True,
        "firedamp": 2,
        "pit_builders": 1,
        "protected": 1,
    }
    en, es = _both(MINE, mev.CoalExtracted.model_validate(blasted))
    assert "1 pit builder at the Mine protects against 1 firedamp card" in en, en
    assert "1 entibador en la Mina protege de 1 carta de grisú" in es, es


@pytest.mark.parametrize(
    ("cell", "name"),
    [((0, 0), "h8"), ((-1, 1), "g9"), ((1, -1), "i7"), ((-7, -7), "a1"), ((18, 9), "z17")],
)
def test_ginkgopolis_cells_have_the_names_the_board_prints(
    cell: tuple[int, int], name: str
) -> None:
    assert cell_name(cell) == name


def test_cells_beyond_the_usual_city_still_have_distinct_names() -> None:
    names = {cell_name((x, y)) for x in range(-40, 41) for y in range(-40, 41)}
    assert len(names) == 81 * 81


def test_ginkgopolis_lines_name_cells_and_characters() -> None:
    moved = gev.TokenMoved(letter="D", cell=(3, 1))
    assert _both(GINKGOPOLIS, moved) == ("Token D moves to k9.", "La ficha D pasa a k9.")
    assert character_name("C01", "en") == "Red Planner"
    assert character_name("C01", "es") == "Urbanista rojo"
    assert character_name("C06", "en") == "Blue Foreman"
    assert character_name("C02", "es") == "Constructor amarillo"
    kept = _both(GINKGOPOLIS, gev.DraftPicked(player=0, character="C14"))
    assert kept == ("You kept the Yellow Foreman.", "Te quedaste el Capataz amarillo.")
    pick = _both(GINKGOPOLIS, ga.DraftPick(character="C09"))
    assert pick == ("keep the Blue Planner", "quedarse el Urbanista azul")
    bonus = gev.ItemsGained(player=2, tiles=1, reason="bonus C09")
    assert "bonus of Blue Planner" in _both(GINKGOPOLIS, bonus)[0]
