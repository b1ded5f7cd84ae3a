"""Re-playing a table's log: setup(seed), then every record in order.

A record is a seat's action, or an undo that takes the table back to the state
before the action it names. The setup's own record (version 1, kind ``setup``) only
carries the events of ``Engine.start``; re-playing passes over it. Every path that
re-plays a log (state rebuilds, step-by-step replays, ``python -m app.verify``) goes
through :func:`replay_log`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel

from app.games.base import Engine, parse_action

ACTION, UNDO, SETUP = "action", "undo", "setup"

Step = tuple[int, int | None, str, dict[str, Any]]
"""(version, seat, kind, action): for an undo, ``action`` is ``{"undoes": <version>}``."""


def replay_log(
    engine: Engine, state: BaseModel, steps: Iterable[Step]
) -> Iterator[tuple[int, BaseModel]]:
    """Yield ``(version, state after that record)`` for every record, in order.

    Raises ``ValueError`` when an undo names an action that is not the last one in force
    (a log the server never writes).
    """
    steps = list(steps)
    undone = {action["undoes"] for _v, _s, kind, action in steps if kind == UNDO}
    # The states before the actions that are later undone (only those are kept).
    before: dict[int, BaseModel] = {}
    in_force: list[int] = []
    for version, seat, kind, action in steps:
        if kind == SETUP:
            continue
        if kind == UNDO:
            target = action.get("undoes")
            if not in_force or in_force[-1] != target or target not in before:
                raise ValueError(
                    f"record {version} undoes {target}, which is not the last action in force"
                )
            in_force.pop()
            state = before.pop(target)
        else:
            if seat is None:
                raise ValueError(f"record {version} is an action without a seat")
            if version in undone:
                before[version] = state
            state, _ = engine.apply(state, seat, parse_action(engine, action))
            in_force.append(version)
        yield version, state


def final_state(engine: Engine, state: BaseModel, steps: Iterable[Step]) -> BaseModel:
    """The state after the whole log (``state`` itself when the log is empty)."""
    for _version, state in replay_log(engine, state, steps):  # noqa: B007, B020
        pass
    return state
