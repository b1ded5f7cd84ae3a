"""The thinking pool: bots' searches run in other processes, tables take turns, a dead worker
is replaced, and closing the pool fails what still waits."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.games.base import SearchBudget
from app.games.luz import ENGINE, LuzOptions
from app.tables.thinking import Question, ThinkingPool
from tests.support.waiting import wait_until


def _question(seed: int, level: str = "normal") -> Question:
    state = ENGINE.setup(3, seed, LuzOptions())
    seat = min(ENGINE.to_act(state))
    return Question(
        "luz",
        ENGINE.view(state, seat),
        ENGINE.legal_actions(state, seat),
        seat,
        level,
        f"{seed}:1:{seat}",
        SearchBudget(iterations=3, seconds=60.0),
    )


def _in_process(question: Question) -> int:
    choice = ENGINE.bot(
        question.view, question.legal_actions, random.Random(question.seed), question.level
    )
    return question.legal_actions.index(choice)


def _worker_pids(pool: ThinkingPool) -> set[int]:
    executor: Any = pool._executor
    return set(executor._processes) if executor is not None else set()


def test_the_answer_comes_from_another_process_and_is_the_bots_own_choice() -> None:
    async def scenario() -> tuple[list[int], set[int]]:
        pool = ThinkingPool(1)
        try:
            answers = [await pool.ask("t", _question(seed)) for seed in range(4)]
            return answers, _worker_pids(pool)
        finally:
            pool.close()

    answers, pids = asyncio.run(scenario())
    assert answers == [_in_process(_question(seed)) for seed in range(4)]
    assert pids and os.getpid() not in pids


def test_a_busy_pool_serves_the_tables_in_turn() -> None:
    """Table A asks four moves at once, then table B one: B waits for one of A's moves, not
    for all of them."""

    async def scenario() -> list[str]:
        pool = ThinkingPool(1)
        try:
            asks = [pool.ask("A", _question(seed)) for seed in range(4)]
            asks.append(pool.ask("B", _question(9)))
            await asyncio.gather(*asks)
            return pool.served
        finally:
            pool.close()

    assert asyncio.run(scenario()) == ["A", "A", "B", "A", "A"]


def test_a_question_given_up_in_line_is_never_thought_about() -> None:
    async def scenario() -> list[str]:
        pool = ThinkingPool(1)
        try:
            first = asyncio.ensure_future(pool.ask("A", _question(1)))
            waiting = asyncio.ensure_future(pool.ask("B", _question(2)))
            await asyncio.sleep(0)
            waiting.cancel()
            await first
            await pool.ask("C", _question(3))
            return pool.served
        finally:
            pool.close()

    assert asyncio.run(scenario()) == ["A", "C"]


def test_a_dead_worker_is_replaced_by_the_next_question() -> None:
    async def scenario() -> int:
        pool = ThinkingPool(1)
        try:
            await pool.ask("t", _question(1))
            for pid in _worker_pids(pool):
                os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.5)
            for _ in range(3):  # the first may still meet the broken pool, and fails
                try:
                    return await pool.ask("t", _question(2))
                except Exception:
                    await asyncio.sleep(0.2)
            raise AssertionError("the pool never came back")
        finally:
            pool.close()

    assert asyncio.run(scenario()) == _in_process(_question(2))


def test_a_closed_pool_takes_no_question_and_fails_those_in_line() -> None:
    async def scenario() -> None:
        pool = ThinkingPool(1)
        running = asyncio.ensure_future(pool.ask("A", _question(1)))
        waiting = asyncio.ensure_future(pool.ask("B", _question(2)))
        await asyncio.sleep(0)
        pool.close()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        running.cancel()
        with pytest.raises(RuntimeError, match="closed"):
            await pool.ask("C", _question(3))

    asyncio.run(scenario())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone but for its exit status.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ", 1)[1][0] != "Z"


def test_closing_the_pool_stops_its_workers() -> None:
    async def scenario() -> set[int]:
        pool = ThinkingPool(2)
        await asyncio.gather(pool.ask("A", _question(1)), pool.ask("B", _question(2)))
        pids = _worker_pids(pool)
        pool.close()
        return pids

    pids = asyncio.run(scenario())
    assert pids
    assert not [pid for pid in pids if _alive(pid)]


KILLED_SERVER = """
import asyncio, os, sys
sys.path.insert(0, {root!r})
from tests.unit.test_thinking import _question, _worker_pids
from app.tables.thinking import ThinkingPool

async def main():
    pool = ThinkingPool(1)
    await pool.ask("t", _question(1))
    print(*_worker_pids(pool), flush=True)
    os._exit(9)  # no clean-up of any kind, as under kill -9

asyncio.run(main())
"""


def test_workers_leave_when_their_server_dies_without_stopping_them() -> None:
    root = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, "-c", KILLED_SERVER.format(root=root)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=root,
    )
    pids = [int(p) for p in done.stdout.split()]
    assert pids, done.stderr
    wait_until(lambda: not [pid for pid in pids if _alive(pid)], 15, every=0.1)
