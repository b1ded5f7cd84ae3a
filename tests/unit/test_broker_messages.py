"""The broker's messages are typed (issue 19.4): each kind of notice is its own type, and the
wire form between instances is the one of v1, so instances of mixed versions still agree."""

from __future__ import annotations

import json

import pytest

from app.realtime.broker import (
    BrokerMessage,
    ChatPosted,
    PlayerRevoked,
    Resync,
    TableUpdate,
    decode,
    encode,
)

WIRE: list[tuple[BrokerMessage, dict[str, object]]] = [
    (TableUpdate("t1", 7, "state"), {"t": "t1", "v": 7, "k": "state"}),
    (TableUpdate("t1", 7, "table"), {"t": "t1", "v": 7, "k": "table"}),
    (TableUpdate("t1", 7, "refresh"), {"t": "t1", "v": 7, "k": "refresh"}),
    (ChatPosted("t2", 41), {"t": "t2", "v": 41, "k": "chat"}),
    (PlayerRevoked("p9"), {"t": "p9", "v": 0, "k": "revoked"}),
    (Resync(), {"t": "", "v": 0, "k": "resync"}),
]


@pytest.mark.parametrize(("message", "wire"), WIRE, ids=[w["k"] for _, w in WIRE])
def test_each_message_keeps_the_v1_wire_form_and_reads_back_as_itself(
    message: BrokerMessage, wire: dict[str, object]
) -> None:
    sent = json.loads(encode(message, "origin-a"))
    assert sent == {**wire, "o": "origin-a"}
    assert decode(sent) == message


@pytest.mark.parametrize(
    "wire",
    [
        {"t": "x", "v": 1, "k": "dance"},
        {"t": "x", "k": "state"},
        {"t": "x", "v": "one", "k": "state"},
    ],
)
def test_a_malformed_message_is_refused(wire: dict[str, object]) -> None:
    with pytest.raises((ValueError, KeyError, TypeError)):
        decode(wire)
