"""examples/random_bot.py, a client that knows only API.md, plays a seat to the end."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.support.client import make_table, new_player
from tests.support.live import LiveServer

ROOT = Path(__file__).resolve().parents[2]


def test_random_bot_example_joins_and_plays_to_the_end(
    http: httpx.Client, live: LiveServer
) -> None:
    owner = new_player(http, "Owner")
    tid = make_table(owner, "pick", 3, {"pile": 25})["id"]
    owner.post(f"/api/v1/tables/{tid}/bots", {"level": "random"})
    bot = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "random_bot.py"), live.url, tid, "--seed", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        for _ in range(200):
            if http.get(f"/api/v1/tables/{tid}").json()["seats"][2]["player"]:
                break
            time.sleep(0.05)
        assert owner.post(f"/api/v1/tables/{tid}/start").status_code == 200
        while True:
            s = owner.state(tid)
            if s["status"] == "finished":
                break
            if s["legal_actions"]:
                owner.act(tid, s["version"], s["legal_actions"][0])
            time.sleep(0.01)
        out, err = bot.communicate(timeout=30)
    finally:
        bot.kill()
    assert bot.returncode == 0, err
    assert "game over" in out
