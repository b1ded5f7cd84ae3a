"""schemathesis against /openapi.json: no 5xx, and only documented status codes.

Each operation of the OpenAPI document gets generated requests (valid and invalid),
authenticated as a real player. Half of them carry real ids in their path (an open table
made for the operation, a finished table, a player, the test game and its figure), so the
requests reach the service and the database instead of stopping at "no such table".

Examples per operation: ``EXAMPLES_PER_OPERATION`` under the ``ci`` profile (CI time), at
least 100 under ``long``: ``HYPOTHESIS_PROFILE=long pytest tests/api/test_schemathesis.py``.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance

from tests.conftest import PROFILE
from tests.support.client import Player, make_table, new_player
from tests.support.live import LiveServer

EXAMPLES_PER_OPERATION = 120 if PROFILE == "long" else 15


def _finished_table(owner: Player, other: Player) -> str:
    table = make_table(owner, "pick", 2, {"pile": 4, "max_take": 3})["id"]
    assert other.post(f"/api/v1/tables/{table}/join").status_code == 200
    assert owner.post(f"/api/v1/tables/{table}/start").status_code == 200
    while (state := owner.state(table))["status"] != "finished":
        mover = owner if state["legal_actions"] else other
        picture = mover.state(table)
        assert mover.act(table, picture["version"], picture["legal_actions"][-1]).is_success
    return str(table)


def _exercise(operation: Any, real: dict[str, list[Any]], live: LiveServer, player: Player) -> None:
    """Generated cases of one operation; half of those with a path get real ids in it."""

    @given(case=operation.as_strategy(), data=st.data())
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def exercise(case: Any, data: st.DataObject) -> None:
        if case.path_parameters and data.draw(st.booleans(), label="real ids"):
            case.path_parameters = {
                name: data.draw(st.sampled_from(real[name]), label=name) if name in real else value
                for name, value in case.path_parameters.items()
            }
        case.call_and_validate(
            base_url=live.url,
            headers=player.auth,
            checks=[not_a_server_error, status_code_conformance],
        )

    exercise()


@pytest.mark.timeout(3600 if PROFILE == "long" else 300)
def test_api_never_errors_and_answers_only_documented_codes(
    live: LiveServer, http: httpx.Client
) -> None:
    player, other = new_player(http, "Fuzz"), new_player(http, "Other")
    finished = _finished_table(player, other)
    schema = schemathesis.openapi.from_url(f"{live.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 12

    for operation in operations:
        # A table of the operation's own: leave, delete or start may use one up.
        fresh = make_table(player, "pick", 2)["id"]
        real: dict[str, list[Any]] = {
            "table_id": [fresh, finished],
            "player_id": [other.id, player.id],
            "game_id": ["pick"],
            "name": ["start"],
            "seat": [0, 1],
        }
        _exercise(operation, real, live, player)
