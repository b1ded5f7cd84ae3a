"""Where strong bots think: a pool of processes, shared fairly by the tables.

A strong bot searches for up to a second of CPU per move (:mod:`app.games.search`); on the
event loop that second would freeze every table of the instance. So the search runs in
other processes, and the server only awaits its answer. The processes are started on the
first strong move (spawned, not forked: the server's threads and sockets stay out of them)
and each keeps the engines it imported.

When more tables wait than there are processes, they take turns: each table's requests wait
in its own line, and the lines are served round robin, so a table of four strong bots does
not keep a table of one waiting behind its four moves. (A table's driver asks for one move
at a time, so a line rarely holds more than one.)

Only the seat's view, its legal moves and a seed cross to the worker: the search cannot peek
at what the seat may not see, because it never receives it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from app.games.base import STRONG, Engine, SearchBudget, Seat

log = logging.getLogger("partida.bots")

#: How often a worker looks whether the server that started it is still there.
PARENT_CHECK_SECONDS = 1.0


@dataclass(frozen=True)
class Question:
    """One move to find: everything the worker is told."""

    game: str
    view: Any
    legal_actions: list[Any]
    seat: Seat
    level: str
    seed: str
    budget: SearchBudget


def question_for(
    engine: Engine, state: Any, seat: Seat, level: str, seed: str, budget: SearchBudget
) -> Question:
    """What a bot at ``seat`` is told: its view of ``state`` and its legal moves, nothing
    more. Every bot move the server makes is decided from one of these."""
    return Question(
        engine.info.id,
        engine.view(state, seat),
        engine.legal_actions(state, seat),
        seat,
        level,
        seed,
        budget,
    )


def answer(engine: Engine, question: Question) -> int:
    """The index in ``question.legal_actions`` of the move the bot makes."""
    rng = random.Random(question.seed)
    if question.level == STRONG:
        choice = engine.bot(
            question.view,
            question.legal_actions,
            rng,
            question.level,
            seat=question.seat,
            budget=question.budget,
        )
    else:
        choice = engine.bot(question.view, question.legal_actions, rng, question.level)
    return question.legal_actions.index(choice)


def think(question: Question) -> int:
    """In a worker: :func:`answer` with the registered game's engine."""
    from app.games import REGISTRY

    return answer(REGISTRY[question.game], question)


def _worker_start() -> None:
    # Ctrl-C reaches the whole process group: the server stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A server killed outright (kill -9, out of memory) cannot stop them: they leave on
    # their own when their parent is gone, instead of waiting on its queue for ever.
    parent = os.getppid()
    threading.Thread(target=_leave_with, args=(parent,), daemon=True).start()


def _leave_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


@dataclass
class _Waiting:
    question: Question
    answer: asyncio.Future[int]
    started: bool = field(default=False)


class ThinkingPool:
    """The processes that search, and the tables' lines before them."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._lines: OrderedDict[str, deque[_Waiting]] = OrderedDict()
        self._running = 0
        self._closed = False
        #: The tables in the order their questions went to a worker (tests read it).
        self.served: list[str] = []

    async def ask(self, table_id: str, question: Question) -> int:
        """The index of the move among the question's legal actions, once a worker found it."""
        if self._closed:
            raise RuntimeError("the thinking pool is closed")
        waiting = _Waiting(question, asyncio.get_running_loop().create_future())
        self._lines.setdefault(table_id, deque()).append(waiting)
        self._dispatch()
        try:
            return await waiting.answer
        finally:
            if not waiting.started:  # cancelled while in line: nobody will think about it
                line = self._lines.get(table_id)
                if line is not None and waiting in line:
                    line.remove(waiting)
                    if not line:
                        del self._lines[table_id]

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running < self.workers and self._lines:
            table_id, line = next(iter(self._lines.items()))
            waiting = line.popleft()
            # Round robin: the table goes to the back of the queue of tables.
            del self._lines[table_id]
            if line:
                self._lines[table_id] = line
            if waiting.answer.done():
                continue
            waiting.started = True
            self.served.append(table_id)
            self._running += 1
            try:
                future = self._pool().submit(think, waiting.question)
            except (BrokenProcessPool, RuntimeError) as exc:
                self._running -= 1
                self._executor = None
                waiting.answer.set_exception(exc)
                continue
            future.add_done_callback(functools.partial(self._from_worker, loop, waiting))

    def _from_worker(
        self, loop: asyncio.AbstractEventLoop, waiting: _Waiting, done: Future[int]
    ) -> None:
        # In the executor's thread: the rest happens on the loop (unless it is gone).
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._finished, waiting, done)

    def _finished(self, waiting: _Waiting, done: Future[int]) -> None:
        self._running -= 1
        exc = done.exception()
        if isinstance(exc, BrokenProcessPool):
            # A worker died (killed, out of memory): the next question starts new ones.
            log.error("a bot worker process died; starting new ones")
            self._executor = None
        if not waiting.answer.done():
            if exc is not None:
                waiting.answer.set_exception(exc)
            else:
                waiting.answer.set_result(done.result())
        if not self._closed:
            self._dispatch()

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
            )
        return self._executor

    def close(self) -> None:
        """Stop the workers; questions in line fail, and none is taken after this."""
        self._closed = True
        for line in self._lines.values():
            for waiting in line:
                if not waiting.answer.done():
                    waiting.answer.cancel()
        self._lines.clear()
        executor, self._executor = self._executor, None
        if executor is not None:
            # A worker in the middle of a search would finish it first: stop it instead.
            workers = list(getattr(executor, "_processes", {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.join(timeout=2)
