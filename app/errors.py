"""The AppError hierarchy: every rejection the server gives, with its API code and status.

One exception handler (REST) and one error frame (WebSocket) turn these into the
envelope of API.md: {"error": {"code", "message", ...details}}, extended (API-EXTENSIONS.md
"Errors in the client's language") with ``reason``, a finer code where one code covers
refusals a person would tell apart, and ``params``, the values the message is built from,
so that a client words the refusal in its own language (static/i18n: error.<code>[.<reason>]).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar


class AppError(Exception):
    code: ClassVar[str] = "error"
    status: ClassVar[int] = 400

    def __init__(
        self,
        message: str,
        *,
        reason: str | None = None,
        params: Mapping[str, Any] | None = None,
        **details: Any,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.params = dict(params or {})
        self.details = details

    def envelope(self) -> dict[str, Any]:
        return envelope(
            self.code, self.message, reason=self.reason, params=self.params, **self.details
        )


class Unauthorized(AppError):
    code = "unauthorized"
    status = 401


class Forbidden(AppError):
    code = "forbidden"
    status = 403


class NotFound(AppError):
    code = "not_found"
    status = 404


class ValidationFailed(AppError):
    """422: what was sent is not valid. ``field``, the JSON path of the offending value in
    what was sent, is the same in the envelope and in ``params`` (API-EXTENSIONS.md)."""

    code = "validation_error"
    status = 422

    def __init__(self, message: str, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        field = self.details.get("field", self.params.get("field"))
        if field is not None:
            self.details["field"] = self.params["field"] = field


class IllegalActionError(AppError):
    code = "illegal_action"
    status = 422


class NotYourTurnError(AppError):
    code = "not_your_turn"
    status = 409


class StaleVersion(AppError):
    code = "stale_version"
    status = 409


class TableFull(AppError):
    code = "table_full"
    status = 409


class AlreadyStarted(AppError):
    code = "already_started"
    status = 409


class AlreadySeated(AppError):
    code = "already_seated"
    status = 409


class NotSeated(AppError):
    code = "not_seated"
    status = 403


class NotPlaying(AppError):
    code = "not_playing"
    status = 409


class TableNotFull(AppError):
    code = "table_not_full"
    status = 409


class NotFinished(AppError):
    code = "not_finished"
    status = 409


class IdempotencyConflict(AppError):
    code = "idempotency_conflict"
    status = 409


class TooManyTables(AppError):
    code = "too_many_tables"
    status = 409


class NotUndoable(AppError):
    code = "not_undoable"
    status = 409


class SeatTakenOver(AppError):
    code = "seat_taken_over"
    status = 409


class NoTakeover(AppError):
    code = "takeover_refused"
    status = 409


class RateLimited(AppError):
    code = "rate_limited"
    status = 429


class Unavailable(AppError):
    """The server cannot reach what it needs (the database): try again shortly."""

    code = "unavailable"
    status = 503


def envelope(
    code: str,
    message: str,
    *,
    reason: str | None = None,
    params: Mapping[str, Any] | None = None,
    **details: Any,
) -> dict[str, Any]:
    """The error envelope. ``params`` also holds every scalar detail (``field``,
    ``current_version``, ``retry_after``...): one place for a translation's values."""
    body: dict[str, Any] = {"code": code, "message": message, **details}
    values = {k: v for k, v in details.items() if isinstance(v, str | int | float | bool)}
    values.update(params or {})
    if reason:
        body["reason"] = reason
    if values:
        body["params"] = values
    return {"error": body}


class WrongInvite(NotFound):
    """A private table's invite code did not match: the client sees the 404 of a table that
    does not exist, and the guess counts against its address."""


class RetryLater(RateLimited):
    """429 ``rate_limited`` that says when to come back: ``retry_after`` seconds, in the
    envelope and as the Retry-After header."""

    def __init__(self, message: str, retry_after: int, *, reason: str | None = None) -> None:
        super().__init__(message, reason=reason, retry_after=retry_after)
        self.headers = {"Retry-After": str(retry_after)}


class Resigned(AppError):
    """The player resigned from this game: a bot plays the seat for good."""

    code = "resigned"
    status = 409


class CancelNotProposed(AppError):
    """A vote on cancelling the game when nobody has proposed it (or it was turned down)."""

    code = "cancel_not_proposed"
    status = 409


class CancelNeedsAnotherPlayer(AppError):
    """A cancel takes the yes of a person besides the proposer, and no other seat is played
    by a person who still has a say (every other seat is a bot's, or resigned)."""

    code = "cancel_needs_another_player"
    status = 409
