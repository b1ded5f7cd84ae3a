"""Lobby changes race across two server processes on one PostgreSQL (and one Redis).

Each round fires two conflicting lobby requests at once, one to each instance, behind a
barrier: join against join for the last seat, join against add-bot, leave against start,
start against join, start against start, the owner leaving against a join, one player
joining twice, and 40 creates against a cap of 20. After each round every success answer is checked against the
table as the database holds it (GET on both instances), and every started table is
playable: each test plays its first one to the end (the seated players act, bots play
theirs) and checks of the others that every seat due to act is held.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import redis

from tests.support.databases import fresh_database
from tests.support.process import ServerProcess

REDIS_URL = "redis://127.0.0.1:6379/0"
# MINE! is the shortest real game (about 60 moves for three seats).
GAME = "mine"
CAP = 20
ROUNDS = 8
API = "/api/v1"


@dataclass
class Who:
    id: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Call:
    server: int
    method: str
    path: str
    who: Who | None = None
    json: Any = None


Answer = tuple[int, Any]


class Cluster:
    def __init__(self, first: ServerProcess, second: ServerProcess) -> None:
        self.servers = (first, second)
        self.http = [httpx.Client(base_url=s.url, timeout=60) for s in self.servers]
        self.names = 0

    def close(self) -> None:
        for h in self.http:
            h.close()

    def send(self, call: Call, http: httpx.Client | None = None) -> Answer:
        client = http or self.http[call.server]
        r = client.request(
            call.method, call.path, json=call.json, headers=call.who.auth if call.who else None
        )
        return r.status_code, (r.json() if r.content else None)

    def ok(self, call: Call) -> Any:
        code, body = self.send(call)
        assert 200 <= code < 300, (call, code, body)
        return body

    def player(self, server: int = 0) -> Who:
        self.names += 1
        body = self.ok(Call(server, "POST", f"{API}/players", json={"name": f"R{self.names}"}))
        return Who(body["id"], body["token"])

    def table(self, owner: Who, seats: int) -> str:
        body = self.ok(
            Call(0, "POST", f"{API}/tables", owner, {"game": GAME, "seats": seats, "options": {}})
        )
        return str(body["id"])

    def fire(self, calls: list[Call]) -> list[Answer]:
        """Send every call at once (each on its own connection to its instance)."""
        clients = [httpx.Client(base_url=self.servers[c.server].url, timeout=60) for c in calls]
        for client in clients:  # connect before the barrier
            client.get("/healthz")
        barrier = threading.Barrier(len(calls))
        answers: list[Answer] = [(0, None)] * len(calls)

        def go(i: int) -> None:
            barrier.wait()
            answers[i] = self.send(calls[i], clients[i])

        threads = [threading.Thread(target=go, args=(i,)) for i in range(len(calls))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        for client in clients:
            client.close()
        return answers

    def get_table(self, tid: str) -> dict[str, Any] | None:
        """The table as both instances show it (they must agree); None when it is gone."""
        seen = [self.send(Call(i, "GET", f"{API}/tables/{tid}")) for i in (0, 1)]
        assert seen[0] == seen[1] or _same_table(seen[0], seen[1]), seen
        code, body = seen[0]
        if code == 404:
            return None
        assert code == 200, seen
        return body  # type: ignore[no-any-return]


def _same_table(a: Answer, b: Answer) -> bool:
    """Equal but for what moves on by itself once a game runs (bots act, clocks tick)."""
    if a[0] != b[0] or a[0] != 200:
        return False
    keep = ("status", "owner", "private")
    seats_a = [(s["seat"], s["player"], s["bot_level"]) for s in a[1]["seats"]]
    seats_b = [(s["seat"], s["player"], s["bot_level"]) for s in b[1]["seats"]]
    return seats_a == seats_b and all(
        a[1][k] == b[1][k] for k in keep if a[1]["status"] == "open" or k != "status"
    )


def seated(table: dict[str, Any], who: Who) -> list[int]:
    return [s["seat"] for s in table["seats"] if s["player"] and s["player"]["id"] == who.id]


def check_sound(table: dict[str, Any]) -> None:
    """No seat holds a player and a bot before anyone took over; no player holds two seats;
    the owner of an open table is seated at it."""
    players = [s["player"]["id"] for s in table["seats"] if s["player"]]
    assert len(players) == len(set(players)), table["seats"]
    for s in table["seats"]:
        assert not (s["player"] and s["bot_level"]), table["seats"]
        if table["status"] != "open":
            assert s["player"] or s["bot_level"], f"empty seat in a started game: {table}"
    if table["status"] == "open":
        assert table["owner"]["id"] in players, table


def play_to_the_end(cluster: Cluster, tid: str, players: list[Who]) -> None:
    """Seated players act (a random legal action, alternating instances); bots act by
    themselves. A seat nobody can play would stall the game and fail the bound. Once per
    test (a game takes a few seconds); other started tables are checked by check_playable."""
    rng = random.Random(tid)
    idle = 0
    for step in range(3000):
        moved = False
        for who in players:
            code, state = cluster.send(Call(step % 2, "GET", f"{API}/tables/{tid}/state", who))
            assert code == 200, state
            if state["status"] == "finished":
                table = cluster.get_table(tid)
                assert table is not None and table["status"] == "finished"
                return
            if state["legal_actions"]:
                action = rng.choice(state["legal_actions"])
                body = {"version": state["version"], "action": action}
                code, answer = cluster.send(
                    Call(step % 2, "POST", f"{API}/tables/{tid}/actions", who, body)
                )
                assert code == 200 or answer["error"]["code"] in (
                    "stale_version",
                    "not_playing",
                ), answer
                moved = True
        if not moved:
            # Only bots are due: they act on their own instance; look again shortly.
            idle += 1
            assert idle < 500, f"nobody plays table {tid}: {cluster.get_table(tid)}"
            time.sleep(0.02)
        else:
            idle = 0
    raise AssertionError(f"table {tid} did not finish")


def check_playable(cluster: Cluster, tid: str, players: list[Who]) -> None:
    """Every seat due to act is a bot's or a seated player's who is offered actions."""
    table = cluster.get_table(tid)
    assert table is not None
    code, state = cluster.send(Call(1, "GET", f"{API}/tables/{tid}/state"))
    assert code == 200, state
    holders = {s["seat"]: s for s in table["seats"]}
    for seat in state["to_act"]:
        holder = holders[seat]
        assert holder["bot_level"] or holder["player"], f"seat {seat} is due and empty: {table}"
        if holder["player"] and not holder["bot_level"]:
            who = next(p for p in players if p.id == holder["player"]["id"])
            code, mine = cluster.send(Call(0, "GET", f"{API}/tables/{tid}/state", who))
            assert mine["seat"] == seat and (
                mine["legal_actions"] or mine["version"] != state["version"]
            ), mine


def play_or_check(cluster: Cluster, tid: str, players: list[Who], played: list[str]) -> None:
    """The first started table of a test is played to its end; the others are checked."""
    if played:
        check_playable(cluster, tid, players)
    else:
        play_to_the_end(cluster, tid, players)
        played.append(tid)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    redis.Redis.from_url(REDIS_URL).ping()
    with fresh_database("postgresql", tmp_path_factory.mktemp("pg"), migrate=False) as url:
        channel = f"partida-test-{uuid.uuid4().hex[:8]}"
        env = {
            "PARTIDA_REDIS_URL": REDIS_URL,
            "PARTIDA_REDIS_CHANNEL": channel,
            "PARTIDA_MAX_OPEN_TABLES_PER_PLAYER": str(CAP),
        }
        first = ServerProcess(url, **env).start()
        second = ServerProcess(url, **env).start()
        c = Cluster(first, second)
        try:
            yield c
        finally:
            c.close()
            first.stop()
            second.stop()


def _error(answer: Answer) -> str:
    return str(answer[1]["error"]["code"])


def test_two_joins_for_the_last_seat_seat_one_player(cluster: Cluster) -> None:
    for _ in range(ROUNDS):
        owner, x, y = cluster.player(), cluster.player(), cluster.player(1)
        tid = cluster.table(owner, 3)
        cluster.ok(Call(0, "POST", f"{API}/tables/{tid}/bots", owner))
        a, b = cluster.fire(
            [Call(0, "POST", f"{API}/tables/{tid}/join", x), Call(1, "POST", f"{API}/tables/{tid}/join", y)]
        )  # fmt: skip
        table = cluster.get_table(tid)
        assert table is not None
        check_sound(table)
        assert sorted([a[0], b[0]]) == [200, 409], (a, b)
        winner, loser = (x, b) if a[0] == 200 else (y, a)
        won = a if a[0] == 200 else b
        assert _error(loser) == "table_full"
        assert seated(table, winner) == [won[1]["seat"]] == [2]
        assert not seated(table, y if winner is x else x)


def test_join_against_add_bot_leaves_a_player_or_a_bot(cluster: Cluster) -> None:
    for _ in range(ROUNDS):
        owner, mate, x = cluster.player(), cluster.player(), cluster.player(1)
        tid = cluster.table(owner, 3)
        cluster.ok(Call(1, "POST", f"{API}/tables/{tid}/join", mate))
        join, bot = cluster.fire(
            [Call(0, "POST", f"{API}/tables/{tid}/join", x), Call(1, "POST", f"{API}/tables/{tid}/bots", owner)]
        )  # fmt: skip
        table = cluster.get_table(tid)
        assert table is not None
        check_sound(table)
        last = table["seats"][2]
        assert sorted([join[0], bot[0]]) == [200, 409], (join, bot)
        if join[0] == 200:
            assert join[1]["seat"] == 2 and last["player"]["id"] == x.id
            assert _error(bot) == "table_full"
        else:
            assert last["bot_level"] and last["player"] is None and not seated(table, x)
            assert _error(join) == "table_full"
            assert bot[1]["seats"][2]["bot_level"]


def test_leave_against_start_never_starts_with_an_empty_seat(cluster: Cluster) -> None:
    started: list[str] = []
    for _ in range(ROUNDS):
        owner, x = cluster.player(), cluster.player(1)
        tid = cluster.table(owner, 3)
        cluster.ok(Call(1, "POST", f"{API}/tables/{tid}/join", x))
        cluster.ok(Call(0, "POST", f"{API}/tables/{tid}/bots", owner))
        leave, start = cluster.fire(
            [Call(0, "POST", f"{API}/tables/{tid}/leave", x), Call(1, "POST", f"{API}/tables/{tid}/start", owner)]
        )  # fmt: skip
        table = cluster.get_table(tid)
        assert table is not None
        check_sound(table)
        if start[0] == 200:
            assert leave[0] == 409 and _error(leave) == "already_started", leave
            assert table["status"] != "open" and seated(table, x) == [1]
            play_or_check(cluster, tid, [owner, x], started)
        else:
            assert leave[0] == 204, leave
            assert start[0] == 409 and _error(start) == "table_not_full", start
            assert table["status"] == "open" and not seated(table, x)


def test_start_against_join_starts_only_full_tables(cluster: Cluster) -> None:
    played: list[str] = []
    for _ in range(ROUNDS):
        owner, x = cluster.player(), cluster.player(1)
        tid = cluster.table(owner, 3)
        cluster.ok(Call(0, "POST", f"{API}/tables/{tid}/bots", owner))
        join, start = cluster.fire(
            [Call(0, "POST", f"{API}/tables/{tid}/join", x), Call(1, "POST", f"{API}/tables/{tid}/start", owner)]
        )  # fmt: skip
        table = cluster.get_table(tid)
        assert table is not None
        check_sound(table)
        assert join[0] == 200, join  # the start waits for the seat or refuses before it
        assert seated(table, x) == [join[1]["seat"]] == [2]
        if start[0] == 200:
            assert table["status"] != "open"
            play_or_check(cluster, tid, [owner, x], played)
        else:
            assert _error(start) == "table_not_full" and table["status"] == "open"


def test_owner_leaving_against_a_join_answers_true(cluster: Cluster) -> None:
    played: list[str] = []
    for _ in range(ROUNDS):
        owner, x = cluster.player(), cluster.player(1)
        tid = cluster.table(owner, 3)
        cluster.ok(Call(0, "POST", f"{API}/tables/{tid}/bots", owner))
        leave, join = cluster.fire(
            [Call(0, "POST", f"{API}/tables/{tid}/leave", owner), Call(1, "POST", f"{API}/tables/{tid}/join", x)]
        )  # fmt: skip
        assert leave[0] == 204, leave
        table = cluster.get_table(tid)
        if join[0] == 200:
            # x was seated before the owner left: the table is x's now.
            assert table is not None, "x was told a seat at a table that is gone"
            check_sound(table)
            assert seated(table, x) == [join[1]["seat"]]
            assert table["owner"]["id"] == x.id and not seated(table, owner)
            cluster.ok(Call(1, "POST", f"{API}/tables/{tid}/bots", x))
            cluster.ok(Call(0, "POST", f"{API}/tables/{tid}/start", x))
            play_or_check(cluster, tid, [x], played)
        else:
            assert join[0] == 404 and _error(join) == "not_found", join
            assert table is None


def test_one_player_joining_twice_at_once_gets_one_seat(cluster: Cluster) -> None:
    for _ in range(ROUNDS):
        owner, x = cluster.player(), cluster.player(1)
        tid = cluster.table(owner, 4)
        a, b = cluster.fire(
            [Call(0, "POST", f"{API}/tables/{tid}/join", x), Call(1, "POST", f"{API}/tables/{tid}/join", x)]
        )  # fmt: skip
        table = cluster.get_table(tid)
        assert table is not None
        check_sound(table)
        assert sorted([a[0], b[0]]) == [200, 409], (a, b)
        won, lost = (a, b) if a[0] == 200 else (b, a)
        assert _error(lost) == "already_seated"
        assert seated(table, x) == [won[1]["seat"]]


def test_forty_creates_at_once_respect_the_cap_of_twenty(cluster: Cluster) -> None:
    for _ in range(2):
        owner = cluster.player()
        body = {"game": GAME, "seats": 2, "options": {}}
        answers = cluster.fire(
            [Call(i % 2, "POST", f"{API}/tables", owner, body) for i in range(2 * CAP)]
        )
        created = [b["id"] for code, b in answers if code == 201]
        refused = [b for code, b in answers if code != 201]
        assert len(created) == CAP, [a[0] for a in answers]
        assert all(b["error"]["code"] == "too_many_tables" for b in refused)
        owned = [
            t["id"]
            for t in cluster.ok(Call(1, "GET", f"{API}/tables?status=open"))
            if t["owner"]["id"] == owner.id
        ]
        assert sorted(owned) == sorted(created)


def test_two_starts_at_once_start_once(cluster: Cluster) -> None:
    played: list[str] = []
    for _ in range(ROUNDS):
        owner, x = cluster.player(), cluster.player(1)
        tid = cluster.table(owner, 3)
        cluster.ok(Call(1, "POST", f"{API}/tables/{tid}/join", x))
        cluster.ok(Call(0, "POST", f"{API}/tables/{tid}/bots", owner))
        a, b = cluster.fire(
            [Call(0, "POST", f"{API}/tables/{tid}/start", owner), Call(1, "POST", f"{API}/tables/{tid}/start", owner)]
        )  # fmt: skip
        assert sorted([a[0], b[0]]) == [200, 409], (a, b)
        assert _error(a if a[0] == 409 else b) == "already_started"
        table = cluster.get_table(tid)
        assert table is not None and table["status"] != "open"
        check_sound(table)
        play_or_check(cluster, tid, [owner, x], played)


def test_takeover_votes_cast_at_once_on_two_instances_all_count(cluster: Cluster) -> None:
    """Four players vote at once to hand the fifth's seat to a bot: every vote counts, so
    the majority hands it over (a vote is a seat change of a running game)."""
    for _ in range(3):
        owner = cluster.player()
        others = [cluster.player(i % 2) for i in range(4)]
        body = {"game": GAME, "seats": 5, "options": {}, "time_control": {"grace_seconds": 1}}
        tid = cluster.ok(Call(0, "POST", f"{API}/tables", owner, body))["id"]
        for i, p in enumerate(others):
            cluster.ok(Call(i % 2, "POST", f"{API}/tables/{tid}/join", p))
        cluster.ok(Call(0, "POST", f"{API}/tables/{tid}/start", owner))
        absent = others[-1]
        voters = [owner, *others[:-1]]
        seat = seated(cluster.get_table(tid) or {}, absent)[0]
        time.sleep(1.5)  # the absent player's grace of 1 s runs out
        answers = cluster.fire(
            [
                Call(i % 2, "POST", f"{API}/tables/{tid}/seats/{seat}/takeover", v)
                for i, v in enumerate(voters)
            ]
        )
        assert all(code == 200 or _error((code, b)) == "takeover_refused" for code, b in answers)
        assert [code for code, _ in answers].count(200) >= 3, answers
        table = cluster.get_table(tid)
        assert table is not None
        assert table["seats"][seat]["taken_over"], table["seats"][seat]
