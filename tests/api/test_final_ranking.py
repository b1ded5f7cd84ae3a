"""Over the API: a Luz game with a seat resigned (ranked last) ends with one final ranking
in every answer (issue 35): ``result.places``, ``result.tiebreak``, ``tiebreak_text`` and
the ``game_ended`` line of the log, in Spanish and English (tests/unit/test_final_ranking.py
holds every game to it over many resignations and ties)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.games import REGISTRY
from app.tables.outcomes import final_standing
from app.verify import VerificationFailed, verify
from tests.conftest import test_games
from tests.support.client import new_player
from tests.support.waiting import wait_until

API = "/api/v1"


def test_a_resigned_luz_game_reads_one_final_ranking_everywhere(http: httpx.Client) -> None:
    ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
    r = ana.post(f"{API}/tables", {"game": "luz", "seats": 4})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert ben.post(f"{API}/tables/{tid}/join").is_success
    for _ in range(2):
        assert ana.post(f"{API}/tables/{tid}/bots", {"level": "random"}).is_success
    assert ana.post(f"{API}/tables/{tid}/start").status_code == 200
    assert ana.post(f"{API}/tables/{tid}/resign").status_code == 200

    def played_out() -> dict[str, Any] | None:
        s = ben.state(tid)
        if s["status"] == "finished":
            return s
        if s["legal_actions"]:
            r = ben.act(tid, s["version"], s["legal_actions"][0])
            assert r.status_code in (200, 409), r.text
        return None

    wait_until(played_out, 120, every=0.02)
    seats = ben.get(f"{API}/tables/{tid}").json()["seats"]
    ana_seat = next(s["seat"] for s in seats if (s["player"] or {}).get("id") == ana.id)
    english = ben.get(f"{API}/tables/{tid}/state", params={"lang": "en"}).json()["result"]
    assert english["resigned"] == [ana_seat] and english["places"][str(ana_seat)] == 4
    # The English record is the English reading of the final ranking.
    assert english["tiebreak"] == english["tiebreak_text"]
    assert (
        english["tiebreak"].splitlines()[-1] == f"Seat {ana_seat + 1} resigned and is ranked last."
    )
    plain = {k: v for k, v in english.items() if k != "tiebreak_text"}
    standing = final_standing(REGISTRY["luz"], plain)
    for lang in ("es", "en"):
        result = ben.get(f"{API}/tables/{tid}", params={"lang": lang}).json()["result"]
        events = ben.get(f"{API}/tables/{tid}/log", params={"lang": lang}).json()["events"]
        ended = [e for e in events if e["type"] == "game_ended"]
        assert len(ended) == 1
        assert ended[0]["message"] == standing.to_json()
        rows = ended[0]["text"].splitlines()
        # Each seat at its final place, then the same explanation as the result's.
        assert (
            rows[-len(result["tiebreak_text"].splitlines()) :]
            == result["tiebreak_text"].splitlines()
        )
        listed = ended[0]["message"]["params"]["lines"]["list"][1:5]
        assert {row["params"]["who"]["seat"]: row["params"]["place"] for row in listed} == {
            int(k): v for k, v in result["places"].items()
        }
    # The replay still verifies: the facts are the engine's with the resignation applied.
    replay = ben.get(f"{API}/tables/{tid}/replay").json()
    assert any("resigned (last)" in line for line in verify(replay, games=test_games()))
    # A result an older server stored kept the engine's words: the facts still verify...
    older = {**replay, "result": {**replay["result"], "tiebreak": "the engine's record"}}
    assert verify(older, games=test_games())
    # ...but not a place that is not the final ranking's.
    places = {k: 1 for k in replay["result"]["places"]}
    wrong = {**replay, "result": {**replay["result"], "places": places}}
    with pytest.raises(VerificationFailed):
        verify(wrong, games=test_games())
