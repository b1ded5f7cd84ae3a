"""The replay queue is fair (issue 34.5): one address asking for every cold replay of a game
at once (6 perspectives x 3 languages) does not hold up another client's replay, and one
client's queue of waiting replay work is bounded.

No clock is the judge. The server's replay work counts the re-plays it has started
(``ReplayWork.runs``); the test counts how many were started between the moment another
client's request came in and its answer, and how many of the flood's answers came before
it. With one queue served first come first served, that client waited for the whole flood.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.client import Player, make_table, new_player
from tests.support.live import LiveServer, temporary_server

GAME, SEATS = "gluckauf", 4
PERSPECTIVES = ("full", "spectator", "0", "1", "2", "3")
LANGS = (None, "es", "en")
# The flood's windows start at 1, the other client's at VICTIM_START: how the watch tells
# them apart.
VICTIM_START = 2
# Another client's cold replay takes at most three re-plays of its own (the pictures of its
# perspective, the lines of its language, the steps); served in turn with the flooder, at
# most as many of the flooder's start meanwhile. With one queue for all, the whole flood.
MOST_RUNS_MEANWHILE = 8
MOST_FLOOD_ANSWERS_FIRST = 6


def _finished(http: httpx.Client) -> str:
    """A human and three random bots play Glück Auf to its end (~250 versions)."""
    human = new_player(http, "Long")
    tid: str = make_table(human, GAME, SEATS)["id"]
    for _ in range(SEATS - 1):
        r = human.post(f"/api/v1/tables/{tid}/bots", {"level": "random"})
        assert r.status_code in (200, 201), r.text
    assert human.post(f"/api/v1/tables/{tid}/start").status_code == 200
    while (s := human.state(tid))["status"] != "finished":
        if s["legal_actions"]:
            human.act(tid, s["version"], s["legal_actions"][-1])
    return tid


class Watch:
    """What the server's replay work did, seen from inside its event loop: the requests
    that reached the replay work (one task each), and each answer of ``/replay/steps`` in
    the order given, with the runs started by then; and how many runs had started when the
    other client's request reached the work."""

    def __init__(self, live: LiveServer) -> None:
        self.arrived: set[int] = set()
        self.answers: list[tuple[int, int]] = []  # (start, runs when answered)
        self.victim_task: int | None = None
        self.victim_came = 0  # runs started when the other client's request reached the work
        service = live.service()
        work, history = service.replays, service.history
        rendered, replay_steps = work.rendered, history.replay_steps

        async def watched_rendered(*args: Any, **kwargs: Any) -> Any:
            task = id(asyncio.current_task())
            if task == self.victim_task and task not in self.arrived:
                self.victim_came = work.runs
            self.arrived.add(task)
            return await rendered(*args, **kwargs)

        async def watched_steps(table_id: str, perspective: str, start: int, *args: Any,
                                **kwargs: Any) -> Any:  # fmt: skip
            if start == VICTIM_START:
                self.victim_task = id(asyncio.current_task())
            try:
                return await replay_steps(table_id, perspective, start, *args, **kwargs)
            finally:
                self.answers.append((start, work.runs))

        work.rendered = watched_rendered
        history.replay_steps = watched_steps

    def victim(self) -> tuple[int, int]:
        """Of the other client's answer: the runs started meanwhile, the flood's answers
        before it."""
        at = next(n for n, a in enumerate(self.answers) if a[0] == VICTIM_START)
        return self.answers[at][1] - self.victim_came, at


async def _flood(url: str, tid: str, perspectives: tuple[str, ...]) -> list[httpx.Response]:
    """Cold replays of ``tid`` in every language at once, from one address."""
    async with httpx.AsyncClient(base_url=url, timeout=300) as anonymous:
        asks = [
            asyncio.create_task(
                anonymous.get(
                    f"/api/v1/tables/{tid}/replay/steps",
                    params={"perspective": p, "count": 500, **({"lang": lang} if lang else {})},
                )
            )
            for p in perspectives
            for lang in LANGS
        ]
        return await asyncio.gather(*asks)


async def _flood_and_ask(
    url: str, flood_tid: str, tid: str, victim: Player, watch: Watch, perspective: str
) -> tuple[list[httpx.Response], httpx.Response]:
    # On the flooded table, the flood leaves the other client's perspective out (asking
    # for the same would share a run of the flood's, served wherever the flood's queue has it).
    perspectives = tuple(p for p in PERSPECTIVES if tid != flood_tid or p != perspective)
    flood = asyncio.create_task(_flood(url, flood_tid, perspectives))
    for _ in range(6000):  # until the whole flood is queued (a safety net: 60 s)
        if len(watch.arrived) >= len(perspectives) * len(LANGS) or flood.done():
            break
        await asyncio.sleep(0.01)
    async with httpx.AsyncClient(base_url=url, timeout=300, headers=victim.auth) as signed_in:
        answer = await signed_in.get(
            f"/api/v1/tables/{tid}/replay/steps",
            params={"perspective": perspective, "start": VICTIM_START, "lang": "en"},
        )
    return await flood, answer


@pytest.fixture
def roomy(tmp_path: Path, backend: str) -> Iterator[LiveServer]:
    """A server whose per-client bound is out of the way: the order alone is judged."""
    with temporary_server(tmp_path, backend, replay_queue_per_client=1000) as live:
        yield live


@pytest.mark.parametrize("same_table", [False, True], ids=["own-table", "flooded-table"])
def test_one_address_flooding_does_not_hold_up_another_clients_replay(
    roomy: LiveServer, same_table: bool
) -> None:
    with httpx.Client(base_url=roomy.url, timeout=60) as http:
        flood_tid = _finished(http)
        tid = flood_tid if same_table else _finished(http)
        victim = new_player(http, "Other")
        watch = Watch(roomy)
        flood, answer = asyncio.run(_flood_and_ask(roomy.url, flood_tid, tid, victim, watch, "3"))
        assert answer.status_code == 200, answer.text
        assert [s["version"] for s in answer.json()["steps"]][:1] == [VICTIM_START]
        assert all(r.status_code == 200 for r in flood), [r.text for r in flood]
        assert len(watch.arrived) >= len(flood) + 1
        runs, flood_first = watch.victim()
        assert runs <= MOST_RUNS_MEANWHILE, (runs, watch.answers)
        assert flood_first <= MOST_FLOOD_ANSWERS_FIRST, (flood_first, watch.answers)


def test_one_client_has_a_bounded_queue_and_is_told_when_to_come_back(
    tmp_path: Path, backend: str
) -> None:
    with (
        temporary_server(tmp_path, backend, replay_queue_per_client=2) as live,
        httpx.Client(base_url=live.url, timeout=60) as http,
    ):
        flood_tid, tid = _finished(http), _finished(http)
        victim = new_player(http, "Other")
        watch = Watch(live)
        flood, answer = asyncio.run(_flood_and_ask(live.url, flood_tid, tid, victim, watch, "0"))
        assert answer.status_code == 200, answer.text
        refused = [r for r in flood if r.status_code == 429]
        assert refused, "a flood past the bound was queued whole"
        for r in refused:
            assert r.json()["error"]["code"] == "rate_limited", r.text
            assert int(r.headers["retry-after"]) >= 1
            assert r.json()["error"]["retry_after"] >= 1
        served = [r for r in flood if r.status_code != 429]
        assert all(r.status_code == 200 for r in served), [r.text for r in served]
        # What was served is the replay (asked again once the flood is over, and equal).
        for r in served:
            again = http.get(r.request.url)
            assert again.status_code == 200 and again.content == r.content
