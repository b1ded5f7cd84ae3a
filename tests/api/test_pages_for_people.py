"""What people read (docs/API-EXTENSIONS.md "Pages for browsers", "Readable log lines"):

- an unknown address answers a browser with an HTML 404 page in its language, while /api
  paths and every other client keep the JSON envelope;
- the replay's steps carry the server's readable lines with ``?lang=``: each event's
  ``text`` (as in the log) and each action's ``action_text``.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.games.base import describe_event
from tests.support.client import Player, make_table, new_player
from tests.support.pickgame import PICK, Take

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def _get(http: httpx.Client, path: str, accept: str | None, language: str | None = None) -> Any:
    headers = {}
    if accept is not None:
        headers["Accept"] = accept
    if language is not None:
        headers["Accept-Language"] = language
    return http.get(path, headers=headers)


@pytest.mark.parametrize(
    ("language", "lang", "title"),
    [
        ("es-ES,es;q=0.9,en;q=0.8", "es", "No hay ninguna página en esta dirección."),
        ("en-GB,en;q=0.9", "en", "There is no page at this address."),
        ("fr-FR,fr;q=0.9,es;q=0.5", "es", "No hay ninguna página en esta dirección."),
        ("de, en;q=0.2, es;q=0.7", "es", "No hay ninguna página en esta dirección."),
        (None, "en", "There is no page at this address."),
    ],
)
def test_a_browser_gets_an_html_404_page_in_its_language(
    http: httpx.Client, language: str | None, lang: str, title: str
) -> None:
    for path in ("/no/such/page", "/replay/abc", "/games/no-such-game/rules", "/static/nope.html"):
        r = _get(http, path, BROWSER, language)
        assert r.status_code == 404, path
        assert r.headers["content-type"].startswith("text/html"), path
        assert f'<html lang="{lang}">' in r.text and title in r.text, path
        assert "{{" not in r.text, path  # every string filled in
        assert "Accept-Language" in r.headers["vary"]
        assert "content-security-policy" in r.headers  # a page like the others


@pytest.mark.parametrize(
    ("path", "accept"),
    [
        ("/api/v1/no/such/thing", BROWSER),  # the API stays JSON, whoever asks
        ("/api/nothing", "text/html"),
        ("/no/such/page", None),  # no preference: a program, not a browser
        ("/no/such/page", "*/*"),
        ("/no/such/page", "application/json"),
        ("/no/such/page", "application/json, text/html;q=0.5"),
        ("/no/such/page", "text/html;q=0"),
    ],
)
def test_the_api_and_other_clients_keep_the_json_envelope(
    http: httpx.Client, path: str, accept: str | None
) -> None:
    r = _get(http, path, accept, "es")
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/json"
    assert r.json() == {"error": {"code": "not_found", "message": "no such resource"}}


def test_a_missing_table_stays_a_json_404_for_the_api(http: httpx.Client) -> None:
    r = _get(http, "/api/v1/tables/no-such-table", BROWSER, "es")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def _finished_pick(http: httpx.Client) -> tuple[str, list[Player]]:
    """A Pick game of two over a pile of 4 (takes of at most 3): four takes of one token."""
    players = [new_player(http, "Ana"), new_player(http, "Ben")]
    tid = make_table(players[0], "pick", 2, {"pile": 4, "max_take": 3})["id"]
    assert players[1].post(f"/api/v1/tables/{tid}/join").status_code == 200
    assert players[0].post(f"/api/v1/tables/{tid}/start").status_code == 200
    for _ in range(10):
        for p in players:
            state = p.state(tid)
            takes = [a for a in state["legal_actions"] if a == {"type": "take", "count": 1}]
            if takes:
                assert p.act(tid, state["version"], takes[0]).status_code == 200
    assert players[0].state(tid)["status"] == "finished"
    return tid, players


def test_replay_steps_carry_the_readable_lines_in_the_language_asked(
    http: httpx.Client,
) -> None:
    tid, (ana, _ben) = _finished_pick(http)
    plain = ana.get(f"/api/v1/tables/{tid}/replay/steps?perspective=full").json()["steps"]
    assert all("action_text" not in s for s in plain)
    assert all("text" not in e for s in plain for e in s["events"])

    log = {
        (e["version"], e["type"]): e["text"]
        for e in ana.get(f"/api/v1/tables/{tid}/log?lang=es").json()["events"]
    }
    for perspective in ("full", "0", "spectator"):
        r = ana.get(f"/api/v1/tables/{tid}/replay/steps?perspective={perspective}&lang=es")
        assert r.status_code == 200, r.text
        steps = r.json()["steps"]
        assert [s["version"] for s in steps] == [1, 2, 3, 4, 5]
        actions = [s for s in steps if s["kind"] == "action"]
        assert len(actions) == 4
        for step in actions:
            # The game's own line for the action, as PICK describes it.
            assert step["action_text"] == PICK.describe(Take(count=1), "es") == "coge 1"
            for event in step["events"]:
                plain_event = {k: v for k, v in event.items() if k != "text"}
                assert event["text"] == describe_event(PICK, plain_event, "es")  # type: ignore[arg-type]
                # The same line as the log's, for what the log shows the caller.
                assert log.get((step["version"], event["type"]), event["text"]) == event["text"]
    english = ana.get(f"/api/v1/tables/{tid}/replay/steps?perspective=0&lang=en").json()
    assert english["steps"][1]["action_text"] == "take 1"
    assert english["steps"][1]["events"][0]["text"].startswith("Seat ")
    bad = ana.get(f"/api/v1/tables/{tid}/replay/steps?perspective=0&lang=fr")
    assert bad.status_code == 422
