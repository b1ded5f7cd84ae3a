"""Readable log lines (Spanish and English) for every action and event of Glück Auf.

The words are the board's (static/i18n/games/gluckauf.*.json): "túnel", "vagoneta",
"jaula", "almacén", "pedido", "turno" for a shift. A line never reveals more than the
item itself carries: private events (draw-5 contents, return order) are only ever shown
to the seat they are addressed to. Scorings span several lines, one per step, so a player
can follow how the points came about (§8.1, §9).
"""

from __future__ import annotations

from pydantic import BaseModel

from app.games.base import Locale, Result, by_seat
from app.games.plural import count, form

from . import actions as a
from . import events as ev
from .data import ORDERS, TILES, Category, categories_for_shift

_COL = {
    "en": {"Y": "yellow", "B": "brown", "G": "grey", "K": "black"},
    "es": {"Y": "amarillo", "B": "marrón", "G": "gris", "K": "negro"},
}
# Spanish agrees in gender and number: "vagonetas amarillas vacías".
_COL_FEM_PL = {"Y": "amarillas", "B": "marrones", "G": "grises", "K": "negras"}
_LETTER = {
    "en": {"Y": "Y", "B": "B", "G": "G", "K": "K"},
    "es": {"Y": "A", "B": "M", "G": "G", "K": "N"},
}
_TRANS = {
    "en": {"W": "wheelbarrow", "C": "carriage", "T": "truck", "L": "locomotive"},
    "es": {"W": "carretilla", "C": "carruaje", "T": "camión", "L": "locomotora"},
}
_SIDE = {"en": {"light": "light", "dark": "dark"}, "es": {"light": "claro", "dark": "oscuro"}}


def _tile(t: int, loc: Locale) -> str:
    tile = TILES[t]
    col, side = _COL[loc][tile.colour], _SIDE[loc][tile.side]
    if loc == "es":
        carts = "1 vagoneta" if tile.carts == 1 else f"{tile.carts} vagonetas"
        return f"túnel {col}, {carts} ({side})"
    carts = "1 cart" if tile.carts == 1 else f"{tile.carts} carts"
    return f"{col} tunnel, {carts} ({side})"


def _order(o: int, loc: Locale) -> str:
    card = ORDERS[o]
    coal = "".join(_LETTER[loc][c] for c in card.spots)
    vp = "PV" if loc == "es" else "VP"
    return f"{card.code} ({_TRANS[loc][card.transport]}, {coal}, {card.vp} {vp})"


def _code(o: int) -> str:
    return ORDERS[o].code


def _items(kind: str, items: list[int], loc: Locale) -> str:
    return "; ".join(_tile(i, loc) if kind == "tile" else _order(i, loc) for i in items)


def _seat(seat: int, loc: Locale) -> str:
    """A seat as the app names it: numbered from 1 (static/i18n ``seat.number``)."""
    return f"{'Asiento' if loc == 'es' else 'Seat'} {seat + 1}"


def _seats(seats: list[int], loc: Locale) -> str:
    names = [_seat(s, loc) for s in seats]
    if len(names) < 2:
        return "".join(names)
    joiner = " y " if loc == "es" else " and "
    return ", ".join(names[:-1]) + joiner + names[-1]


def _level(level: int, loc: Locale) -> str:
    if level == 0:
        return "la superficie" if loc == "es" else "the surface"
    return f"{'nivel' if loc == 'es' else 'level'} {level}"


def _space(space: str, loc: Locale) -> str:
    """The space as the board names it (gluckauf.space.* keys)."""
    es = loc == "es"
    if space == "FACT-DRAW":
        return "Robar 5 túneles" if es else "Draw 5 tiles"
    if space == "ORDER-DRAW":
        return "Robar 5 pedidos" if es else "Draw 5 orders"
    if space == "BANK":
        return "Banco" if es else "Bank"
    group, value = space.split("-")
    if group == "DELIV":
        t = _TRANS[loc][value]
        return f"Entregar en {t}" if es else f"Deliver by {t}"
    names = {
        "FACT": ("Fábrica", "Factory"),
        "MINE": ("Extracción", "Mining"),
        "MONEY": ("Dinero", "Money"),
        "ORDER": ("Pedido", "Order"),
    }
    es_name, en_name = names.get(group, (group, group))
    return f"{es_name if es else en_name} {value}"


