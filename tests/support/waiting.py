"""Polling for tests that watch a running server: wait until a check returns something truthy."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_until(check: Callable[[], Any], timeout: float = 15.0, every: float = 0.05) -> Any:
    """Call ``check`` every ``every`` seconds until it returns a truthy value (returned), or
    fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError("timed out waiting")
