"""Playing through REST: the gauntlet, every rejection, idempotency, bots, log, replay."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from tests.support.client import Player, acting, make_table, new_player
from tests.support.live import LiveServer


def _two_player_table(http: httpx.Client, **options: Any) -> tuple[Player, Player, str]:
    a, b = new_player(http, "A"), new_player(http, "B")
    tid = make_table(a, "pick", 2, options)["id"]
    b.post(f"/api/v1/tables/{tid}/join")
    assert a.post(f"/api/v1/tables/{tid}/start").status_code == 200
    return a, b, tid


def _unchanged(p: Player, tid: str, before: dict[str, Any]) -> None:
    after = p.state(tid)
    assert after == before


def test_state_shows_own_view_and_legal_actions(http: httpx.Client) -> None:
    a, b, tid = _two_player_table(http)
    sa, sb = a.state(tid), b.state(tid)
    assert sa["version"] == 1 and sa["status"] == "playing" and sa["game"] == "pick"
    assert sa["seat"] == 0 and sb["seat"] == 1
    assert len(sa["to_act"]) == 1
    mover = sa if sa["seat"] in sa["to_act"] else sb
    other = sb if mover is sa else sa
    assert mover["legal_actions"] and other["legal_actions"] == []
    assert sa["result"] is None
    spectator = http.get(f"/api/v1/tables/{tid}/state").json()
    assert spectator["seat"] is None and spectator["legal_actions"] == []
    assert spectator["view"]["my_bonuses"] is None


def test_play_a_whole_game_with_any_legal_action(http: httpx.Client) -> None:
    a, b, tid = _two_player_table(http)
    for _ in range(100):
        p, s = acting([a, b], tid)
        r = p.act(tid, s["version"], s["legal_actions"][-1 if s["version"] % 3 else 0])
        assert r.status_code == 200, r.text
        if r.json()["status"] == "finished":
            break
    final = a.state(tid)
    assert final["status"] == "finished" and final["to_act"] == []
    result = final["result"]
    assert set(result["ranking"]) == {0, 1} and set(result["scores"]) == {"0", "1"}
    assert final["view"]["all_bonuses"] is not None


def test_each_rejection_has_its_code_and_changes_nothing(http: httpx.Client) -> None:
    a, b, tid = _two_player_table(http)
    mover, s = acting([a, b], tid)
    waiter = b if mover is a else a
    stranger = new_player(http, "C")
    before = mover.state(tid)
    action = s["legal_actions"][0]

    r = mover.act(tid, s["version"] + 5, action)
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "stale_version",
        "message": r.json()["error"]["message"],
        "current_version": s["version"],
        "params": {"current_version": s["version"]},  # for a client's own sentence
    }
    r = waiter.act(tid, s["version"], {"type": "take", "count": 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    r = mover.act(tid, s["version"], {"type": "take", "count": 5})
    assert r.status_code == 422 and r.json()["error"]["code"] == "illegal_action"
    assert "§" in r.json()["error"]["message"]
    r = mover.act(tid, s["version"], {"type": "fly"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
    r = mover.post(f"/api/v1/tables/{tid}/actions", {"action": action})
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
    r = http.post(f"/api/v1/tables/{tid}/actions", json={"version": s["version"], "action": action})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = stranger.act(tid, s["version"], action)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    r = mover.act("nosuchtable", s["version"], action)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    _unchanged(mover, tid, before)
    assert http.get(f"/api/v1/tables/{tid}/log").json()["events"] == []


def test_action_before_start_is_not_playing(http: httpx.Client) -> None:
    a = new_player(http, "A")
    tid = make_table(a, "pick", 2)["id"]
    r = a.act(tid, 0, {"type": "take", "count": 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_playing"


def test_idempotency_id_applies_once_and_answers_the_same(http: httpx.Client) -> None:
    a, b, tid = _two_player_table(http)
    mover, s = acting([a, b], tid)
    first = mover.act(tid, s["version"], {"type": "take", "count": 1}, id="k-1")
    assert first.status_code == 200
    again = mover.act(tid, s["version"], {"type": "take", "count": 1}, id="k-1")
    assert again.status_code == 200
    body = again.json()
    assert body.pop("replayed") is True
    assert body == first.json()
    assert mover.state(tid)["version"] == s["version"] + 1
    versions = [e["version"] for e in http.get(f"/api/v1/tables/{tid}/log").json()["events"]]
    assert versions == [s["version"] + 1]


def test_log_is_redacted_per_seat(http: httpx.Client) -> None:
    a, b, tid = _two_player_table(http)
    mover, s = acting([a, b], tid)
    mover.act(tid, s["version"], {"type": "take", "count": 2})
    other = b if mover is a else a
    mine = mover.get(f"/api/v1/tables/{tid}/log").json()["events"]
    theirs = other.get(f"/api/v1/tables/{tid}/log").json()["events"]
    public = http.get(f"/api/v1/tables/{tid}/log").json()["events"]
    assert [e["type"] for e in mine] == ["took", "bonus_drawn"]
    assert [e["type"] for e in theirs] == ["took"] == [e["type"] for e in public]
    assert all("visible_to" not in e for e in mine)
    assert http.get(f"/api/v1/tables/{tid}/log", params={"since": 2}).json()["events"] == []


def test_replay_refused_while_running_and_complete_after(http: httpx.Client) -> None:
    a, b, tid = _two_player_table(http)
    r = a.get(f"/api/v1/tables/{tid}/replay")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    while True:
        p, s = acting([a, b], tid)
        if p.act(tid, s["version"], s["legal_actions"][0]).json()["status"] == "finished":
            break
    replay = http.get(f"/api/v1/tables/{tid}/replay").json()
    assert replay["actions"][0]["version"] == 2
    assert len(replay["actions"]) == a.state(tid)["version"] - 1
    assert any(e["type"] == "bonus_drawn" for act in replay["actions"] for e in act["events"])
    assert replay["final_state"]["loser"] is not None


def _wait_finished(p: Player, tid: str, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = p.state(tid)
        if s["status"] == "finished" or s["legal_actions"]:
            return s
        time.sleep(0.02)
    raise AssertionError("the bots did not move")


def test_bots_play_their_turns_until_the_human_must_act(http: httpx.Client) -> None:
    human = new_player(http, "H")
    tid = make_table(human, "pick", 4, {"pile": 30})["id"]
    for level in ("normal", "random", "normal"):
        human.post(f"/api/v1/tables/{tid}/bots", {"level": level})
    human.post(f"/api/v1/tables/{tid}/start")
    while True:
        s = _wait_finished(human, tid)
        if s["status"] == "finished":
            break
        human.act(tid, s["version"], s["legal_actions"][0])
    assert s["result"]["ranking"]


def test_state_of_an_open_table_has_no_view(http: httpx.Client) -> None:
    owner = new_player(http, "O")
    tid = make_table(owner, "pick", 2)["id"]
    owner.post(f"/api/v1/tables/{tid}/bots")
    s = owner.state(tid)
    assert s["status"] == "open" and s["view"] is None


@pytest.mark.parametrize("pile", [7, 25])
def test_replay_from_seed_and_log_equals_the_snapshot(
    http: httpx.Client, live: LiveServer, pile: int
) -> None:
    import asyncio

    a, b, tid = _two_player_table(http, pile=pile)
    while True:
        p, s = acting([a, b], tid)
        if p.act(tid, s["version"], s["legal_actions"][0]).json()["status"] == "finished":
            break
    service = live.service()

    async def check() -> tuple[Any, Any]:
        snap = await service.snapshot(tid)
        rebuilt = await service.history.replay_state(snap)
        return rebuilt.model_dump(mode="json"), snap.state.model_dump(mode="json")

    future = asyncio.run_coroutine_threadsafe(check(), _loop_of(live))
    rebuilt, stored = future.result(timeout=30)
    assert rebuilt == stored


def _loop_of(live: LiveServer) -> Any:
    return live.app.state.loop


def test_replay_steps_show_each_perspective_version_by_version(http: httpx.Client) -> None:
    a, b, tid = _two_player_table(http)
    r = http.get(f"/api/v1/tables/{tid}/replay/steps")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    while True:
        p, s = acting([a, b], tid)
        if p.act(tid, s["version"], s["legal_actions"][0]).json()["status"] == "finished":
            break
    final_version = a.state(tid)["version"]
    full = http.get(f"/api/v1/tables/{tid}/replay/steps").json()
    assert [step["version"] for step in full["steps"]] == list(range(1, final_version + 1))
    assert full["steps"][0]["action"] is None and full["steps"][1]["actor"] in (0, 1)
    assert "rng" in full["steps"][0]["state"]
    seat0 = http.get(
        f"/api/v1/tables/{tid}/replay/steps", params={"perspective": "0", "start": 2, "count": 3}
    ).json()
    assert [step["version"] for step in seat0["steps"]] == [2, 3, 4][: final_version - 1]
    for step in seat0["steps"]:
        assert "state" not in step and step["view"]["my_bonuses"] is not None
        assert all(e["type"] != "bonus_drawn" or e["seat"] == 0 for e in step["events"])
    watcher = http.get(
        f"/api/v1/tables/{tid}/replay/steps", params={"perspective": "spectator"}
    ).json()
    assert watcher["steps"][0]["view"]["my_bonuses"] is None
    bad = http.get(f"/api/v1/tables/{tid}/replay/steps", params={"perspective": "7"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "validation_error"