def _category(cat: Category, loc: Locale) -> str:
    if cat.kind == "colour":
        c = _COL[loc][cat.key]
        return f"carbón {c} entregado" if loc == "es" else f"{c} coal delivered"
    if cat.kind == "transport":
        t = _TRANS[loc][cat.key]
        return f"carbón entregado en {t}" if loc == "es" else f"coal delivered by {t}"
    if loc == "es":
        return f"vagonetas {_COL_FEM_PL[cat.key]} vacías"
    return f"empty {_COL[loc][cat.key]} carts"


def describe(item: BaseModel, locale: Locale = "en") -> str:
    """Return one log line (several for scorings) for an action or an event of this game.

    For the game's Result: how each tie on VP was settled (one line per tie), or "".
    """
    if isinstance(item, Result):
        return _result_ties(item, locale)
    line = _describe_action(item, locale)
    if line is not None:
        return line
    return _describe_event(item, locale)


def _describe_action(item: BaseModel, locale: Locale) -> str | None:
    es = locale == "es"
    col = _COL[locale]
    if isinstance(item, a.DraftOrder):
        o = _order(item.card, locale)
        return f"Elegir el pedido {o}" if es else f"Draft order {o}"
    if isinstance(item, a.PlaceWorker):
        sp = _space(item.space, locale)
        return f"Colocar trabajadores en {sp}" if es else f"Place workers on {sp}"
    if isinstance(item, a.ChooseCoal):
        c = col[item.colour]
        return (
            f"Poner un cubo {c} sustituto en la vagoneta"
            if es
            else f"Put a substitute {c} cube on the cart"
        )
    if isinstance(item, a.KeepItem):
        if item.item is None:
            return "No quedarse nada" if es else "Keep nothing"
        return f"Quedarse el elemento n.º {item.item}" if es else f"Keep item #{item.item}"
    if isinstance(item, a.ChooseEnd):
        where = {"top": ("arriba", "top"), "bottom": ("abajo", "bottom")}[item.end]
        return f"Devolver el resto {where[0]}" if es else f"Return the rest to the {where[1]}"
    if isinstance(item, a.ReturnItem):
        return (
            f"Devolver el n.º {item.item} a continuación"
            if es
            else f"Return item #{item.item} next"
        )
    if isinstance(item, a.MoveCage):
        lv = _level(item.level, locale)
        return f"Mover la jaula a {lv} (1 paso)" if es else f"Move the cage to {lv} (1 step)"
    if isinstance(item, a.LoadCube):
        c = col[item.colour]
        return f"Cargar un cubo {c} en la jaula (1 paso)" if es else f"Load a {c} cube (1 step)"
    if isinstance(item, a.UnloadCube):
        c, o = col[item.colour], _code(item.order)
        return (
            f"Poner un cubo {c} de la jaula en {o} (1 paso)"
            if es
            else f"Put a {c} cube from the cage on {o} (1 step)"
        )
    if isinstance(item, a.StoreCube):
        c = col[item.colour]
        return f"Almacenar un cubo {c} (1 paso)" if es else f"Store a {c} cube (1 step)"
    if isinstance(item, a.PlaceStoredCube):
        c, o = col[item.colour], _code(item.order)
        return (
            f"Poner un cubo {c} del almacén en {o} (1 paso)"
            if es
            else f"Put a stored {c} cube on {o} (1 step)"
        )
    if isinstance(item, a.StartTwoForOne):
        c, o = col[item.colour], _code(item.order)
        return (
            f"Dos por uno en el hueco {c} de {o} (2 pasos)"
            if es
            else f"Two-for-one on the {c} spot of {o} (2 steps)"
        )
    if isinstance(item, a.AddCube):
        c = col[item.colour]
        src = {"cage": ("la jaula", "the cage"), "storage": ("el almacén", "storage")}[item.source]
        return (
            f"Añadir un cubo {c} de {src[0]} (1 paso)"
            if es
            else f"Add a {c} cube from {src[1]} (1 step)"
        )
    if isinstance(item, a.StopMining):
        return (
            "Terminar la extracción (los pasos que quedan se pierden)"
            if es
            else "Stop mining (the steps left are lost)"
        )
    return None


