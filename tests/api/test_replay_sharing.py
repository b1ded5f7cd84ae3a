"""Every perspective and language of ``/replay/steps`` shares one re-play of the game, yet
each answer is byte for byte what that perspective saw before the work was shared (issue 34.5).

The oracle is the rendering as it was, kept here: seed + the logged records re-played, each
step rendered on its own from one perspective (``view(state, seat)`` and the events visible
to the seat; the whole state and every event for "full"), the readable lines added per
language. It is compared, bytes against bytes, with the server's answers for finished
games of every engine, every perspective, every language and a few windows.
"""

from __future__ import annotations

import random
import time
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from app.games import REGISTRY
from app.games.base import Locale
from app.tables.history import event_for
from app.tables.presenter import Presenter
from app.tables.replay import ACTION, SETUP, dumps, replay_log
from tests.support.client import make_table, new_player
from tests.support.live import LiveServer

SEATS = {"gluckauf": 3, "luz": 3, "mine": 3, "ginkgopolis": 3}
LANGS: tuple[Locale | None, ...] = (None, "es", "en")
WINDOWS = ((1, 500), (3, 5))


def _finished(http: httpx.Client, game: str) -> str:
    """One human (random moves) and random bots play ``game`` to its end."""
    human = new_player(http, "Oracle")
    tid: str = make_table(human, game, SEATS[game])["id"]
    for _ in range(SEATS[game] - 1):
        r = human.post(f"/api/v1/tables/{tid}/bots", {"level": "random"})
        assert r.status_code in (200, 201), r.text
    assert human.post(f"/api/v1/tables/{tid}/start").status_code == 200
    rng = random.Random(game)
    deadline = time.monotonic() + 120
    while (s := human.state(tid))["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        if s["legal_actions"]:
            human.act(tid, s["version"], rng.choice(s["legal_actions"]))
        else:
            time.sleep(0.005)
    return tid


def _oracle(replay: dict[str, Any], perspective: str, lang: Locale | None) -> list[bytes]:
    """Every step from ``perspective``, rendered as ``/replay/steps`` rendered it before
    the work was shared."""
    engine = REGISTRY[replay["table"]["game"]]
    presenter = Presenter(lambda _table: set(), time.time)
    snap = SimpleNamespace(engine=engine, result=replay.get("result"))
    options = engine.Options.model_validate(replay["table"]["options"])
    state = engine.setup(replay["seat_count"], replay["seed"], options)
    records = [dict(r) for r in replay["actions"]]
    if "setup_events" in replay:
        records.insert(
            0, {"version": 1, "seat": None, "action": {}, "events": replay["setup_events"],
                "kind": SETUP},
        )  # fmt: skip
    by_version = {r["version"]: r for r in records}
    states = replay_log(
        engine, state, [(r["version"], r["seat"], r["kind"], r["action"]) for r in records]
    )
    seat = None if perspective in ("full", "spectator") else int(perspective)
    steps: list[bytes] = []
    for version in range(1, replay["table"]["version"] + 1):
        record = by_version.get(version)
        if version > 1:
            _version, state = next(states)
        picture = (
            state.model_dump(mode="json")
            if perspective == "full"
            else engine.view_json(state, seat)
        )
        events = [] if record is None else record["events"]
        if perspective != "full":
            events = [
                {k: v for k, v in e.items() if k != "visible_to"}
                for e in events
                if event_for(e, seat)
            ]
        step: dict[str, Any] = {
            "version": version,
            "actor": None if record is None else record["seat"],
            "action": None if record is None or record["kind"] == SETUP else record["action"],
            "kind": None if record is None else record["kind"],
            "events": presenter.with_text(snap, events, lang),  # type: ignore[arg-type]
            "state" if perspective == "full" else "view": picture,
            "to_act": sorted(engine.to_act(state)),
        }
        if lang is not None and record is not None and record["kind"] == ACTION:
            step.update(presenter.readable_action(engine, record["action"], lang))
        steps.append(dumps(step))
    return steps


@pytest.mark.parametrize("game", sorted(SEATS))
def test_every_perspective_and_language_is_byte_for_byte_what_it_was(
    http: httpx.Client, game: str
) -> None:
    tid = _finished(http, game)
    replay = http.get(f"/api/v1/tables/{tid}/replay").json()
    last = replay["table"]["version"]
    perspectives = ["full", "spectator", *(str(s) for s in range(SEATS[game]))]
    for perspective in perspectives:
        for lang in LANGS:
            expected = _oracle(replay, perspective, lang)
            for start, count in WINDOWS:
                params: dict[str, Any] = {"perspective": perspective, "start": start}
                params.update({"count": count, **({"lang": lang} if lang else {})})
                r = http.get(f"/api/v1/tables/{tid}/replay/steps", params=params)
                assert r.status_code == 200, r.text
                head = dumps({"version": last, "perspective": perspective})[:-1]
                window = expected[start - 1 : start - 1 + count]
                body = b"".join((head, b',"steps":[', b",".join(window), b"]}"))
                assert r.content == body, (perspective, lang, start, count)


def test_a_seat_written_with_a_leading_zero_is_that_seat(http: httpx.Client) -> None:
    tid = _finished(http, "luz")
    one = http.get(f"/api/v1/tables/{tid}/replay/steps", params={"perspective": "1"})
    again = http.get(f"/api/v1/tables/{tid}/replay/steps", params={"perspective": "01"})
    assert one.status_code == again.status_code == 200
    assert again.json()["steps"] == one.json()["steps"]
    assert again.json()["perspective"] == "01"


def test_perspectives_and_languages_share_the_work(
    live: LiveServer, http: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """18 cold requests (6 perspectives x 3 languages) redact each version once per
    perspective and describe each event once per language: 5 views a version (the full
    perspective shows the state) and 2 lines an event, not 15 and 2 per perspective."""
    game = "gluckauf"
    tid = _finished(http, game)
    replay = http.get(f"/api/v1/tables/{tid}/replay").json()
    engine, presenter = REGISTRY[game], live.service().presenter
    counted = {"views": 0, "lines": 0}

    def counting(name: str, call: Any) -> Any:
        def counted_call(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return call(*args, **kwargs)

        return counted_call

    monkeypatch.setattr(engine, "view_json", counting("views", engine.view_json))
    monkeypatch.setattr(presenter, "readable", counting("lines", presenter.readable))
    perspectives = ["full", "spectator", *(str(s) for s in range(SEATS[game]))]
    for perspective in perspectives:
        for lang in LANGS:
            params = {"perspective": perspective, **({"lang": lang} if lang else {})}
            r = http.get(f"/api/v1/tables/{tid}/replay/steps", params=params)
            assert r.status_code == 200, r.text
    versions = replay["table"]["version"]
    events = len(replay.get("setup_events", [])) + sum(len(a["events"]) for a in replay["actions"])
    assert counted == {"views": (len(perspectives) - 1) * versions, "lines": 2 * events}
