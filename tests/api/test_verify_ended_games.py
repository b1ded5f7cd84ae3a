"""``python -m app.verify`` on a game the host ended (issue 34.8): it says so, and checks
the moves that were played (replaying seed + log reaches the recorded state at the end),
on both databases. Before, it failed such a game: "the recorded result is not the
engine's result"."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app import verify
from tests.conftest import test_games
from tests.support.client import acting, make_table, new_player
from tests.support.databases import BACKENDS
from tests.support.live import LiveServer, temporary_server

ADMIN = "host-secret-token-0123456789"
MOVES = 3


@pytest.fixture(params=BACKENDS)
def admin_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    with temporary_server(tmp_path, request.param, admin_token=ADMIN) as live:
        yield live


def _host_ended_replay(live: LiveServer) -> dict[str, Any]:
    """A real table of two people who made MOVES moves before the host ended the game."""
    with httpx.Client(base_url=live.url, timeout=30) as http:
        ana, ben = new_player(http, "Ana"), new_player(http, "Ben")
        tid = make_table(ana, "pick", 2, {"pile": 30})["id"]
        assert ben.post(f"/api/v1/tables/{tid}/join").status_code == 200
        assert ana.post(f"/api/v1/tables/{tid}/start").status_code == 200
        for _ in range(MOVES):
            player, state = acting([ana, ben], tid)
            assert player.act(tid, state["version"], state["legal_actions"][0]).is_success
        ended = http.post(
            f"/api/v1/admin/tables/{tid}/end", headers={"Authorization": f"Bearer {ADMIN}"}
        )
        assert ended.status_code == 200, ended.text
        r = ana.get(f"/api/v1/tables/{tid}/replay")
        assert r.status_code == 200, r.text
        replay: dict[str, Any] = r.json()
    assert replay["result"]["ended_by_admin"] is True
    assert len(replay["actions"]) >= MOVES
    return replay


def test_verify_says_the_host_ended_the_game_and_checks_the_moves_played(
    admin_server: LiveServer,
) -> None:
    replay = _host_ended_replay(admin_server)
    passed = verify.verify(replay, games=test_games())  # type: ignore[arg-type]
    assert any("ended by the host" in line for line in passed), passed
    replayed = f"replaying {len(replay['actions'])} actions reaches the recorded final state"
    assert replayed in passed, passed


def test_the_command_line_verifies_a_host_ended_game(
    admin_server: LiveServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "replay.json"
    source.write_text(json.dumps(_host_ended_replay(admin_server)))
    monkeypatch.setattr(verify, "REGISTRY", test_games())
    assert verify.main([str(source)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "ended by the host" in out and out.rstrip().endswith("played by the rules")


@pytest.mark.parametrize(
    "tamper",
    [
        lambda r: r["result"].update(ranking=[1, 0]),  # a host's end names no winner
        lambda r: r["actions"].pop(),  # a move left out of the log
        lambda r: r["final_state"].update(tampered=True),
    ],
)
def test_a_tampered_host_ended_replay_fails(admin_server: LiveServer, tamper: Any) -> None:
    replay = _host_ended_replay(admin_server)
    tamper(replay)
    with pytest.raises(verify.VerificationFailed):
        verify.verify(replay, games=test_games())  # type: ignore[arg-type]
