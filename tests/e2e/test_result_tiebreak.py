"""The result panel explains a tie in the page's language, with seats counted from 1."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import auth, make_player


def _tied_pick_table(api: httpx.Client) -> str:
    """Three players finish a Pick game (pile 7, takes of at most 3) with the first two
    movers on 3 tokens each: 3, 3, then the last token."""
    players = [make_player(api, name) for name in ("Ana", "Ben", "Cid")]
    r = api.post(
        "/tables",
        json={"game": "pick", "seats": 3, "options": {"pile": 7, "max_take": 3}},
        headers=auth(players[0]),
    )
    r.raise_for_status()
    tid: str = r.json()["id"]
    for p in players[1:]:
        api.post(f"/tables/{tid}/join", headers=auth(p)).raise_for_status()
    api.post(f"/tables/{tid}/start", headers=auth(players[0])).raise_for_status()
    by_seat = {api.get(f"/tables/{tid}/state", headers=auth(p)).json()["seat"]: p for p in players}
    for count in (3, 3, 1):
        state = api.get(f"/tables/{tid}/state").json()
        (seat,) = state["to_act"]
        action = {"version": state["version"], "action": {"type": "take", "count": count}}
        api.post(
            f"/tables/{tid}/actions", json=action, headers=auth(by_seat[seat])
        ).raise_for_status()
    assert api.get(f"/tables/{tid}/state").json()["status"] == "finished"
    return tid


def test_the_result_panel_explains_the_tie_in_the_pages_language(
    new_context: Any, api: httpx.Client
) -> None:
    tid = _tied_pick_table(api)
    page = new_context(locale="es-ES").new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(f"/tables/{tid}")
    tiebreak = page.locator("#result [data-testid=tiebreak]")
    expect(tiebreak).to_have_count(1)
    expect(tiebreak).to_contain_text("Empate a 3 fichas: desempata la suma")
    expect(tiebreak).not_to_contain_text("sum of bonus cards")
    # Switching the language asks the server again: the same tie, in English.
    page.select_option("#lang-switch", "en")
    expect(tiebreak).to_contain_text("Tie on 3 tokens: the bonus cards' sums decide")
    assert not problems, problems
