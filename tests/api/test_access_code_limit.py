"""Codes are not guessed faster than players are created: every wrong server access code and
every wrong private-table invite counts against the address's new-player budget, and once
it is spent every try answers 429 rate_limited in the envelope, the right code included."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.client import new_player
from tests.support.databases import BACKENDS
from tests.support.live import temporary_server

CODE = "amigos-2026"


@contextmanager
def server(tmp_path: Path, backend: str = "sqlite", **overrides: Any) -> Iterator[httpx.Client]:
    with (
        temporary_server(tmp_path, backend, rate_limit_enabled=True, **overrides) as live,
        httpx.Client(base_url=live.url, timeout=30) as http,
    ):
        yield http


def _create(http: httpx.Client, code: str | None) -> httpx.Response:
    body: dict[str, Any] = {"name": "Eve"}
    if code is not None:
        body["access_code"] = code
    return http.post("/api/v1/players", json=body)


@pytest.mark.parametrize("guess", ["wrong", None, "", CODE.upper()])
def test_wrong_access_codes_spend_the_new_player_budget(tmp_path: Path, guess: str | None) -> None:
    with server(tmp_path, access_code=CODE, rate_limit_new_players="4/hour") as http:
        refused = [_create(http, guess) for _ in range(4)]
        assert [r.status_code for r in refused] == [403] * 4
        assert {r.json()["error"]["code"] for r in refused} == {"forbidden"}
        beyond = _create(http, guess)
        assert beyond.status_code == 429
        assert beyond.json()["error"]["code"] == "rate_limited"
        # The right code, now, is refused the same way: a guess cannot tell itself apart.
        right = _create(http, CODE)
        assert right.status_code == 429 and right.json()["error"]["code"] == "rate_limited"


def test_right_and_wrong_codes_share_one_budget(tmp_path: Path) -> None:
    with server(tmp_path, access_code=CODE, rate_limit_new_players="3/hour") as http:
        codes = [_create(http, c).status_code for c in (CODE, "nope", CODE, "nope", CODE)]
        assert codes == [201, 403, 201, 429, 429]


@pytest.mark.parametrize("backend", BACKENDS)
def test_wrong_invite_codes_spend_the_budget_and_then_every_try_is_refused(
    tmp_path: Path, backend: str
) -> None:
    with server(tmp_path, backend, rate_limit_new_players="5/hour") as http:
        # Three players spend three of the five.
        owner, guesser, friend = (new_player(http, n) for n in ("O", "G", "F"))
        table = owner.post("/api/v1/tables", {"game": "pick", "seats": 3, "private": True}).json()
        tid, invite = table["id"], table["invite_code"]
        tries = [guesser.post(f"/api/v1/tables/{tid}/join", {"invite": f"x{i}"}) for i in range(3)]
        # A wrong code reads as a table that does not exist (404), and counts as a guess.
        assert [r.status_code for r in tries] == [404, 404, 429]
        assert tries[0].json()["error"]["code"] == "not_found"
        assert tries[-1].json()["error"]["code"] == "rate_limited"
        # From this address even the right invite is no longer tried ...
        r = guesser.post(f"/api/v1/tables/{tid}/join", {"invite": invite})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        # ... and nothing changed: nobody but the owner is seated.
        seats = owner.get(f"/api/v1/tables/{tid}").json()["seats"]
        assert [s["player"]["id"] if s["player"] else None for s in seats] == [owner.id, None, None]
        # Public tables ignore the budget: joining one needs no code.
        public = owner.post("/api/v1/tables", {"game": "pick", "seats": 2}).json()
        assert friend.post(f"/api/v1/tables/{public['id']}/join").json() == {"seat": 1}


@pytest.mark.parametrize("backend", BACKENDS)
def test_wrong_invite_codes_on_read_paths_are_guesses_too(tmp_path: Path, backend: str) -> None:
    with server(tmp_path, backend, rate_limit_new_players="4/hour") as http:
        owner, guesser = (new_player(http, n) for n in ("O", "G"))
        table = owner.post("/api/v1/tables", {"game": "pick", "seats": 2, "private": True}).json()
        tid, invite = table["id"], table["invite_code"]
        # Any path that takes ?invite= is a way to guess: each wrong code spends the budget.
        reads = [
            guesser.get(f"/api/v1/tables/{tid}?invite=x0"),
            guesser.get(f"/api/v1/tables/{tid}/state?invite=x1"),
            guesser.get(f"/api/v1/tables/{tid}/log?invite=x2"),
        ]
        assert [r.status_code for r in reads] == [404, 404, 429]
        assert [r.json()["error"]["code"] for r in reads] == [
            "not_found",
            "not_found",
            "rate_limited",
        ]
        r = guesser.get(f"/api/v1/tables/{tid}?invite={invite}")
        assert r.status_code == 429
        # Reads without a code are not guesses: the owner still reads the table.
        assert owner.get(f"/api/v1/tables/{tid}").status_code == 200
