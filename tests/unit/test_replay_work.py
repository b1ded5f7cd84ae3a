"""ReplayWork, where the server's re-plays run (issue 17.3): identical requests share one
run, runs take turns, a run gives the loop back between slices, results are kept within
their bounds, and a failed run is neither kept nor lost on its awaiters. Issue 34.5: the
waiting runs take turns between clients (round-robin, whatever the order they asked in),
one client's queue is bounded, and asking for a waiting run brings it forward."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable

import pytest
from pydantic import BaseModel

from app import errors
from app.tables.replay import FairTurns, Pacer, ReplayWork


class Board(BaseModel):
    n: int


def _work(**overrides: float) -> ReplayWork:
    values: dict[str, float] = {
        "max_bytes": 1000,
        "max_states": 2,
        "slice_seconds": 0.002,
        "lanes": 1,
        **overrides,
    }
    return ReplayWork(**values)  # type: ignore[arg-type]


def test_identical_requests_share_one_run_and_the_result_is_kept() -> None:
    async def main() -> None:
        work = _work()

        async def build(pacer: Pacer) -> list[bytes]:
            await asyncio.sleep(0.01)
            return [b"x" * 10]

        answers = await asyncio.gather(*(work.rendered("k", build) for _ in range(20)))
        assert work.runs == 1 and all(a == [b"x" * 10] for a in answers)
        assert await work.rendered("k", build) == [b"x" * 10] and work.runs == 1

    asyncio.run(main())


def test_the_cache_keeps_to_its_byte_and_entry_bounds() -> None:
    async def main() -> None:
        work = _work()

        def sized(n: int) -> Callable[[Pacer], Awaitable[list[bytes]]]:
            async def build(pacer: Pacer) -> list[bytes]:
                return [b"a" * n]

            return build

        for key in range(5):
            await work.rendered(key, sized(300))
        assert work.rendered_bytes <= 1000 and work.runs == 5
        await work.rendered(4, sized(300))  # the newest is still kept
        assert work.runs == 5
        await work.rendered(0, sized(300))  # the oldest was dropped
        assert work.runs == 6
        await work.rendered("huge", sized(5000))  # larger than the whole cache: not kept
        await work.rendered("huge", sized(5000))
        assert work.runs == 8 and work.rendered_bytes <= 1000

        for n in range(4):
            await work.state(n, lambda pacer, n=n: _board(n))
        await work.state(3, lambda pacer: _board(3))
        assert work.runs == 12  # 2 and 3 kept, 0 and 1 dropped
        await work.state(0, lambda pacer: _board(0))
        assert work.runs == 13

    asyncio.run(main())


async def _board(n: int) -> Board:
    return Board(n=n)


def test_a_run_gives_the_loop_back_between_slices_and_runs_take_turns() -> None:
    async def main() -> None:
        work = _work(share=0.5)
        beats = 0  # the other task's turns while a run was under way
        running = 0
        overlap = 0

        async def heartbeat() -> None:
            nonlocal beats
            while True:
                beats += running > 0
                await asyncio.sleep(0)

        async def build(pacer: Pacer) -> list[bytes]:
            nonlocal running, overlap
            running += 1
            overlap = max(overlap, running)
            until = time.perf_counter() + 0.05
            while time.perf_counter() < until:
                sum(range(200))  # CPU work in small units
                await pacer.tick()
            running -= 1
            return [b""]

        beat = asyncio.create_task(heartbeat())
        await asyncio.sleep(0)
        await asyncio.gather(*(work.rendered(k, build) for k in range(3)))
        beat.cancel()
        # One run at a time, and ~150 ms of CPU work in all, yet the other task had its turn
        # between the slices all along (a counter is the judge, not a clock). Without the
        # pacer's ticks it would get none.
        assert overlap == 1 and work.runs == 3
        assert beats >= 3 * 10, beats

    asyncio.run(main())


def test_a_failed_run_reaches_every_awaiter_and_is_not_kept() -> None:
    async def main() -> None:
        work = _work()
        calls = 0

        async def build(pacer: Pacer) -> list[bytes]:
            nonlocal calls
            calls += 1
            await asyncio.sleep(0.005)
            if calls == 1:
                raise ValueError("broken log")
            return [b"ok"]

        results = await asyncio.gather(
            *(work.rendered("k", build) for _ in range(5)), return_exceptions=True
        )
        assert all(isinstance(r, ValueError) for r in results)
        assert await work.rendered("k", build) == [b"ok"] and calls == 2

    asyncio.run(main())


def test_an_awaiter_that_goes_away_does_not_cancel_the_run_for_the_others() -> None:
    async def main() -> None:
        work = _work()

        async def build(pacer: Pacer) -> list[bytes]:
            await asyncio.sleep(0.02)
            return [b"done"]

        leaving = asyncio.create_task(work.rendered("k", build))
        staying = asyncio.create_task(work.rendered("k", build))
        await asyncio.sleep(0.005)
        leaving.cancel()
        with pytest.raises(asyncio.CancelledError):
            await leaving
        assert await staying == [b"done"] and work.runs == 1

    asyncio.run(main())


# --------------------------------------------------------------------------- fair turns (34.5)


def _logged(order: list[str], name: str, gate: asyncio.Event | None = None) -> Build:
    """A build that notes when it starts (and waits for ``gate``, if any, before it ends)."""

    async def build(pacer: Pacer) -> list[bytes]:
        order.append(name)
        if gate is not None:
            await gate.wait()
        await asyncio.sleep(0)
        return [name.encode()]

    return build


Build = Callable[[Pacer], Awaitable[list[bytes]]]


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_waiting_runs_take_turns_between_clients() -> None:
    async def main() -> None:
        work = _work(per_client=100)
        order: list[str] = []
        gate = asyncio.Event()
        # One client asks for six replays at once; the first runs (held), five wait.
        flood = [
            asyncio.ensure_future(work.rendered(f"a{n}", _logged(order, f"a{n}", gate), "a"))
            for n in range(6)
        ]
        await _settle()
        # Then two others ask, one replay and two.
        others = [
            asyncio.ensure_future(work.rendered("b0", _logged(order, "b0"), "b")),
            asyncio.ensure_future(work.rendered("c0", _logged(order, "c0"), "c")),
            asyncio.ensure_future(work.rendered("c1", _logged(order, "c1"), "c")),
        ]
        await _settle()
        gate.set()
        await asyncio.gather(*flood, *others)
        # First come first served would run a0..a5, then b0, c0, c1.
        assert order == ["a0", "b0", "c0", "a1", "c1", "a2", "a3", "a4", "a5"]

    asyncio.run(main())


def test_a_client_asking_one_at_a_time_gains_no_turn_over_the_others() -> None:
    async def main() -> None:
        work = _work(per_client=100)
        order: list[str] = []
        gate = asyncio.Event()
        flood = [
            asyncio.ensure_future(work.rendered(f"a{n}", _logged(order, f"a{n}", gate), "a"))
            for n in range(4)
        ]
        await _settle()

        async def one_at_a_time(client: str) -> None:
            for n in range(3):
                await work.rendered(f"{client}{n}", _logged(order, f"{client}{n}"), client)

        others = [asyncio.ensure_future(one_at_a_time(c)) for c in "bc"]
        await _settle()
        gate.set()
        await asyncio.gather(*flood, *others)
        # Each client's runs alternate with the others': none of them goes twice in a row
        # while another waits, whether it asked for all at once or one after another.
        assert order[:4] == ["a0", "b0", "c0", "a1"], order
        assert sorted(order) == sorted([f"{c}{n}" for c in "bc" for n in range(3)] +
                                       [f"a{n}" for n in range(4)])  # fmt: skip
        for a, b in itertools.pairwise(order[:7]):
            assert a[0] != b[0], order

    asyncio.run(main())


def test_one_client_has_a_bounded_queue_but_may_always_share_a_run() -> None:
    async def main() -> None:
        work = _work(per_client=2)
        order: list[str] = []
        gate = asyncio.Event()
        running = asyncio.ensure_future(work.rendered("a0", _logged(order, "a0", gate), "a"))
        await _settle()
        waiting = [
            asyncio.ensure_future(work.rendered(k, _logged(order, k), "a")) for k in ("a1", "a2")
        ]
        await _settle()
        with pytest.raises(errors.RetryLater) as refused:
            await work.rendered("a3", _logged(order, "a3"), "a")
        assert refused.value.code == "rate_limited" and refused.value.status == 429
        assert int(refused.value.headers["Retry-After"]) >= 1
        # What is already waiting is shared, not refused; other clients and the server's
        # own work have queues of their own.
        shared = asyncio.ensure_future(work.rendered("a2", _logged(order, "x"), "a"))
        others = [
            asyncio.ensure_future(work.rendered(f"b{n}", _logged(order, f"b{n}"), "b"))
            for n in range(2)
        ]
        own = [
            asyncio.ensure_future(work.rendered(f"s{n}", _logged(order, f"s{n}"))) for n in range(5)
        ]
        await _settle()
        gate.set()
        await asyncio.gather(running, *waiting, shared, *others, *own)
        assert "a3" not in order and "x" not in order and shared.result() == [b"a2"]
        assert len(order) == 3 + 2 + 5
        # Once its runs are over, the client is served again.
        assert await work.rendered("a3", _logged(order, "a3"), "a") == [b"a3"]

    asyncio.run(main())


def test_asking_for_a_waiting_run_brings_it_forward() -> None:
    async def main() -> None:
        work = _work(per_client=100)
        order: list[str] = []
        gate = asyncio.Event()
        flood = [
            asyncio.ensure_future(work.rendered(f"a{n}", _logged(order, f"a{n}", gate), "a"))
            for n in range(6)
        ]
        await _settle()
        # Another client asks for the flood's last replay: it runs in that client's turn.
        other = asyncio.ensure_future(work.rendered("a5", _logged(order, "never"), "b"))
        await _settle()
        gate.set()
        await asyncio.gather(*flood, other)
        assert order == ["a0", "a5", "a1", "a2", "a3", "a4"]
        assert other.result() == [b"a5"] and work.runs == 6

    asyncio.run(main())


def test_a_withdrawn_turn_leaves_every_queue_and_gives_its_lane_back() -> None:
    async def main() -> None:
        turns = FairTurns(lanes=1, per_client=2)
        first, second = turns.take("a"), turns.take("b")
        turns.join(second, "c")
        assert first.granted.done() and not second.granted.done()
        turns.withdraw(second)
        assert turns.waiting("b") == turns.waiting("c") == 0
        turns.withdraw(first)  # it had the lane: the lane is free again
        third = turns.take("a")
        assert third.granted.done()

    asyncio.run(main())
