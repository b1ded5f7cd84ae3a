"""The clock keeper walks every table only now and then; in between it looks only at the
tables that changed or fall due, and a quiet server gives it nothing to do."""

from __future__ import annotations

import asyncio

from app.tables.clocks import clock_keeper


class Driver:
    """Counts the keeper's passes; a table "changes" when the test says so."""

    def __init__(self) -> None:
        self.changed = asyncio.Event()
        self.full = 0
        self.partial = 0
        self.due: float | None = None
        self.passed = asyncio.Event()

    async def clock_tick(self) -> int:
        self.changed.clear()
        self.full += 1
        self.passed.set()
        return 0

    async def clock_due(self) -> int:
        self.changed.clear()
        self.partial += 1
        self.passed.set()
        return 0

    def seconds_to_due(self) -> float | None:
        return 0.0 if self.changed.is_set() else self.due

    async def mark_seen(
        self, connected: list[tuple[str, set[str]]], *, everyone: bool = False
    ) -> None:
        return None


async def _next_pass(driver: Driver) -> None:
    driver.passed.clear()
    await asyncio.wait_for(driver.passed.wait(), 10)


def test_a_quiet_keeper_passes_once_and_waits_for_a_change() -> None:
    async def scenario() -> None:
        driver = Driver()
        keeper = asyncio.create_task(clock_keeper(driver, list, 0.001, 3600, 3600))
        try:
            await _next_pass(driver)
            assert (driver.full, driver.partial) == (1, 0)
            # Nothing changed and nothing is due: many ticks go by without a pass.
            for _ in range(20):
                await asyncio.sleep(0.001)
            assert (driver.full, driver.partial) == (1, 0)
            # A table changed: one pass over what changed, not a walk of every table.
            driver.changed.set()
            await _next_pass(driver)
            assert (driver.full, driver.partial) == (1, 1)
        finally:
            keeper.cancel()

    asyncio.run(scenario())


def test_a_table_falling_due_wakes_the_keeper_and_the_full_walk_comes_back() -> None:
    async def scenario() -> None:
        driver = Driver()
        driver.due = 0.0  # a clock that has run out: looked at on every tick
        keeper = asyncio.create_task(clock_keeper(driver, list, 0.001, 3600, 3600))
        try:
            await _next_pass(driver)
            await _next_pass(driver)
            assert driver.full == 1 and driver.partial >= 1
        finally:
            keeper.cancel()
        driver = Driver()
        # Every pass a full one when the walk is due each time.
        keeper = asyncio.create_task(clock_keeper(driver, list, 0.001, 3600, 0.000001))
        try:
            await _next_pass(driver)
            await _next_pass(driver)
            assert driver.full >= 2 and driver.partial == 0
        finally:
            keeper.cancel()

    asyncio.run(scenario())