def _describe_event(item: BaseModel, locale: Locale) -> str:
    es = locale == "es"
    col = _COL[locale]
    if isinstance(item, ev.OrderDrafted):
        who, o = _seat(item.seat, locale), _order(item.card, locale)
        return f"{who} eligió el pedido {o}" if es else f"{who} drafted order {o}"
    if isinstance(item, ev.OrderSpacesFilled):
        cards = "; ".join(
            f"{_space(k, locale)}: {_order(v, locale)}" for k, v in item.cards.items()
        )
        return f"Pedidos en el tablero: {cards}" if es else f"Order spaces filled: {cards}"
    if isinstance(item, ev.WorkerPlaced):
        who, sp = _seat(item.seat, locale), _space(item.space, locale)
        line = (
            f"{who} colocó {count(item.count, 'trabajador', 'trabajadores')} en {sp}"
            if es
            else f"{who} placed {count(item.count, 'worker', 'workers')} on {sp}"
        )
        if item.ousted_seat is not None:
            other = _seat(item.ousted_seat, locale)
            line += (
                f"; {count(item.ousted_count, 'trabajador', 'trabajadores')} de {other} "
                f"{form(item.ousted_count, 'va', 'van')} a la cantina"
                if es
                else f"; {count(item.ousted_count, 'worker', 'workers')} of {other} "
                "went to the canteen"
            )
        return line
    if isinstance(item, ev.TileBought):
        who, t = _seat(item.seat, locale), _tile(item.tile, locale)
        return (
            f"{who} compró un {t} por {item.cost} marcos"
            if es
            else f"{who} bought a {t} for {item.cost} Marks"
        )
    if isinstance(item, ev.CoalSubstituted):
        who = _seat(item.seat, locale)
        if item.colour is None:
            return (
                f"{who}: no queda carbón en la reserva, una vagoneta queda vacía"
                if es
                else f"{who}: the supply is out of coal, a cart stays empty"
            )
        c = col[item.colour]
        return (
            f"{who} puso un cubo {c} sustituto en una vagoneta (falta carbón)"
            if es
            else f"{who} put a substitute {c} cube on a cart (coal shortage)"
        )
    if isinstance(item, ev.ItemsDrawn):
        who = _seat(item.seat, locale)
        what = ("túneles", "tiles") if item.kind == "tile" else ("pedidos", "orders")
        return (
            f"{who} robó {item.count} {what[0]} (solo los ve quien roba)"
            if es
            else f"{who} drew {item.count} {what[1]} (seen only by the drawer)"
        )
    if isinstance(item, ev.ItemsSeen):
        items = _items(item.kind, item.items, locale)
        return f"Has visto: {items}" if es else f"You saw: {items}"
    if isinstance(item, ev.ItemKept):
        who = _seat(item.seat, locale)
        if item.item is None:
            return f"{who} no se quedó nada" if es else f"{who} kept nothing"
        name = _items(item.kind, [item.item], locale)
        return f"{who} se quedó {name}" if es else f"{who} kept {name}"
    if isinstance(item, ev.ItemsReturned):
        who = _seat(item.seat, locale)
        if item.end is None:
            return f"{who} devolvió {item.count}" if es else f"{who} returned {item.count}"
        where = {"top": ("arriba", "top"), "bottom": ("abajo", "bottom")}[item.end]
        return (
            f"{who} devolvió {item.count} {where[0]}"
            if es
            else f"{who} returned {item.count} to the {where[1]}"
        )
    if isinstance(item, ev.ItemsReturnedPrivately):
        items = _items(item.kind, item.items, locale)
        return f"Devolviste, de arriba abajo: {items}" if es else f"You returned, top down: {items}"
    if isinstance(item, ev.MoneyGained):
        who = _seat(item.seat, locale)
        return f"{who} ganó {item.amount} marcos" if es else f"{who} gained {item.amount} Marks"
    if isinstance(item, ev.OrderTaken):
        who, o = _seat(item.seat, locale), _order(item.card, locale)
        return f"{who} tomó el pedido {o}" if es else f"{who} took order {o}"
    if isinstance(item, ev.MiningStarted):
        who = _seat(item.seat, locale)
        return (
            f"{who} extrae con {item.steps} pasos" if es else f"{who} mines with {item.steps} steps"
        )
    if isinstance(item, ev.CageMoved):
        who, lv = _seat(item.seat, locale), _level(item.to_level, locale)
        return (
            f"{who} movió la jaula a {lv} (pasos restantes: {item.steps_left})"
            if es
            else f"{who} moved the cage to {lv} ({item.steps_left} steps left)"
        )
    if isinstance(item, ev.CubeLoaded):
        who, c = _seat(item.seat, locale), col[item.colour]
        return (
            f"{who} cargó un cubo {c} en el nivel {item.level} (pasos restantes: {item.steps_left})"
            if es
            else f"{who} loaded a {c} cube on level {item.level} ({item.steps_left} left)"
        )
    if isinstance(item, ev.CubeUnloaded):
        who, c, o = _seat(item.seat, locale), col[item.colour], _code(item.order)
        return (
            f"{who} puso un cubo {c} en {o} (pasos restantes: {item.steps_left})"
            if es
            else f"{who} put a {c} cube on {o} ({item.steps_left} left)"
        )
    if isinstance(item, ev.CubeStored):
        who, c = _seat(item.seat, locale), col[item.colour]
        return (
            f"{who} almacenó un cubo {c} (pasos restantes: {item.steps_left})"
            if es
            else f"{who} stored a {c} cube ({item.steps_left} left)"
        )
    if isinstance(item, ev.StoredCubePlaced):
        who, c, o = _seat(item.seat, locale), col[item.colour], _code(item.order)
        return (
            f"{who} puso un cubo {c} del almacén en {o} (pasos restantes: {item.steps_left})"
            if es
            else f"{who} put a stored {c} cube on {o} ({item.steps_left} left)"
        )
    if isinstance(item, ev.TwoForOneStarted):
        who, c, o = _seat(item.seat, locale), col[item.colour], _code(item.order)
        return (
            f"{who} llena el hueco {c} de {o} con dos por uno"
            if es
            else f"{who} fills the {c} spot of {o} two-for-one"
        )
    if isinstance(item, ev.CubeAdded):
        who, c = _seat(item.seat, locale), col[item.colour]
        src = {"cage": ("de la jaula", "from the cage"), "storage": ("del almacén", "from storage")}
        return (
            f"{who} añadió un cubo {c} {src[item.source][0]} (pasos restantes: {item.steps_left})"
            if es
            else f"{who} added a {c} cube {src[item.source][1]} ({item.steps_left} left)"
        )
    if isinstance(item, ev.MiningEnded):
        who = _seat(item.seat, locale)
        return (
            f"{who} terminó de extraer ({item.steps_lost} pasos perdidos)"
            if es
            else f"{who} stopped mining ({item.steps_lost} steps lost)"
        )
    if isinstance(item, ev.OrdersDelivered):
        who, t = _seat(item.seat, locale), _TRANS[locale][item.transport]
        cards = ", ".join(f"{_code(c)} {ORDERS[c].vp}" for c in item.cards)
        return (
            f"{who} entregó en {t}: {cards} → +{item.vp} PV"
            if es
            else f"{who} delivered by {t}: {cards} → +{item.vp} VP"
        )
    if isinstance(item, ev.SpaceRefilled):
        sp = _space(item.space, locale)
        name = (
            _tile(item.item, locale) if item.space.startswith("FACT") else _order(item.item, locale)
        )
        return f"{sp} se repone: {name}" if es else f"{sp} refilled: {name}"
    if isinstance(item, ev.ShiftScored):
        return _shift_scored(item, locale)
    if isinstance(item, ev.StartingPlayerChosen):
        who = _seat(item.seat, locale)
        if not item.factory_workers:
            # The setup's choice (§4 step 6): drawn or fixed by the host, no factory count.
            return f"{who} es el jugador inicial" if es else f"{who} is the starting player"
        counts = ", ".join(f"{_seat(s, locale)} {n}" for s, n in item.factory_workers.items())
        return (
            f"{who} pasa a ser jugador inicial (trabajadores en la fábrica: {counts})"
            if es
            else f"{who} becomes starting player (workers in the factory: {counts})"
        )
    if isinstance(item, ev.ShiftStarted):
        who = _seat(item.starting_player, locale)
        return (
            f"Empieza el turno {item.shift}; empieza {who}"
            if es
            else f"Shift {item.shift} begins; {who} starts"
        )
    if isinstance(item, ev.FinalScored):
        return _final_scored(item, locale)
    if isinstance(item, ev.GameEnded):
        return _game_ended(item, locale)
    raise TypeError(f"describe: unknown item {type(item).__name__}")


