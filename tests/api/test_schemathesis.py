"""schemathesis against /openapi.json: no 5xx, and only documented status codes.

Each operation of the OpenAPI document gets a bounded number of generated
requests (valid and invalid), authenticated as a real player.
"""

from __future__ import annotations

from typing import Any

import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance

from tests.support.client import make_table, new_player
from tests.support.live import LiveServer

EXAMPLES_PER_OPERATION = 15


def test_api_never_errors_and_answers_only_documented_codes(
    live: LiveServer, http: httpx.Client
) -> None:
    player = new_player(http, "Fuzz")
    make_table(player, "pick", 2)
    schema = schemathesis.openapi.from_url(f"{live.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 12

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def exercise(case: Any) -> None:
            case.call_and_validate(
                base_url=live.url,
                headers=player.auth,
                checks=[not_a_server_error, status_code_conformance],
            )

        exercise()
