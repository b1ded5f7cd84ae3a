"""Issue 35: a validation error names the offending value by its plain JSON path.

Many malformed documents, made from real ones of every game (the legal actions of seeded
games, the table options): each leaf confused with another JSON type, each key removed,
a key added, each object and list replaced by a scalar. Every refusal's envelope names a
``field`` that is ``params.field`` too, and a real path into the document sent: walking it
reaches the value, or names the key (or list place) that is missing, never one of
pydantic's own parts (``literal['random']``, a tag, a union member). Where the mutation
is one value's, the path is that value's. A ``not_a_choice`` lists in ``expected`` every
value the published JSON schema allows there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from pydantic import ValidationError

from app.games import REGISTRY
from app.games.base import action_adapter, dump, parse_action, parse_options
from app.refusals import validation_failed
from tests.support.playthrough import play_steps

GAMES = sorted(REGISTRY)
Path = tuple[str | int, ...]
CONFUSIONS: tuple[Any, ...] = ("x", 7, -1, 1.5, True, None, [], {}, [1], {"k": 1})


@cache
def _actions(game: str) -> list[dict[str, Any]]:
    """Up to three legal actions of each type seen in two seeded games, as JSON."""
    engine = REGISTRY[game]
    found: dict[str, list[dict[str, Any]]] = {}
    for n in {engine.info.min_players, engine.info.max_players}:
        for i, step in enumerate(play_steps(engine, n, 35 + n, "random")):
            for action in step.legal:
                kept = found.setdefault(action.type, [])
                if len(kept) < 3 and dump(action) not in kept:
                    kept.append(dump(action))
            if i > 400:
                break
    return [a for kept in found.values() for a in kept]


def _options(game: str) -> list[dict[str, Any]]:
    defaults = dump(REGISTRY[game].Options())
    return [defaults, {}]


def _walk(doc: Any) -> Iterator[Path]:
    """Every path in ``doc`` (not the root)."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield (key,)
            yield from ((key, *rest) for rest in _walk(value))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield (i,)
            yield from ((i, *rest) for rest in _walk(value))


def _get(doc: Any, path: Path) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def _set(doc: Any, path: Path, value: Any) -> Any:
    copy = json.loads(json.dumps(doc))
    _get(copy, path[:-1])[path[-1]] = value
    return copy


def _without(doc: Any, path: Path) -> Any:
    copy = json.loads(json.dumps(doc))
    parent = _get(copy, path[:-1])
    if isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent.pop()
    return copy


def _mutations(doc: dict[str, Any]) -> Iterator[tuple[Any, Path | None]]:
    """Malformed copies of ``doc``, each with the path of the value it broke (None when
    the mutation names no one value: the whole document replaced)."""
    for bad in CONFUSIONS:
        if bad != {}:
            yield bad, None
    yield {**doc, "surplus": 1}, ("surplus",)
    for path in _walk(doc):
        value = _get(doc, path)
        for bad in CONFUSIONS:
            if json.dumps(bad) != json.dumps(value):
                yield _set(doc, path, bad), path
        parent = _get(doc, path[:-1])
        if isinstance(parent, dict) or path[-1] == len(parent) - 1:
            yield _without(doc, path), path


def _names(doc: Any, path: list[str], reason: str) -> bool:
    """``path`` leads through ``doc`` to a value, or (``missing``) to a key it lacks."""
    node = doc
    for i, part in enumerate(path):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return reason in ("missing", "unknown_kind") and i == len(path) - 1
    return True


def _schema_at(schema: dict[str, Any], doc: Any, path: list[str]) -> list[dict[str, Any]]:
    """The schemas the published JSON schema allows at ``path`` of ``doc`` (its members)."""
    defs = schema.get("$defs", {})

    def resolve(node: dict[str, Any]) -> list[dict[str, Any]]:
        if "$ref" in node:
            return resolve(defs[node["$ref"].rsplit("/", 1)[-1]])
        members = node.get("oneOf") or node.get("anyOf")
        if members:
            return [m for member in members for m in resolve(member)]
        return [node]

    nodes = resolve(schema)
    value = doc
    for part in path:
        if isinstance(value, dict) and "type" in value:
            tagged = [
                n
                for n in nodes
                if n.get("properties", {}).get("type", {}).get("const") == value["type"]
            ]
            nodes = tagged or nodes
        nodes = [
            m
            for n in nodes
            for sub in (n.get("properties", {}).get(part), n.get("items"))
            if sub is not None
            for m in resolve(sub)
        ]
        value = value.get(part) if isinstance(value, dict) else None
    return nodes


