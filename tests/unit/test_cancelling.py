"""The one rule of a cancel vote (app.tables.cancelling, issue 34.6), over every mix of
seats: people playing their own seat, bots, resigned seats, seats a bot plays for an
absent player; whoever proposes and whoever has said yes."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from app.tables.cancelling import cancel_decision
from app.tables.snapshot import SeatInfo

KINDS = ("person", "bot", "resigned", "taken_over")
WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def _seat(index: int, kind: str) -> SeatInfo:
    player = None if kind == "bot" else f"p{index}"
    level = None if kind == "person" else "normal"
    resigned = WHEN if kind == "resigned" else None
    return SeatInfo(index, player, None, level, None, (), None, resigned)


@given(
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=5),
    proposer=st.integers(0, 4),
    yes=st.sets(st.integers(0, 4)),
)
def test_a_cancel_passes_only_with_every_say_and_another_persons_yes(
    kinds: list[str], proposer: int, yes: set[int]
) -> None:
    seats = [_seat(i, kind) for i, kind in enumerate(kinds)]
    vote = {"by": f"p{proposer}", "yes": [f"p{i}" for i in yes | {proposer}]}
    decision = cancel_decision(seats, vote)
    say = {i for i, kind in enumerate(kinds) if kind == "person"}
    others = say - {proposer}
    if proposer not in say or not others:
        # A resigned or replaced proposer has no say; nobody else to agree: never passes.
        assert decision == "refused"
    elif others <= yes:
        assert decision == "cancelled"
        # The yes that made it pass came from a person besides the proposer.
        assert any(kinds[i] == "person" and i != proposer for i in yes)
    else:
        assert decision == "waiting"


def test_the_quoted_cases() -> None:
    owner_yes = {"by": "p0", "yes": ["p0"]}
    # Every other seat a bot, or handed to one: the owner does not cancel alone.
    assert cancel_decision([_seat(0, "person"), _seat(1, "bot")], owner_yes) == "refused"
    assert cancel_decision([_seat(0, "person"), _seat(1, "taken_over")], owner_yes) == "refused"
    # A resigned owner's proposal does not stand, whoever agrees.
    both = {"by": "p0", "yes": ["p0", "p1", "p2"]}
    seats = [_seat(0, "resigned"), _seat(1, "person"), _seat(2, "person")]
    assert cancel_decision(seats, both) == "refused"
    # A resigned seat's vote is not needed.
    seats = [_seat(0, "person"), _seat(1, "person"), _seat(2, "resigned")]
    assert cancel_decision(seats, {"by": "p0", "yes": ["p0", "p1"]}) == "cancelled"
    assert cancel_decision(seats, owner_yes) == "waiting"
