"""The component tables the board renderers carry (static/js/games/<game>.js) are the ones of
the game's data.py (issue 19.5): the browser draws order cards, profession cards and
characters from its own copy, so a copy that drifts from the engine's would draw a card the
engine does not have. Each table is read out of the module's source and compared."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.games.ginkgopolis import data as ginkgopolis
from app.games.gluckauf import data as gluckauf
from app.games.mine import data as mine

GAMES = Path(__file__).resolve().parents[2] / "static" / "js" / "games"


def source(game: str) -> str:
    return (GAMES / f"{game}.js").read_text(encoding="utf-8")


def literal(text: str, name: str) -> Any:
    """The array or object literal assigned to ``const name`` (JSON once its keys are quoted)."""
    start = re.search(rf"^const {name} = ([\[{{])", text, re.M)
    assert start, f"no const {name} in the renderer"
    opening = start.group(1)
    closing = "]" if opening == "[" else "}"
    depth = 0
    for end in range(start.start(1), len(text)):
        depth += {opening: 1, closing: -1}.get(text[end], 0)
        if depth == 0:
            break
    body = text[start.start(1) : end + 1]
    body = re.sub(r"([{,]\s*)([A-Za-z_]\w*)\s*:", r'\1"\2":', body)  # bare keys
    body = re.sub(r",(\s*[\]}])", r"\1", body)  # trailing commas
    return json.loads(body)


# ------------------------------------------------------------------ Glück Auf


def test_gluckauf_colours_and_transports() -> None:
    text = source("gluckauf")
    assert tuple(literal(text, "COLOURS")) == gluckauf.COLOURS
    assert tuple(literal(text, "TRANSPORTS")) == gluckauf.TRANSPORTS


def test_gluckauf_order_cards() -> None:
    rows = literal(source("gluckauf"), "ORDER_ROWS")
    assert [(row[0], row[1], row[2]) for row in rows] == [
        (o.code, "".join(o.spots), o.vp) for o in gluckauf.ORDERS
    ]
    assert all(row[0][0] == o.transport for row, o in zip(rows, gluckauf.ORDERS, strict=True))


def test_gluckauf_scoring_categories() -> None:
    rows = literal(source("gluckauf"), "CATEGORIES")
    assert [tuple(row) for row in rows] == [
        (c.number, c.kind, c.key, c.first, c.second, c.from_shift) for c in gluckauf.SCORING
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the renderer's tileOf")
def test_gluckauf_tiles() -> None:
    """tileOf computes a tile from its id: run it for every id and compare with TILES."""
    text = source("gluckauf")
    # Each imported name becomes a stub: tileOf needs none of them.
    body = re.sub(
        r"^import \{([^}]*)\} from .*$",
        lambda m: "const " + ", ".join(f"{n.strip()} = () => null" for n in m[1].split(",")) + ";",
        text,
        flags=re.M,
    )
    script = (
        body + "\nconsole.log(JSON.stringify(Array.from({ length: 48 }, (_, id) => tileOf(id))));\n"
    )
    out = subprocess.run(
        ["node", "--input-type=module"], input=script, capture_output=True, text=True, check=True
    )
    tiles = json.loads(out.stdout)
    assert [(t["id"], t["colour"], t["carts"], t["side"]) for t in tiles] == [
        (t.id, t.colour, t.carts, t.side) for t in gluckauf.TILES
    ]


# ------------------------------------------------------------------ MINE!


def test_mine_locations_and_colours() -> None:
    text = source("mine")
    assert tuple(literal(text, "LOCATIONS")) == mine.LOCATIONS
    assert tuple(literal(text, "SYMBOL")) == mine.COLOUR_IDS


def test_mine_card_table() -> None:
    """[first id, count, kind, atk, def, ext, rec]: professions with their helmets, then events."""
    rows = literal(source("mine"), "CARD_TABLE")
    expected: list[list[Any]] = [
        [p.first_id, p.count, p.kind, p.atk, p.defence, p.ext, p.rec] for p in mine.PROFESSION_TYPES
    ] + [[e.first_id, e.count, e.kind] for e in mine.EVENT_TYPES]
    assert rows == expected


# ------------------------------------------------------------------ Ginkgopolis


def test_ginkgopolis_characters() -> None:
    """The character cards C01…C27 as "colour + trigger letter" in order."""
    text = source("ginkgopolis")
    found = re.search(r'^const CHARACTERS = "([^"]*)"', text, re.M)
    assert found, "no CHARACTERS string in the renderer"
    letters = {"exploit": "E", "urbanize": "U", "build_up": "B"}
    assert found.group(1).split(" ") == [
        f"{c.colour}{letters[c.trigger]}" for c in ginkgopolis.CHARACTERS.values()
    ]
