"""Provably fair shuffles: a commitment before the game, the secret after, a replay that checks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.fairness import commitment
from app.verify import VerificationFailed, verify
from tests.conftest import test_games
from tests.support.client import Player, make_table, new_player

ROOT = Path(__file__).resolve().parents[2]


def _finished_game(
    http: httpx.Client, game: str = "pick", seats: int = 2
) -> tuple[str, str, list[Player]]:
    players = [new_player(http, f"P{i}") for i in range(seats)]
    table = make_table(players[0], game, seats)
    noted = table["seed_commitment"]
    tid = table["id"]
    for p in players[1:]:
        p.post(f"/api/v1/tables/{tid}/join")
    players[0].post(f"/api/v1/tables/{tid}/start")
    while True:
        states = [p.state(tid) for p in players]
        if states[0]["status"] == "finished":
            return tid, noted, players
        for p, s in zip(players, states, strict=True):
            if s["legal_actions"]:
                p.act(tid, s["version"], s["legal_actions"][-1])
                break


def test_commitment_is_published_before_and_the_secret_only_after(http: httpx.Client) -> None:
    owner, guest = new_player(http, "A"), new_player(http, "B")
    table = make_table(owner, "pick", 2)
    assert len(table["seed_commitment"]) == 64
    guest.post(f"/api/v1/tables/{table['id']}/join")
    owner.post(f"/api/v1/tables/{table['id']}/start")
    running = http.get(f"/api/v1/tables/{table['id']}").json()
    assert running["seed_commitment"] == table["seed_commitment"]
    assert "seed" not in json.dumps(running).replace("seed_commitment", "")
    assert http.get(f"/api/v1/tables/{table['id']}/replay").status_code == 409


def test_the_replay_verifies_against_the_noted_commitment(http: httpx.Client) -> None:
    tid, noted, _ = _finished_game(http)
    replay = http.get(f"/api/v1/tables/{tid}/replay").json()
    assert commitment(replay["seed_secret"]) == noted
    checks = verify(replay, test_games(), expected_commitment=noted)  # type: ignore[arg-type]
    assert len(checks) == 7
    assert "the setup's events follow from the seed" in checks


@pytest.mark.parametrize(
    "tamper",
    [
        lambda r: r.update(seed_secret="0" * 64),
        lambda r: r.update(seed=r["seed"] ^ 1),
        lambda r: r["actions"].pop(),
        lambda r: r["setup_events"].append({"type": "passed", "seat": 0, "visible_to": None}),
        lambda r: r["result"]["scores"].update({"0": 999}),
    ],
)
def test_a_tampered_replay_fails_verification(http: httpx.Client, tamper: Any) -> None:
    tid, noted, _ = _finished_game(http)
    replay = http.get(f"/api/v1/tables/{tid}/replay").json()
    tamper(replay)
    with pytest.raises(VerificationFailed):
        verify(replay, test_games(), expected_commitment=noted)  # type: ignore[arg-type]


def test_verify_command_checks_a_real_game_from_its_url(http: httpx.Client) -> None:
    tid, noted, _ = _finished_game(http, "luz", 3)
    url = f"{str(http.base_url).rstrip('/')}/api/v1/tables/{tid}"
    run = subprocess.run(
        [sys.executable, "-m", "app.verify", url, "--commitment", noted],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "verified" in run.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "app.verify", url, "--commitment", "f" * 64],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 1 and "FAILED" in bad.stderr