# --------------------------------------------------------------------------- scorings


def _shift_scored(item: ev.ShiftScored, loc: Locale) -> str:
    """A headline with each seat's gain, then one line per category (§8.1 step 4)."""
    es = loc == "es"
    totals = ", ".join(f"{_seat(s, loc)} +{v}" for s, v in sorted(item.totals.items()))
    lines = [
        f"Puntuación del turno {item.shift}: {totals} PV"
        if es
        else f"Shift {item.shift} scoring: {totals} VP"
    ]
    two_players = len(item.totals) == 2
    for cat in categories_for_shift(item.shift):
        counts = item.counts.get(cat.number, {})
        awards = item.awards.get(cat.number, {})
        lines.append(_category_line(cat, counts, awards, two_players, loc))
    return "\n".join(lines)


def _category_line(
    cat: Category, counts: dict[int, int], awards: dict[int, int], two_players: bool, loc: Locale
) -> str:
    es = loc == "es"
    vp = "PV" if es else "VP"
    prizes = f"1.º {cat.first} {vp}" if two_players else f"1.º {cat.first}, 2.º {cat.second} {vp}"
    if not es:
        prizes = f"1st {cat.first} VP" if two_players else f"1st {cat.first}, 2nd {cat.second} VP"
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    listed = ", ".join(f"{_seat(s, loc)} {n}" for s, n in ranked)
    head = f"· {cat.number}. {_category(cat, loc)} ({prizes}): {listed}"
    positive = {s: n for s, n in counts.items() if n > 0}
    if not positive:
        return head + (" → nadie tiene ninguno, nadie puntúa" if es else " → nobody has any, no VP")
    top = max(positive.values())
    leaders = sorted(s for s, n in positive.items() if n == top)
    first_vp = awards.get(leaders[0], cat.first)
    if len(leaders) > 1:
        who = _seats(leaders, loc)
        return head + (
            f" → empate en el 1.º: {who} +{first_vp} cada uno; no hay 2.º puesto"
            if es
            else f" → tie for 1st: {who} +{first_vp} each; no 2nd place"
        )
    out = head + (
        f" → {_seat(leaders[0], loc)} 1.º +{first_vp}"
        if es
        else f" → {_seat(leaders[0], loc)} 1st +{first_vp}"
    )
    seconds = sorted(s for s, v in awards.items() if s not in leaders and v > 0)
    if seconds:
        who = _seats(seconds, loc)
        gain = awards[seconds[0]]
        each = (" cada uno" if es else " each") if len(seconds) > 1 else ""
        return out + (f"; {who} 2.º +{gain}{each}" if es else f"; {who} 2nd +{gain}{each}")
    if two_players:
        return out + (
            "; con 2 jugadores no hay 2.º puesto" if es else "; no 2nd place with 2 players"
        )
    return out + ("; nadie más tiene ninguno" if es else "; nobody else has any")


