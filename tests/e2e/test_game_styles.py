"""Each game's sheet styles its own board and nothing else (issue 19.5).

The table page links exactly the sheet of its game (static/css/<game>.css, built from the
table's game id) and marks the board with data-game; a game's rules live under that mark. So
an element of the board's kind (Luz's `card`, `bead`, the game's own piece) placed outside
the board is drawn like a plain element, and the same element on the board is styled.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import make_player
from tests.e2e.helpers import game_fixtures, seated_table

GAMES = ("luz", "gluckauf", "mine", "ginkgopolis")
gs_server, gs_api, gs_context = game_fixtures(GAMES, "gs")

#: A piece each board draws at the start, styled by its game's sheet.
PIECE = {"luz": ".card", "gluckauf": ".space", "mine": ".mcard", "ginkgopolis": ".gk-card"}

# Computed style of `probe` against a plain element of the same tag in the same parent.
DIFFERENCES = """([parent, tag, classes]) => {
  const host = typeof parent === "string" ? document.querySelector(parent) : parent;
  const probe = document.createElement(tag);
  probe.className = classes;
  const plain = document.createElement(tag);
  host.append(probe, plain);
  const a = getComputedStyle(probe), b = getComputedStyle(plain);
  const differ = [...a].filter((p) => a.getPropertyValue(p) !== b.getPropertyValue(p));
  probe.remove();
  plain.remove();
  return differ;
}"""

OUTSIDE = """() => {
  const box = document.createElement("div");
  box.id = "style-probe";
  document.body.append(box);
}"""


def game_sheets(page: Any) -> list[str]:
    """The game sheets linked by the page (by path), whatever else it links."""
    paths: list[str] = page.evaluate(
        "[...document.querySelectorAll('link[rel=stylesheet]')]"
        ".map((l) => new URL(l.href).pathname)"
    )
    return [p for p in paths if p in {f"/static/css/{g}.css" for g in GAMES}]


@pytest.mark.parametrize("game", GAMES)
def test_a_table_links_its_game_sheet_and_it_stays_on_the_board(
    game: str, gs_api: Any, gs_context: Any
) -> None:
    ana = make_player(gs_api, "Ana")
    table_id = seated_table(gs_api, ana, bots=2, game=game)
    page = gs_context(player=ana).new_page()
    page.goto(f"/tables/{table_id}")
    piece = page.locator(f"#board[data-game='{game}'] {PIECE[game]}").first
    piece.wait_for(state="attached")

    assert game_sheets(page) == [f"/static/css/{game}.css"]

    page.evaluate(OUTSIDE)
    piece_class = PIECE[game].lstrip(".")  # alone: a piece's other classes may be the shell's
    tag = piece.evaluate("(el) => el.tagName.toLowerCase()")
    # Outside the board: Luz's global-looking names and the game's own piece are plain.
    for tag_name, classes in (
        ("span", "card face c-R"),
        ("span", "bead bead-bet"),
        (tag, piece_class),
    ):
        differ = page.evaluate(DIFFERENCES, ["#style-probe", tag_name, classes])
        assert differ == [], f"{game}: .{classes} outside the board is styled: {differ}"
    # On the board, beside the real piece, the same element is the game's.
    parent = piece.evaluate_handle("(el) => el.parentElement")
    differ = page.evaluate(DIFFERENCES, [parent, tag, piece_class])
    assert differ, f"{game}: {PIECE[game]} on the board has no style of its game"