def _allowed_literals(nodes: list[dict[str, Any]]) -> list[str]:
    words: list[str] = []
    for node in nodes:
        values = [*node.get("enum", []), *([node["const"]] if "const" in node else [])]
        if node.get("type") == "boolean" and not values:
            values = [True, False]
        for value in values:
            words.append(f"'{value}'" if isinstance(value, str) else json.dumps(value))
    return words


def _check(
    game: str, kind: str, doc: Any, broken: Path | None, parse: Any, schema: dict[str, Any]
) -> None:
    try:
        parse(REGISTRY[game], doc)
    except ValidationError as exc:
        refusal = validation_failed("x", exc.errors(include_url=False), document=doc, root=kind)
    else:
        return
    error = refusal.envelope()["error"]
    where = f"{game} {kind} {json.dumps(doc)}: {error}"
    field = error["field"]
    assert field == error["params"]["field"], where
    assert field == kind or field.startswith(f"{kind}."), where
    path = field.split(".")[1:]
    assert "[" not in field and "'" not in field, f"a pydantic part in the path: {where}"
    assert _names(doc, path, error["reason"]), f"not a path into the document: {where}"
    if broken is not None and "type" not in broken[:1] and "surplus" not in path:
        # The value broken, or (its container being wrong) one inside it is named.
        named = tuple(str(p) for p in broken)
        assert tuple(path[: len(named)]) == named or tuple(path) == named[: len(path)], where
    if error["reason"] == "not_a_choice":
        allowed = _allowed_literals(_schema_at(schema, doc, path))
        assert allowed, where
        for value in allowed:
            assert value in error["params"]["expected"], f"{value} not in expected: {where}"


@pytest.mark.parametrize("game", GAMES)
def test_every_malformed_action_names_its_value_by_json_path(game: str) -> None:
    schema = action_adapter(REGISTRY[game]).json_schema()
    checked = 0
    for action in _actions(game):
        for doc, broken in _mutations(action):
            _check(game, "action", doc, broken, parse_action, schema)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("game", GAMES)
def test_every_malformed_option_names_its_value_by_json_path(game: str) -> None:
    engine = REGISTRY[game]
    schema = engine.Options.model_json_schema()
    for options in _options(game):
        for doc, broken in _mutations(options):
            _check(game, "options", doc, broken, parse_options, schema)
        for name in engine.Options.model_fields:
            for bad in CONFUSIONS:
                _check(game, "options", {name: bad}, (name,), parse_options, schema)


def test_a_union_of_a_choice_and_a_type_lists_every_allowed_value() -> None:
    """MINE!'s ``dummy`` is 'auto', true or false; its ``first_player`` 'random' or a seat."""
    for options, expected in (
        ({"dummy": 1}, "'auto', true or false"),
        ({"first_player": "first"}, "'random' or an integer"),
    ):
        with pytest.raises(ValidationError) as caught:
            parse_options(REGISTRY["mine"], options)
        error = validation_failed(
            "x", caught.value.errors(), document=options, root="options"
        ).envelope()["error"]
        name = next(iter(options))
        assert error["field"] == error["params"]["field"] == f"options.{name}"
        assert (error["reason"], error["params"]["expected"]) == ("not_a_choice", expected)


def test_a_tagged_union_names_its_tag_and_the_field_inside_the_member() -> None:
    """MINE!'s ``place`` action: the member's fields are named without the tag pydantic adds
    to its path (``action.card``, not ``action.place.card``); an unknown type is
    ``action.type``, with every type there is in ``expected``."""
    cases = (
        ({"type": "place", "card": "x", "location": "mine"}, "not_integer", "action.card"),
        ({"type": "place", "location": "mine"}, "missing", "action.card"),
        ({"type": "plaice"}, "unknown_kind", "action.type"),
    )
    for action, reason, field in cases:
        with pytest.raises(ValidationError) as caught:
            parse_action(REGISTRY["mine"], action)
        error = validation_failed(
            "x", caught.value.errors(), document=action, root="action"
        ).envelope()["error"]
        assert (error["reason"], error["field"], error["params"]["field"]) == (
            reason,
            field,
            field,
        )
    assert error["params"]["expected"] == "'place', 'pass', 'discard'"


