"""A table's history: its log, the state at any version (re-played from seed + log), and
the replay of a finished game, step by step and from any perspective.

The log is the truth: every state here is ``setup(seed)`` and the logged actions through
``apply``, re-played in :class:`~app.tables.replay.ReplayWork` (paced, shared and kept).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterable
from typing import Any, NamedTuple, TypeAlias

from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import errors
from app.db import repo
from app.db.models import ActionRecord, Player
from app.fairness import commitment
from app.games.base import Locale, redact_log
from app.tables.presenter import Presenter
from app.tables.replay import (
    ACTION,
    SETUP,
    Pacer,
    ReplayWork,
    dumps,
    paced_final_state,
    replay_log,
)
from app.tables.snapshot import FINISHED, PLAYING, UNDO_SETTLED, Snapshot, iso

#: The table as stored now, if the viewer (or the invite) may read it.
VisibleSnapshot: TypeAlias = Callable[[str, Player | None, str | None], Awaitable[Snapshot]]


def step_of(record: ActionRecord) -> tuple[int, int | None, str, dict[str, Any]]:
    return (record.version, record.seat, record.kind, record.action)


def event_for(event: dict[str, Any], seat: int | None) -> bool:
    visible = event.get("visible_to")
    return visible is None or (seat is not None and seat in visible)


def redact_events(
    entries: Iterable[tuple[int, int | None, list[dict[str, Any]]]], seat: int | None
) -> list[dict[str, Any]]:
    """The events ``seat`` may see, each tagged with its version and acting seat."""
    out: list[dict[str, Any]] = []
    for version, actor, events in entries:
        for event in events:
            if event_for(event, seat):
                public = {k: v for k, v in event.items() if k != "visible_to"}
                out.append({"version": version, "actor": actor, **public})
    return out


def shown(snap: Snapshot, events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Logged events as the game lets ``seat`` see them now (``base.redact_log``: e.g. Luz
    ``strict_memory`` hides older tricks' cards while the game runs)."""
    if snap.state is None or not events:
        return events
    return redact_log(snap.engine, snap.state, events, seat)