def _final_scored(item: ev.FinalScored, loc: Locale) -> str:
    """The four steps of §9 for one seat, each with the count behind it when known."""
    es = loc == "es"
    who = _seat(item.seat, loc)
    before = item.vp_before
    if before is None:
        before = (
            item.total - item.money_vp - item.coal_vp - item.order_penalty - item.imbalance_penalty
        )
    vp = "PV" if es else "VP"
    lines = [
        f"{who}: puntuación final {before} → {item.total} PV"
        if es
        else f"{who}: final scoring {before} → {item.total} VP"
    ]
    money = item.money if item.money is not None else 5 * item.money_vp + item.money_left
    lines.append(
        f"· Dinero: {money} marcos → +{item.money_vp} {vp} (1 por cada 5); "
        f"sobran {item.money_left} marcos para el desempate"
        if es
        else f"· Money: {money} Marks → +{item.money_vp} {vp} (1 per 5); "
        f"{item.money_left} Marks left for the tie-break"
    )
    cubes = f"{item.cubes} cubos" if item.cubes is not None else "cubos"
    if not es:
        cubes = f"{item.cubes} cubes" if item.cubes is not None else "cubes"
    lines.append(
        f"· Carbón: {cubes} en vagonetas, jaula, almacén y pedidos → +{item.coal_vp} {vp} "
        "(1 por cada 3)"
        if es
        else f"· Coal: {cubes} in carts, cage, storage and on orders → +{item.coal_vp} {vp} "
        "(1 per 3)"
    )
    open_orders = -item.order_penalty
    lines.append(
        f"· Pedidos sin entregar: {open_orders} → {item.order_penalty} {vp} (−1 cada uno)"
        if es
        else f"· Open orders: {open_orders} → {item.order_penalty} {vp} (−1 each)"
    )
    if item.light_tiles is not None and item.dark_tiles is not None:
        sides = (
            f"{item.light_tiles} claros y {item.dark_tiles} oscuros"
            if es
            else f"{item.light_tiles} light and {item.dark_tiles} dark"
        )
    else:
        diff = -item.imbalance_penalty // 2
        sides = f"{diff} de diferencia" if es else f"{diff} apart"
    lines.append(
        f"· Desequilibrio: túneles {sides} → {item.imbalance_penalty} {vp} "
        "(−2 por túnel de diferencia)"
        if es
        else f"· Imbalance: tiles {sides} → {item.imbalance_penalty} {vp} "
        "(−2 per tile of difference)"
    )
    return "\n".join(lines)