def test_every_malformed_socket_frame_names_its_value_by_json_path() -> None:
    """A frame's tag is also one of its keys (``{"type": "action", "action": ...}``): the
    path is the frame's own, ``version`` and not ``action`` (pydantic's loc is
    ``("action", "version")``)."""
    from app.realtime.ws import _FRAMES

    frames: list[dict[str, Any]] = [
        {"type": "action", "version": 3, "action": {"type": "take"}, "id": "a"},
        {"type": "undo", "version": 3, "id": "u"},
        {"type": "sync", "version": 3},
        {"type": "chat", "text": "hello"},
        {"type": "auth", "token": "t"},
        {"type": "ping"},
    ]
    checked = 0
    for frame in frames:
        for doc, broken in _mutations(frame):
            try:
                _FRAMES.validate_python(doc)
            except ValidationError as exc:
                error = validation_failed("x", exc.errors(), document=doc).envelope()["error"]
            else:
                continue
            checked += 1
            where = f"{json.dumps(doc)}: {error}"
            assert error["field"] == error["params"]["field"], where
            path = error["field"].split(".") if error["field"] else []
            assert _names(doc, path, error["reason"]), where
            if broken is not None and broken[0] not in ("type", "action", "surplus"):
                assert tuple(path) == tuple(str(p) for p in broken[:1]), where
    assert checked > 50


def _option_values(schema: dict[str, Any]) -> list[Any]:
    """Values worth trying for one option of a published options schema."""
    values: list[Any] = [None, -1, 0, 1, 2, 3, 4, 5, 6]
    for node in [schema, *schema.get("anyOf", [])]:
        values += [*node.get("enum", []), *([node["const"]] if "const" in node else [])]
        if node.get("type") == "boolean":
            values += [True, False]
    return values


@pytest.mark.parametrize("game", GAMES)
def test_every_option_a_game_refuses_is_named(game: str) -> None:
    """Every refusal of a game's own check across options and seat counts (not pydantic's)
    names the option it refuses in ``field`` and ``params.field`` (``options.<name>``),
    with an ``errors`` item, as solo Ginkgopolis' characters did not (issue 35)."""
    from app.errors import ValidationFailed
    from app.refusals import VALIDATION_REASONS
    from app.tables.seating import Lobby

    engine = REGISTRY[game]
    properties = engine.Options.model_json_schema()["properties"]
    refused: set[str] = set()
    for seats in range(engine.info.min_players, engine.info.max_players + 1):
        for name, schema in properties.items():
            for value in _option_values(schema):
                options = {name: value}
                try:
                    Lobby.table_options(engine, options, seats)
                except ValidationFailed as exc:
                    error = exc.envelope()["error"]
                    if error.get("reason") in VALIDATION_REASONS:
                        continue  # pydantic's (the tests above)
                    where = f"{game} {seats} seats {options}: {error}"
                    assert error["field"] == error["params"]["field"] == f"options.{name}", where
                    assert error["errors"] and error["errors"][0]["loc"] == [name], where
                    refused.add(error["reason"])
    expected = {
        "ginkgopolis": {"ginkgopolis.solo_characters", "ginkgopolis.solo_hidden_sp"},
        "gluckauf": {"gluckauf.starting_player"},
        "luz": {"luz.first_player"},
        "mine": {"mine.dummy_seats", "mine.first_player"},
    }
    assert refused == expected[game]


def test_a_validation_error_names_one_field_in_the_envelope_and_in_params() -> None:
    """However a refusal gives its field (a detail, or a parameter), the envelope shows it
    in both places, the same."""
    from app.errors import ValidationFailed

    for refusal in (
        ValidationFailed("x", reason="bad_format", field=""),
        ValidationFailed("x", reason="bad_format", params={"field": "since"}),
        ValidationFailed("x", reason="not_a_choice", params={"expected": "'a'"}, field="level"),
    ):
        error = refusal.envelope()["error"]
        assert error["field"] == error["params"]["field"], error