class History:
    """The log and the replays of every table, read from the database."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        presenter: Presenter,
        replays: ReplayWork,
        visible_snapshot: VisibleSnapshot,
        catch_up_limit: int,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.presenter = presenter
        self.replays = replays
        self.visible_snapshot = visible_snapshot
        self.catch_up_limit = catch_up_limit

    async def snapshot_at(self, snap: Snapshot, version: int) -> Snapshot:
        """The table as it stood at ``version``, rebuilt from seed + log (the log is the truth)."""
        if version == snap.version:
            return snap
        state = await self.replay_state(snap, upto=version)
        engine = snap.engine
        result = engine.result(state)
        return snap.renewed(
            status=FINISHED if result is not None else PLAYING,
            version=version,
            state=state,
            result=result.model_dump(mode="json") if result else None,
            recent=OrderedDict(),
            # Not the table's last version: nothing of it can be taken back any more.
            undo_seat=None,
            undo=UNDO_SETTLED,
        )

    async def log_records(
        self, table_id: str, since: int, limit: int | None = None, upto: int | None = None
    ) -> list[ActionRecord]:
        async with self.sessionmaker() as session:
            return await repo.log_records(session, table_id, since, limit, upto)

    async def replay_state(self, snap: Snapshot, upto: int | None = None) -> BaseModel:
        """setup(seed) and every logged action through ``apply``, up to a version (by default
        the snapshot's). The state at a version never changes: it is kept (bounded), and the
        re-play gives the event loop back as it goes."""
        upto = snap.version if upto is None else upto

        async def rebuild(pacer: Pacer) -> BaseModel:
            engine = snap.engine
            options = engine.Options.model_validate(snap.options)
            state = engine.setup(snap.seat_count, snap.seed, options)
            records = await self.log_records(snap.id, 1)
            steps = [step_of(r) for r in records if r.version <= upto]
            return await paced_final_state(engine, state, steps, pacer)

        return await self.replays.state((snap.id, upto), rebuild)

    async def events_since(
        self, snap: Snapshot, since: int, seat: int | None
    ) -> list[dict[str, Any]] | None:
        """Events after ``since`` visible to ``seat``; None when too far behind (send a snapshot)."""
        since = max(since, 0)
        if since >= snap.version:
            return []
        if snap.version - since > self.catch_up_limit:
            return None
        wanted = range(since + 1, snap.version + 1)
        if all(v in snap.recent for v in wanted):
            return shown(snap, redact_events(((v, *snap.recent[v]) for v in wanted), seat), seat)
        records = await self.log_records(snap.id, since, upto=snap.version)
        return shown(
            snap, redact_events(((r.version, r.seat, r.events) for r in records), seat), seat
        )

    async def public_log(
        self,
        table_id: str,
        player: Player | None,
        since: int,
        lang: Locale | None = None,
        invite: str | None = None,
    ) -> dict[str, Any]:
        snap = await self.visible_snapshot(table_id, player, invite)
        seat = snap.seat_of(player.id if player else None)
        # Read after the snapshot: a move committed meanwhile is not the snapshot's. Its
        # events come with the frame of its version; here they would come twice to a client
        # that counts what it has by this answer's version.
        records = await self.log_records(table_id, max(since, 0), upto=snap.version)
        events = shown(
            snap, redact_events(((r.version, r.seat, r.events) for r in records), seat), seat
        )
        return {"version": snap.version, "events": self.presenter.with_text(snap, events, lang)}

    async def replay(
        self,
        table_id: str,
        player: Player | None = None,
        invite: str | None = None,
        client: Hashable = None,
    ) -> bytes:
        """The whole history of a finished game, rendered as JSON. All but the table's public
        picture (it shows who is connected now) is rendered once and kept; the rendering
        runs in ``client``'s turn."""
        snap = await self.visible_snapshot(table_id, player, invite)
        if snap.status != FINISHED:
            raise errors.NotFinished(
                "the full history is shown only after the game has ended", reason="replay"
            )
        rest = await self.replays.rendered(
            ("replay", snap.id, snap.version),
            lambda pacer: self._render_replay(snap, pacer),
            client,
        )
        return b"".join((b'{"table":', dumps(self.presenter.table_public(snap)), b",", *rest, b"}"))

    async def _render_replay(self, snap: Snapshot, pacer: Pacer) -> list[bytes]:
        """``/replay`` without its table: the members after ``"table":…,``, in pieces."""
        engine = snap.engine
        options = engine.Options.model_validate(snap.options)
        initial = engine.setup(snap.seat_count, snap.seed, options)
        records = await self.log_records(snap.id, 0)
        setup = [r for r in records if r.kind == SETUP]
        records = [r for r in records if r.kind != SETUP]
        # Tables started before the setup was logged have no setup record: no setup_events.
        setup_events = {"setup_events": setup[0].events} if setup else {}
        head = {
            "seed": snap.seed,
            "seed_secret": snap.seed_secret or None,
            "seed_commitment": commitment(snap.seed_secret) if snap.seed_secret else None,
            "seat_count": snap.seat_count,
            "initial_state": initial.model_dump(mode="json"),
            **setup_events,
        }
        pieces = [dumps(head)[1:-1], b',"actions":[']
        for n, r in enumerate(records):
            pieces.append(
                (b"," if n else b"")
                + dumps(
                    {"version": r.version, "seat": r.seat, "action": r.action,
                     "events": r.events, "kind": r.kind, "at": iso(r.created_at)}
                )
            )  # fmt: skip
            await pacer.tick()
        tail = {
            "final_state": snap.state.model_dump(mode="json") if snap.state else None,
            "result": snap.result,
        }
        pieces += [b"],", dumps(tail)[1:-1]]
        return pieces

    async def replay_steps(
        self,
        table_id: str,
        perspective: str,
        start: int,
        count: int,
        player: Player | None = None,
        invite: str | None = None,
        lang: Locale | None = None,
        client: Hashable = None,
    ) -> bytes:
        """Step-by-step replay after the end: for versions start..start+count-1, what the chosen
        perspective saw — the full state ("full"), a spectator's view ("spectator") or a seat's view
        ("0", "1", …) — with the action and the events visible from there. Rendered as JSON:
        each perspective's steps are rendered once (paced) and kept; a window is a slice.
        With ``lang``, each event carries its readable line (``text``, as in the log) and each
        action step the game's line for its action (``action_text``). The work runs in
        ``client``'s turn (:class:`~app.tables.replay.FairTurns`)."""
        snap = await self.visible_snapshot(table_id, player, invite)
        if snap.status != FINISHED:
            raise errors.NotFinished(
                "the replay is shown only after the game has ended", reason="replay"
            )
        seat: int | None = None
        if perspective not in ("full", "spectator"):
            if not perspective.isdigit() or int(perspective) >= snap.seat_count:
                raise errors.ValidationFailed(
                    f"perspective is full, spectator or a seat 0..{snap.seat_count - 1}",
                    reason="not_a_choice",
                    params={"expected": f"full, spectator, 0..{snap.seat_count - 1}"},
                    field="perspective",
                )
            seat = int(perspective)
        look = Look(perspective == "full", seat)
        steps = await self._steps(snap, look, lang, client)
        first = max(start, 1) - 1
        head = dumps({"version": snap.version, "perspective": perspective})[:-1]
        pieces = [head, b',"steps":[']
        for n in range(first, min(first + count, snap.version)):
            if n > first:
                pieces.append(b",")
            pieces += steps.step(n)
        pieces.append(b"]}")
        return b"".join(pieces)

    async def _steps(
        self, snap: Snapshot, look: Look, lang: Locale | None, client: Hashable
    ) -> Steps:
        """Every version's step from ``look`` in ``lang``, in layers kept apart so that the
        perspectives and languages of one game share the work: the pictures per perspective
        (a re-play and a redaction), the readable lines per language (shared by every
        perspective), the rest (the visible events with their lines: cheap) per both."""
        log = _Log(self, snap.id)
        # "01" and "1" are one perspective, and one cache entry.
        key = (snap.id, snap.version)
        pictures = await self.replays.rendered(
            ("pictures", *key, look.key),
            lambda pacer: self._render_pictures(snap, look, log, pacer),
            client,
        )
        lines: list[bytes] | None = None
        if lang is not None:
            lines = await self.replays.rendered(
                ("lines", *key, lang),
                lambda pacer: self._render_lines(snap, lang, log, pacer),
                client,
            )
        frames = await self.replays.rendered(
            ("frames", *key, look.key, lang),
            lambda pacer: self._render_frames(snap, look, lines, log, pacer),
            client,
        )
        return Steps(pictures, frames)

    async def _render_pictures(
        self, snap: Snapshot, look: Look, log: _Log, pacer: Pacer
    ) -> list[bytes]:
        """Each version's picture from one perspective, re-played from seed + log:
        ``,"view":…,"to_act":[…]`` (``"state"`` for "full"), in order."""
        engine = snap.engine
        state = engine.setup(
            snap.seat_count, snap.seed, engine.Options.model_validate(snap.options)
        )
        states = replay_log(engine, state, [step_of(r) for r in await log.records()])
        pictures: list[bytes] = []
        for version in range(1, snap.version + 1):
            # Version 1 is the setup: re-playing passes over its record.
            if version > 1:
                _version, state = next(states)
            if look.full:
                picture = b',"state":' + dumps(state.model_dump(mode="json"))
            else:
                picture = b',"view":' + dumps(engine.view_json(state, look.seat))
            pictures.append(picture + b',"to_act":' + dumps(sorted(engine.to_act(state))))
            await pacer.tick()
        return pictures

    async def _render_lines(
        self, snap: Snapshot, lang: Locale, log: _Log, pacer: Pacer
    ) -> list[bytes]:
        """Each version's readable lines in ``lang``, for every perspective: a JSON pair of
        the lines of each of its events (what :meth:`Presenter.readable` adds to one) and
        what :meth:`Presenter.readable_action` adds to an action's step (``{}`` for others)."""
        by_version = {r.version: r for r in await log.records()}
        lines: list[bytes] = []
        for version in range(1, snap.version + 1):
            record = by_version.get(version)
            events = [] if record is None else record.events
            said = [self.presenter.readable(snap.engine, e, lang, snap.result) for e in events]
            acted: dict[str, Any] = {}
            if record is not None and record.kind == ACTION:
                acted = self.presenter.readable_action(snap.engine, record.action, lang)
            lines.append(dumps([said, acted]))
            await pacer.tick()
        return lines

    async def _render_frames(
        self,
        snap: Snapshot,
        look: Look,
        lines: list[bytes] | None,
        log: _Log,
        pacer: Pacer,
    ) -> list[bytes]:
        """Each version's step around its picture, two pieces a version: what comes before
        the picture (the record and the events ``look`` sees, with their lines) and after."""
        by_version = {r.version: r for r in await log.records()}
        frames: list[bytes] = []
        for version in range(1, snap.version + 1):
            record = by_version.get(version)
            said, acted = json.loads(lines[version - 1]) if lines else (None, {})
            events: list[dict[str, Any]] = []
            for n, event in enumerate([] if record is None else record.events):
                if not look.full:
                    if not event_for(event, look.seat):
                        continue
                    event = {k: v for k, v in event.items() if k != "visible_to"}
                events.append(event if said is None else {**event, **said[n]})
            head = {
                "version": version,
                "actor": None if record is None else record.seat,
                "action": None if record is None or record.kind == SETUP else record.action,
                "kind": None if record is None else record.kind,
                "events": events,
            }
            frames.append(dumps(head)[:-1])
            frames.append((b"," + dumps(acted)[1:-1] if acted else b"") + b"}")
            await pacer.tick()
        return frames


class Look(NamedTuple):
    """A perspective of the replay: the whole state (``full``), or what ``seat`` sees (None:
    a spectator)."""

    full: bool
    seat: int | None

    @property
    def key(self) -> str | int | None:
        return "full" if self.full else self.seat


class Steps(NamedTuple):
    """A perspective's steps in a language: version ``n + 1`` is ``frames[2n]``, then
    ``pictures[n]``, then ``frames[2n + 1]`` (the pieces of one JSON object)."""

    pictures: list[bytes]
    frames: list[bytes]

    def step(self, n: int) -> tuple[bytes, bytes, bytes]:
        return self.frames[2 * n], self.pictures[n], self.frames[2 * n + 1]


class _Log:
    """A finished table's whole log, read from the database at most once per request (the
    layers of one request's replay share it)."""

    def __init__(self, history: History, table_id: str) -> None:
        self.history = history
        self.table_id = table_id
        self._records: list[ActionRecord] | None = None

    async def records(self) -> list[ActionRecord]:
        if self._records is None:
            self._records = await self.history.log_records(self.table_id, 0)
        return self._records