def _game_ended(item: ev.GameEnded, loc: Locale) -> str:
    """The ranking, then how each tie on VP was settled by the Marks left over (§9)."""
    es = loc == "es"
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
    vp = "PV" if es else "VP"
    ranking = ", ".join(
        f"{places.get(s, i + 1)}.º {_seat(s, loc)} {item.scores.get(s, 0)} {vp}"
        if es
        else f"{places.get(s, i + 1)}. {_seat(s, loc)} {item.scores.get(s, 0)} {vp}"
        for i, s in enumerate(item.ranking)
    )
    lines = [f"Fin de la partida: {ranking}" if es else f"Game over: {ranking}"]
    if item.money_left:
        lines += [
            f"· {line}" for line in _tie_lines(item.scores, item.ranking, item.money_left, loc)
        ]
    elif any(list(item.scores.values()).count(v) > 1 for v in item.scores.values()):
        lines.append(f"· {item.tiebreak}")
    return "\n".join(lines)


def _tie_lines(
    scores: dict[int, int], ranking: list[int], money_left: dict[int, int], loc: Locale
) -> list[str]:
    """One line per tie on VP: the Marks left over decide, equal Marks share the place (§9)."""
    es = loc == "es"
    lines: list[str] = []
    for score in sorted(set(scores.values()), reverse=True):
        tied = [s for s in ranking if scores.get(s) == score]
        if len(tied) < 2:
            continue
        marks = ", ".join(f"{_seat(s, loc)} {money_left.get(s, 0)}" for s in tied)
        line = (
            f"Empate a {score} PV: deciden los marcos sobrantes ({marks})"
            if es
            else f"Tie at {score} VP: the Marks left over decide ({marks})"
        )
        by_marks: dict[int, list[int]] = {}
        for s in tied:
            by_marks.setdefault(money_left.get(s, 0), []).append(s)
        for group in by_marks.values():
            if len(group) > 1:
                who = _seats(sorted(group), loc)
                line += f"; {who} comparten el puesto" if es else f"; {who} share the place"
        lines.append(line)
    return lines


def _result_ties(result: Result, loc: Locale) -> str:
    """The Result's ties, from the leftover Marks each seat's final scoring kept."""
    final = by_seat(result.details.get("final", {}))
    money_left = {seat: int(f.get("money_left", 0)) for seat, f in final.items()}
    return "\n".join(_tie_lines(result.scores, result.ranking, money_left, loc))


__all__ = ["describe"]
