"""Readable log lines (Spanish and English) for every action and event type."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel

from app.games.base import Locale, Result
from app.games.plural import count, form

from . import actions as A
from . import data as D
from . import events as E

EventT = TypeVar("EventT", bound=BaseModel)

_ITEM = {
    "en": {"resource": "a resource", "tile": "a tile"},
    "es": {"resource": "un recurso", "tile": "una loseta"},
}
_REASON = {
    "en": {
        "exploit": "exploiting",
        "urbanize": "urbanizing",
        "build_up": "building up",
        "second_exhaustion": "the tile supply ran out a second time",
        "all_resources": "a player has all their resources in the city",
        "solo_exhaustion": "the tile supply ran out",
        "hal_cannot_pay": "Hal could not pay for his action",
        "cannot_pay": "he lacks resources",
        "no_tile": "the tile supply is empty",
    },
    "es": {
        "exploit": "explota",
        "urbanize": "urbaniza",
        "build_up": "construye en altura",
        "second_exhaustion": "la reserva de losetas se agotó por segunda vez",
        "all_resources": "un jugador tiene todos sus recursos en la ciudad",
        "solo_exhaustion": "la reserva de losetas se agotó",
        "hal_cannot_pay": "Hal no pudo pagar su acción",
        "cannot_pay": "le faltan recursos",
        "no_tile": "la reserva de losetas está vacía",
    },
}


def _who(player: int, hal: bool, loc: Locale) -> str:
    if hal:
        return "Hal"
    return f"Player {player + 1}" if loc == "en" else f"Jugador {player + 1}"


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


#: A character card by what it is (colour and trigger, rules §4.4): the cards carry no name
#: of their own, and the copies of a kind are alike.
_ROLE = {
    "en": {"urbanize": "Planner", "build_up": "Builder", "exploit": "Foreman"},
    "es": {"urbanize": "Urbanista", "build_up": "Constructor", "exploit": "Capataz"},
}


def character_name(card: str, loc: Locale) -> str:
    """ "Red Planner" / "Urbanista rojo" for a character card (C01-C27)."""
    ch = D.CHARACTERS[card]
    role = _ROLE[loc][ch.trigger]
    colour = D.COLOUR_NAMES[loc][ch.colour]
    return f"{colour.capitalize()} {role}" if loc == "en" else f"{role} {colour}"


def _card(card: str, loc: Locale) -> str:
    """A card as the log names it: characters by name, the others by their printed code."""
    return character_name(card, loc) if card in D.CHARACTERS else card


def _cards(cards: list[str], loc: Locale) -> str:
    return ", ".join(_card(c, loc) for c in cards)


def _items(loc: Locale, resources: int, sp: int, tiles: int) -> str:
    parts: list[str] = []
    if loc == "en":
        if resources:
            parts.append(f"{resources} resource{'s' if resources != 1 else ''}")
        if tiles:
            parts.append(f"{tiles} tile{'s' if tiles != 1 else ''}")
        if sp:
            parts.append(f"{sp} SP")
        return ", ".join(parts) if parts else "nothing"
    if resources:
        parts.append(f"{resources} recurso{'s' if resources != 1 else ''}")
    if tiles:
        parts.append(f"{tiles} loseta{'s' if tiles != 1 else ''}")
    if sp:
        parts.append(f"{sp} PE")
    return ", ".join(parts) if parts else "nada"


_GAIN_REASON = {
    "en": {
        "start": "starting items",
        "neighbour": "neighbouring building",
        "refill": "tiles contributed",
    },
    "es": {
        "start": "objetos iniciales",
        "neighbour": "edificio vecino",
        "refill": "losetas aportadas",
    },
}


def _gain_reason(
    reason: str, loc: Locale, building: str | None = None, cell: tuple[int, int] | None = None
) -> str:
    """Translate the ``reason`` of ItemsGained: a fixed word, ``bonus <card>`` or a card id."""
    where = f" {building} {_t(loc, 'at', 'en')} {cell_name(cell)}" if building and cell else ""
    if reason == "neighbour" and where:
        return _t(loc, f"neighbouring building{where}", f"edificio vecino{where}")
    if reason in _GAIN_REASON[loc]:
        return _GAIN_REASON[loc][reason]
    if reason.startswith("bonus "):
        card = _card(reason[6:], loc)
        return f"bonus of {card}" if loc == "en" else f"bonificación de {card}"
    if where:
        return _t(loc, f"exploits building{where}", f"explota el edificio{where}")
    return f"card {_card(reason, loc)}" if loc == "en" else f"carta {_card(reason, loc)}"


def _t(loc: Locale, en: str, es: str) -> str:
    return en if loc == "en" else es


def _colour(c: str, loc: Locale, feminine: bool = False) -> str:
    """A tile colour in words ("roja" for a feminine Spanish noun such as loseta)."""
    name = D.COLOUR_NAMES[loc][c]
    if feminine and loc == "es" and name.endswith("o"):
        return name[:-1] + "a"
    return name


def _yield(top: str, height: int, loc: Locale) -> str:
    """What exploiting a building gives: one item of its colour per floor (§7.1 step 2)."""
    c = top[0]
    return _items(
        loc, height if c == "R" else 0, height if c == "Y" else 0, height if c == "B" else 0
    )


_TRIGGER = {
    "en": {"exploit": "exploit", "urbanize": "urbanize", "build_up": "build up"},
    "es": {"exploit": "explotar", "urbanize": "urbanizar", "build_up": "construir en altura"},
}


def card_rule(card: str, loc: Locale) -> str:
    """The printed end-game effect of a building card 10-20 (§4.2), in words."""
    bc = D.BUILDING_CARDS[card]
    if bc.rule == "owned_colour" and bc.target_colour is not None:
        return _t(
            loc,
            f"+1 SP per owned {_colour(bc.target_colour, loc)} building",
            f"+1 PE por cada edificio {_colour(bc.target_colour, loc)} tuyo",
        )
    if bc.rule == "owned_height":
        if bc.min_height <= 1:
            return _t(
                loc,
                "+1 SP per owned building of height 1 or 2",
                "+1 PE por cada edificio tuyo de altura 1 o 2",
            )
        return _t(
            loc,
            "+3 SP per owned building of height 3 or more",
            "+3 PE por cada edificio tuyo de altura 3 o más",
        )
    if bc.rule == "tableau_trigger" and bc.target_trigger is not None:
        trig = _TRIGGER[loc][bc.target_trigger]
        return _t(
            loc,
            f"+2 SP per tableau card with the «{trig}» bonus",
            f"+2 PE por cada carta de tu zona con bonificación «{trig}»",
        )
    if bc.rule == "tableau_colour" and bc.target_colour is not None:
        return _t(
            loc,
            f"+2 SP per {_colour(bc.target_colour, loc)} card in the tableau",
            f"+2 PE por cada carta {_colour(bc.target_colour, loc, True)} de tu zona",
        )
    return _t(loc, "+9 SP", "+9 PE")


_PLACE = {
    "en": {1: "majority", 2: "second"},
    "es": {1: "mayoría", 2: "segundo"},
}


def _district_line(d: E.DistrictScore, loc: Locale) -> str:
    """One district of a final score (§12.1): size, resources, place and points."""
    if loc == "en":
        head = (
            f"  · {_colour(d.colour, loc)} district of "
            f"{count(d.buildings, 'building', 'buildings')}: "
            f"{d.resources} of its {count(d.total, 'resource', 'resources')}"
        )
        if d.alone:
            return f"{head}, alone there: {d.total} + {d.resources} = {d.points} SP"
        if d.place == 1:
            return f"{head}, majority: all {d.total} = {d.points} SP"
        if d.place == 2:
            return f"{head}, second: own {d.resources} = {d.points} SP"
        return f"{head}, place {d.place}: 0 SP"
    head = (
        f"  · barrio {_colour(d.colour, loc)} de "
        f"{count(d.buildings, 'edificio', 'edificios')}: "
        f"{d.resources} de {count(d.total, 'recurso', 'recursos')}"
    )
    if d.alone:
        return f"{head}, único presente: {d.total} + {d.resources} = {d.points} PE"
    if d.place == 1:
        return f"{head}, mayoría: {form(d.total, 'el', 'los')} {d.total} = {d.points} PE"
    if d.place == 2:
        return f"{head}, segundo: {form(d.resources, 'su', 'sus')} {d.resources} = {d.points} PE"
    return f"{head}, puesto {d.place}: 0 PE"


def _card_line(c: E.CardScore, loc: Locale) -> str:
    """One end-game card of a final score (§12.2): its effect, the count and the points."""
    rule = card_rule(c.card, loc)
    if D.BUILDING_CARDS[c.card].rule == "flat":
        return _t(
            loc,
            f"  · card {c.card} ({rule}): {c.points} SP",
            f"  · carta {c.card} ({rule}): {c.points} PE",
        )
    return _t(
        loc,
        f"  · card {c.card} ({rule}): {c.count} × {c.per} = {c.points} SP",
        f"  · carta {c.card} ({rule}): {c.count} × {c.per} = {c.points} PE",
    )


def _describe_action(a: BaseModel, loc: Locale) -> str | None:
    if isinstance(a, A.DraftPick):
        name = character_name(a.character, loc)
        return _t(loc, f"keep the {name}", f"quedarse el {name}")
    if isinstance(a, A.KeepHand):
        return _t(loc, "keep my hand", "conservar mi mano")
    if isinstance(a, A.NewHand):
        return _t(loc, "use a New Hand token", "usar una ficha de Mano Nueva")
    if isinstance(a, A.Select):
        if a.tile is None:
            return _t(loc, f"play {a.card} alone (exploit)", f"jugar {a.card} sola (explotar)")
        if a.card.startswith("U-"):
            return _t(
                loc,
                f"urbanize with {a.card} and tile {a.tile}",
                f"urbanizar con {a.card} y la loseta {a.tile}",
            )
        return _t(
            loc, f"build tile {a.tile} on {a.card}", f"construir la loseta {a.tile} sobre {a.card}"
        )
    if isinstance(a, A.Take):
        return _t(loc, f"take {_ITEM['en'][a.item]}", f"tomar {_ITEM['es'][a.item]}")
    if isinstance(a, A.MoveToken):
        return _t(
            loc, f"move the token to {cell_name(a.cell)}", f"mover la ficha a {cell_name(a.cell)}"
        )
    if isinstance(a, A.Contribute):
        return _t(
            loc,
            f"contribute tile {a.tile} to the refill",
            f"aportar la loseta {a.tile} a la reposición",
        )
    if isinstance(a, A.ContributeDone):
        return _t(loc, "finish my contribution", "terminar mi aportación")
    return None


def _d_setup(e: E.GameSetUp, loc: Locale) -> str:
    return _t(
        loc,
        f"Game set up for {count(e.n_players, 'player', 'players')}; "
        f"{_who(e.first_player, False, loc)} starts; "
        f"tile supply {e.supply_count}, deck {e.deck_count}.",
        f"Partida preparada para {count(e.n_players, 'jugador', 'jugadores')}; "
        f"empieza {_who(e.first_player, False, loc)}; "
        f"reserva {count(e.supply_count, 'loseta', 'losetas')}, mazo {e.deck_count}.",
    )


def _event_lines() -> dict[type[BaseModel], Callable[[BaseModel, Locale], str]]:
    def f(e: BaseModel, loc: Locale) -> str:  # pragma: no cover - replaced below
        return ""

    table: dict[type[BaseModel], Callable[[BaseModel, Locale], str]] = {}

    def reg(
        cls: type[EventT],
    ) -> Callable[[Callable[[EventT, Locale], str]], Callable[[EventT, Locale], str]]:
        """Register ``fn`` as the line of the events of type ``cls`` (looked up by type)."""

        def deco(fn: Callable[[EventT, Locale], str]) -> Callable[[EventT, Locale], str]:
            def line(e: BaseModel, loc: Locale) -> str:
                if not isinstance(e, cls):
                    raise TypeError(f"the line of {cls.__name__} got a {type(e).__name__}")
                return fn(e, loc)

            table[cls] = line
            return fn

        return deco

    @reg(E.GameSetUp)
    def _a(e: E.GameSetUp, loc: Locale) -> str:
        return _d_setup(e, loc)

    @reg(E.DraftPicked)
    def _b(e: E.DraftPicked, loc: Locale) -> str:
        name = character_name(e.character, loc)
        return _t(loc, f"You kept the {name}.", f"Te quedaste el {name}.")

    @reg(E.ChoiceCommitted)
    def _c(e: E.ChoiceCommitted, loc: Locale) -> str:
        who = _who(e.player, False, loc)
        steps = {
            "en": {
                "draft": "picked a character",
                "new_hand": "declared for the New Hand window",
                "select": "selected a card" + (" with a tile" if e.tile_attached else ""),
                "contribute": "finished contributing",
            },
            "es": {
                "draft": "eligió un personaje",
                "new_hand": "declaró en la ventana de Mano Nueva",
                "select": "eligió una carta" + (" con una loseta" if e.tile_attached else ""),
                "contribute": "terminó su aportación",
            },
        }
        return f"{who} {steps[loc][e.step]}."

    @reg(E.DraftCompleted)
    def _d(e: E.DraftCompleted, loc: Locale) -> str:
        parts = "; ".join(
            f"{_who(p, False, loc)}: {_cards(c, loc)}" for p, c in e.characters.items()
        )
        return _t(loc, f"Draft over — {parts}.", f"Draft terminado — {parts}.")

    @reg(E.NewHandChosen)
    def _e(e: E.NewHandChosen, loc: Locale) -> str:
        if e.use:
            return _t(loc, "You will use a New Hand token.", "Usarás una ficha de Mano Nueva.")
        return _t(loc, "You keep your hand.", "Conservas tu mano.")

    @reg(E.NewHandUsed)
    def _f(e: E.NewHandUsed, loc: Locale) -> str:
        who = _who(e.player, False, loc)
        return _t(
            loc,
            f"{who} used a New Hand token ({e.tokens_left} left) and discarded their hand.",
            f"{who} usó una ficha de Mano Nueva (le {form(e.tokens_left, 'queda', 'quedan')} "
            f"{e.tokens_left}) y descartó su mano.",
        )

    @reg(E.CardsDrawn)
    def _g(e: E.CardsDrawn, loc: Locale) -> str:
        who = _who(e.player, False, loc)
        return _t(
            loc,
            f"{who} drew {count(e.count, 'card', 'cards')}.",
            f"{who} robó {count(e.count, 'carta', 'cartas')}.",
        )

    @reg(E.CardsReceived)
    def _h(e: E.CardsReceived, loc: Locale) -> str:
        return _t(loc, f"Your hand: {_cards(e.cards, loc)}.", f"Tu mano: {_cards(e.cards, loc)}.")

    @reg(E.RoundStarted)
    def _i(e: E.RoundStarted, loc: Locale) -> str:
        who = _who(e.first_player, False, loc)
        return _t(
            loc,
            f"Round {e.round} begins; {who} is first.",
            f"Empieza la ronda {e.round}; {who} es el primero.",
        )

    @reg(E.HandsPassed)
    def _j(e: E.HandsPassed, loc: Locale) -> str:
        who = _who(e.first_player, False, loc)
        return _t(
            loc,
            f"Hands passed to the left; {who} takes the first player card.",
            f"Las manos pasan a la izquierda; {who} toma la carta de jugador inicial.",
        )

    @reg(E.SelectionMade)
    def _k(e: E.SelectionMade, loc: Locale) -> str:
        tile = f" + {e.tile}" if e.tile else ""
        return _t(loc, f"You selected {e.card}{tile}.", f"Elegiste {e.card}{tile}.")

    @reg(E.ActionRevealed)
    def _l(e: E.ActionRevealed, loc: Locale) -> str:
        who = _who(e.player, e.hal, loc)
        tile = f" + {e.tile}" if e.tile else ""
        return _t(
            loc,
            f"{who} reveals {e.card}{tile}: {_REASON['en'][e.action]}.",
            f"{who} revela {e.card}{tile}: {_REASON['es'][e.action]}.",
        )

    @reg(E.ItemsGained)
    def _m(e: E.ItemsGained, loc: Locale) -> str:
        who = _who(e.player, e.hal, loc)
        what = _items(loc, e.resources, e.sp, e.tiles)
        why = _gain_reason(e.reason, loc, e.building, e.cell)
        if not (e.resources or e.sp or e.tiles):
            # The supply could not provide the item: that part of the reward is lost (§8).
            return _t(
                loc,
                f"{who} gains nothing ({why}): the supply is empty.",
                f"{who} no gana nada ({why}): la reserva está vacía.",
            )
        return _t(loc, f"{who} gains {what} ({why}).", f"{who} gana {what} ({why}).")

    @reg(E.TilesReceived)
    def _n(e: E.TilesReceived, loc: Locale) -> str:
        tiles = ", ".join(e.tiles)
        n = len(e.tiles)
        return _t(
            loc,
            f"You drew {form(n, 'tile', 'tiles')} {tiles}.",
            f"Robaste {form(n, 'la loseta', 'las losetas')} {tiles}.",
        )

    @reg(E.BuildingUrbanized)
    def _o(e: E.BuildingUrbanized, loc: Locale) -> str:
        who = _who(e.player, e.hal, loc)
        lines = [
            _t(
                loc,
                f"{who} urbanizes site {e.letter} at {cell_name(e.cell)} with tile {e.tile} "
                "and puts 1 resource on it (a construction site).",
                f"{who} urbaniza el solar {e.letter} en {cell_name(e.cell)} con la loseta {e.tile} "
                "y pone 1 recurso encima (en obras).",
            )
        ]
        # §7.2 step 6: every orthogonal neighbour is exploited, one item per floor (Hal: SP).
        for nb in e.neighbours:
            gain = (
                _t(loc, f"{nb.height} SP", f"{nb.height} PE")
                if e.hal
                else _yield(nb.top, nb.height, loc)
            )
            lines.append(
                _t(
                    loc,
                    f"  · neighbour {nb.top} at {cell_name(nb.cell)}, height {nb.height}: {gain}",
                    f"  · vecino {nb.top} en {cell_name(nb.cell)}, altura {nb.height}: {gain}",
                )
            )
        return "\n".join(lines)

    @reg(E.TokenMoved)
    def _p(e: E.TokenMoved, loc: Locale) -> str:
        return _t(
            loc,
            f"Token {e.letter} moves to {cell_name(e.cell)}.",
            f"La ficha {e.letter} pasa a {cell_name(e.cell)}.",
        )

    @reg(E.BuiltUp)
    def _q(e: E.BuiltUp, loc: Locale) -> str:
        who = _who(e.player, e.hal, loc)
        old, new = D.number_of(e.card), D.number_of(e.tile)
        lines = [
            _t(
                loc,
                f"{who} builds up: tile {e.tile} on {e.card} at {cell_name(e.cell)}, now height {e.height}.",
                f"{who} construye en altura: loseta {e.tile} sobre {e.card} en {cell_name(e.cell)}, "
                f"ahora altura {e.height}.",
            )
        ]
        if e.hal:
            # D13: Hal pays neither the number cost nor the colour cost.
            lines.append(_t(loc, "  · Hal pays no costs", "  · Hal no paga costes"))
        else:
            if e.sp_cost:
                lines.append(
                    _t(
                        loc,
                        f"  · number cost: {old} − {new} = {e.sp_cost} SP",
                        f"  · coste por número: {old} − {new} = {e.sp_cost} PE",
                    )
                )
            else:
                lines.append(_t(loc, "  · no number cost", "  · sin coste por número"))
            if e.colour_cost:
                lines.append(
                    _t(
                        loc,
                        f"  · colour cost: {_colour(e.card[0], loc)} → {_colour(e.tile[0], loc)}, "
                        f"{count(e.colour_cost, 'resource', 'resources')} to the general supply",
                        f"  · coste por color: {_colour(e.card[0], loc)} → {_colour(e.tile[0], loc)}, "
                        f"{count(e.colour_cost, 'recurso', 'recursos')} a la reserva general",
                    )
                )
            else:
                lines.append(
                    _t(
                        loc,
                        "  · same colour: no colour cost",
                        "  · mismo color: sin coste por color",
                    )
                )
        lines.append(
            _t(
                loc,
                f"  · {count(e.height, 'resource', 'resources')} on it, one per floor; "
                f"card {e.card} goes to the tableau",
                f"  · {count(e.height, 'recurso', 'recursos')} encima, uno por planta; "
                f"la carta {e.card} va a su zona",
            )
        )
        return "\n".join(lines)

    @reg(E.ResourcesReturned)
    def _r(e: E.ResourcesReturned, loc: Locale) -> str:
        who = _who(e.player, e.hal, loc)
        return _t(
            loc,
            f"{who} gets {count(e.count, 'resource', 'resources')} back and {e.sp} SP.",
            f"{who} recupera {count(e.count, 'recurso', 'recursos')} y gana {e.sp} PE.",
        )

    @reg(E.DeckRebuilt)
    def _s(e: E.DeckRebuilt, loc: Locale) -> str:
        cards = ", ".join(e.pending_cards) or "-"
        return _t(
            loc,
            f"Deck rebuilt (cards of pending buildings: {cards}); deck {e.deck_count}, "
            f"{e.set_aside} set aside.",
            f"Mazo rehecho (cartas de edificios en obras: {cards}); mazo {e.deck_count}, "
            f"{count(e.set_aside, 'apartada', 'apartadas')}.",
        )

    @reg(E.TileSupplyExhausted)
    def _u(e: E.TileSupplyExhausted, loc: Locale) -> str:
        if e.first:
            return _t(
                loc,
                "The tile supply is empty: everyone may contribute tiles (1 SP each).",
                "La reserva de losetas está vacía: todos pueden aportar losetas (1 PE cada una).",
            )
        return _t(
            loc, "The tile supply is empty again.", "La reserva de losetas vuelve a estar vacía."
        )

    @reg(E.ContributionMade)
    def _v(e: E.ContributionMade, loc: Locale) -> str:
        return _t(
            loc,
            f"You set aside {e.tile} for the refill.",
            f"Apartaste {e.tile} para la reposición.",
        )

    @reg(E.ContributionsRevealed)
    def _w(e: E.ContributionsRevealed, loc: Locale) -> str:
        parts = (
            "; ".join(f"{_who(p, False, loc)}: {', '.join(t)}" for p, t in e.tiles.items()) or "-"
        )
        return _t(
            loc,
            f"Contributions revealed ({parts}); new tile supply {e.supply_count}.",
            f"Aportaciones reveladas ({parts}); nueva reserva {e.supply_count}.",
        )

    @reg(E.EndTriggered)
    def _x(e: E.EndTriggered, loc: Locale) -> str:
        return _t(
            loc,
            f"End of game triggered: {_REASON['en'][e.reason]}. The round is completed.",
            f"Se activa el final: {_REASON['es'][e.reason]}. Se completa la ronda.",
        )

    @reg(E.HalSkipped)
    def _y(e: E.HalSkipped, loc: Locale) -> str:
        return _t(
            loc,
            f"Hal reveals {e.card} but does nothing: {_REASON['en'][e.reason]}.",
            f"Hal revela {e.card} pero no hace nada: {_REASON['es'][e.reason]}.",
        )

    @reg(E.PlayerScored)
    def _z(e: E.PlayerScored, loc: Locale) -> str:
        who = _who(e.player, e.hal, loc)
        lines = [
            _t(
                loc,
                f"{who}: {e.sp} SP + {e.districts} from districts + {e.cards} from cards "
                f"+ {e.tokens} from tokens = {e.total} SP.",
                f"{who}: {e.sp} PE + {e.districts} por barrios + {e.cards} por cartas "
                f"+ {e.tokens} por fichas = {e.total} PE.",
            )
        ]
        if e.district_lines or e.card_lines or e.new_hand_tokens or e.tokens:
            lines.append(
                _t(
                    loc,
                    f"  · SP gained during play: {e.sp}",
                    f"  · PE ganados en la partida: {e.sp}",
                )
            )
        lines += [_district_line(d, loc) for d in e.district_lines]
        lines += [_card_line(c, loc) for c in e.card_lines]
        if e.tokens:
            n = e.new_hand_tokens or e.tokens // D.NEW_HAND_VALUE
            lines.append(
                _t(
                    loc,
                    f"  · {count(n, 'unused New Hand token', 'unused New Hand tokens')} "
                    f"× {D.NEW_HAND_VALUE} = {e.tokens} SP",
                    f"  · {count(n, 'ficha', 'fichas')} de Mano Nueva sin usar "
                    f"× {D.NEW_HAND_VALUE} = {e.tokens} PE",
                )
            )
        return "\n".join(lines)

    @reg(E.GameEnded)
    def _zz(e: E.GameEnded, loc: Locale) -> str:
        if e.hal_won:
            return _t(loc, "Game over: Hal wins.", "Fin de la partida: gana Hal.")
        names = ", ".join(_who(p, False, loc) for p in e.winners)
        n = len(e.winners)
        return _t(
            loc,
            f"Game over: {names} {form(n, 'wins', 'win')}.",
            f"Fin de la partida: {form(n, 'gana', 'ganan')} {names}.",
        )

    del f
    return table


_EVENTS = _event_lines()


_ORDINALS_ES = ("primer", "segundo", "tercer", "cuarto", "quinto")


def _players(players: list[int], loc: Locale) -> str:
    """ "Players 1 and 2" / "Los jugadores 1, 2 y 3"."""
    numbers = [str(p + 1) for p in players]
    listed = ", ".join(numbers[:-1]) + _t(loc, " and ", " y ") + numbers[-1]
    return _t(loc, f"Players {listed}", f"Los jugadores {listed}")


def _result_ties(result: Result, loc: Locale) -> str:
    """The Result's ties (§12.3, D11: no tie-breaker, the place is shared; solo §15: Hal
    wins a tie). One line per tie; "" when nobody tied."""
    if "hal" in result.details:
        you, hal = result.scores.get(0, 0), int(result.details["hal"])
        if you != hal:
            return ""
        return _t(
            loc,
            f"Player 1 and Hal tie on {you} SP: in the solo game only more SP than Hal wins, "
            "so Hal wins.",
            f"El jugador 1 y Hal empatan a {you} PE: en solitario solo se gana con más PE que "
            "Hal, así que gana Hal.",
        )
    lines: list[str] = []
    for place in sorted(set(result.places.values())):
        tied = [p for p in result.ranking if result.places.get(p) == place]
        if len(tied) < 2:
            continue
        sp = result.scores[tied[0]]
        ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
        lines.append(
            _t(
                loc,
                f"{_players(tied, loc)} tie on {sp} SP and share {ordinal} place "
                "(there is no tie-breaker).",
                f"{_players(tied, loc)} empatan a {sp} PE y comparten el "
                f"{_ORDINALS_ES[place - 1]} puesto (no hay desempate).",
            )
        )
    return "\n".join(lines)


def describe(item: BaseModel, locale: Locale = "en") -> str:
    """A readable line for an action or event, in Spanish or English; for the Result, its ties."""
    loc: Locale = "es" if locale == "es" else "en"
    if isinstance(item, Result):
        return _result_ties(item, loc)
    line = _describe_action(item, loc)
    if line is not None:
        return line
    fn = _EVENTS.get(type(item))
    if fn is not None:
        return fn(item, loc)
    return str(getattr(item, "type", type(item).__name__))
