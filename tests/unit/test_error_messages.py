"""Issue 18.5: every refusal the server can give reads in the page's language.

Every error code the server can answer (app/errors.py, the envelopes app/ builds by hand),
every ``reason`` it gives with one (the AppErrors raised in app/, the engines' IllegalAction,
InvalidOptions and Refusal, pydantic's errors folded by app/refusals.py) has a sentence in
static/i18n/en.json and es.json, ``error.<code>`` and ``error.<code>.<reason>``, and each
sentence names only parameters that every place raising it gives (``params``).
"""

from __future__ import annotations

import ast
import inspect
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app import errors
from app.games import REGISTRY
from app.games.base import RulesError
from app.refusals import VALIDATION_REASONS, validation_reason

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
LANGS = ("en", "es")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")

# The errors of app/errors.py by class name, and the engines' (app/games/base.py) with the
# code the table service answers them with (an option refused is a validation error).
_APP_ERRORS = {
    name: cls
    for name, cls in inspect.getmembers(errors, inspect.isclass)
    if issubclass(cls, errors.AppError)
}
_ENGINE_CODES = {"IllegalAction": "illegal_action", "Refusal": "illegal_action"}
_ENGINE_OPTION_CODES = {"InvalidOptions": "validation_error"}
# Helpers that build one of the above from (message, reason, **params): code, params added.
_HELPERS = {
    "_invalid": ("validation_error", {"field"}),  # app/tables/notify.py: a webhook URL
    "refuse": ("illegal_action", set()),  # app/games/gluckauf/rules.py: _rule_refusal
    "final_because": ("not_undoable", set()),  # app/games/base.py: an engine's why_final
}
# Codes only a client makes (api.js: the server could not be reached; anything unknown).
CLIENT_CODES = ("network_error", "generic")


def _strings(lang: str) -> dict[str, str]:
    data = json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@dataclass
class Raised:
    code: str
    reason: str | None
    params: set[str]
    where: str


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.IfExp):  # (WrongInvite if invite else NotFound)(...): same code
        return _name(func.orelse)
    return ""


def _dict_values(tree: ast.Module, name: str) -> list[str]:
    """The string values of a module-level dict literal ``name = {...}``."""
    for node in tree.body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            value = node.value
            assert isinstance(value, ast.Dict), f"{name} is not a dict literal"
            return [v.value for v in value.values if isinstance(v, ast.Constant)]
    raise AssertionError(f"no module-level dict {name}")


def _raised() -> Iterator[Raised]:
    """Every refusal app/ builds: its code, reason (None: the code alone) and params."""
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if name == "envelope" and node.args and isinstance(node.args[0], ast.Constant):
                code = node.args[0].value
            elif name in _APP_ERRORS and name not in ("AppError",):
                code = _APP_ERRORS[name].code
            elif name in _ENGINE_CODES:
                code = _ENGINE_CODES[name]
            elif name in _ENGINE_OPTION_CODES:
                code = _ENGINE_OPTION_CODES[name]
            elif name in _HELPERS:
                code = _HELPERS[name][0]
            else:
                continue
            keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
            reason_node = keywords.get("reason")
            positional_reason = name in _ENGINE_CODES or name in _ENGINE_OPTION_CODES
            if reason_node is None and (positional_reason or name in _HELPERS):
                reason_node = node.args[1] if len(node.args) > 1 else None
            params = {k for k in keywords if k not in ("reason", "params")}
            params |= _HELPERS[name][1] if name in _HELPERS else set()
            given = keywords.get("params")
            if isinstance(given, ast.Dict):
                params |= {k.value for k in given.keys if isinstance(k, ast.Constant)}
            if reason_node is None:
                reasons: list[str | None] = [None]
            elif isinstance(reason_node, ast.Constant):
                reasons = [reason_node.value]
            elif isinstance(reason_node, ast.Subscript) and isinstance(reason_node.value, ast.Name):
                reasons = list(_dict_values(tree, reason_node.value.id))
            elif isinstance(reason_node, ast.Attribute) and reason_node.attr == "reason":
                continue  # passed on from a Refusal or RulesError made elsewhere (counted there)
            elif isinstance(reason_node, ast.Name) and reason_node.id == "reason":
                continue  # a helper's own parameter (the helper's callers are counted)
            else:
                raise AssertionError(f"{where}: a reason must be a literal string")
            for reason in reasons:
                yield Raised(code, reason, params, where)


RAISED = list(_raised())


def _codes() -> set[str]:
    codes = {cls.code for cls in _APP_ERRORS.values() if cls is not errors.AppError}
    codes |= {r.code for r in RAISED}
    from app.main import _HTTP_CODES

    return codes | set(_HTTP_CODES.values()) | {"http_error"}


def test_the_collector_sees_the_refusals_it_is_meant_to() -> None:
    seen = {(r.code, r.reason) for r in RAISED}
    assert ("not_undoable", "final") in seen
    assert ("illegal_action", "luz.follow") in seen
    assert ("illegal_action", "luz.phase_betting") in seen  # through a dict literal
    assert ("illegal_action", "gluckauf.workers") in seen  # a Refusal
    assert ("illegal_action", "gluckauf.phase_mining") in seen  # _rule_refusal
    assert ("validation_error", "mine.dummy_seats") in seen  # an InvalidOptions
    assert ("validation_error", "private_address") in seen  # notify's helper
    assert ("payload_too_large", None) in seen  # an envelope built by hand
    # A private table's 404 is an unknown table's, reason included (test_private_tables).
    tables = [r for r in RAISED if r.code == "not_found" and "service.py" in r.where]
    assert len(tables) > 5 and all(r.reason in ("table", "game") for r in tables), tables


@pytest.mark.parametrize("lang", LANGS)
def test_every_error_code_has_a_sentence(lang: str) -> None:
    strings = _strings(lang)
    missing = sorted(c for c in _codes() | set(CLIENT_CODES) if f"error.{c}" not in strings)
    assert not missing, f"{lang}.json lacks error.<code> for {missing}"
    # A code's own sentence (said when there is no reason) names only what every refusal
    # with that code and no reason gives; none for a code raised nowhere with no reason.
    for code in _codes():
        plain = [r.params for r in RAISED if r.code == code and r.reason is None]
        given = set.intersection(*plain) if plain else set()
        named = set(_PLACEHOLDER.findall(strings[f"error.{code}"]))
        assert named <= given, f"error.{code} names {named - given}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_has_a_sentence_naming_only_the_params_it_gets(lang: str) -> None:
    strings = _strings(lang)
    by_key: dict[str, list[Raised]] = {}
    for r in RAISED:
        if r.reason is not None:
            by_key.setdefault(f"error.{r.code}.{r.reason}", []).append(r)
    for reason in VALIDATION_REASONS:
        fields = {"field", "min", "max", "min_length", "max_length", "expected", "kind"}
        by_key.setdefault(f"error.validation_error.{reason}", []).append(
            Raised("validation_error", reason, fields, "app/refusals.py")
        )
    missing = sorted(k for k in by_key if k not in strings)
    assert not missing, f"{lang}.json lacks {missing}"
    for key, sites in by_key.items():
        given = set.intersection(*(s.params for s in sites))
        named = set(_PLACEHOLDER.findall(strings[key]))
        assert named <= given, f"{key} names {named - given}, not given at {sites[0].where}"
    # No sentence for a reason nothing gives (a renamed or removed one).
    reason_keys = {
        k
        for k in strings
        if k.startswith("error.") and k.count(".") >= 2 and k.split(".")[1] in _codes()
    }
    assert not sorted(reason_keys - set(by_key))


def test_pydantic_errors_fold_into_the_translated_reasons() -> None:
    from pydantic import BaseModel, Field, ValidationError

    class Form(BaseModel):
        name: str = Field(max_length=3)
        seats: int = Field(ge=2, le=5)

    cases = [
        ({"seats": 3}, "missing", {"field": "options.name"}),
        ({"name": "Anabel", "seats": 3}, "too_long", {"max_length": 3}),
        ({"name": "A", "seats": 9}, "too_large", {"max": 5}),
        ({"name": "A", "seats": 1}, "too_small", {"min": 2}),
        ({"name": "A", "seats": "x"}, "not_integer", {"field": "options.seats"}),
        ({"name": 4, "seats": 3}, "not_text", {}),
    ]
    for data, reason, params in cases:
        with pytest.raises(ValidationError) as caught:
            Form.model_validate(data)
        got_reason, got_params = validation_reason(caught.value.errors(), root="options")
        assert got_reason == reason and params.items() <= got_params.items(), (data, got_params)
    assert validation_reason([{"type": "something_new", "loc": ("x",)}]) == (
        "invalid",
        {"field": "x"},
    )


def _candidates(engine: Any, state: Any, seat: int, seen: list[Any]) -> list[Any]:
    """Actions to try now: ones legal earlier in the game (mostly refused now)."""
    return seen[-40:]


@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_every_rule_refusal_an_engine_gives_carries_a_translated_reason(game: str) -> None:
    """Play a seeded game and, at each decision, send actions that were legal at an earlier
    one: each refusal by the rules (IllegalAction) names a reason both languages word, with
    the parameters its sentences name."""
    strings = {lang: _strings(lang) for lang in LANGS}
    engine = REGISTRY[game]
    rng = random.Random(18)
    players = max(2, engine.info.min_players)
    state = engine.setup(players, 18, engine.Options())
    seen: list[Any] = []
    refusals = 0
    for _step in range(120):
        actors = sorted(engine.to_act(state))
        if not actors:
            break
        seat = actors[0]
        legal = engine.legal_actions(state, seat)
        for action in seen[-25:]:
            if action in legal:
                continue
            try:
                engine.apply(state, seat, action)
            except RulesError as exc:
                if exc.code != "illegal_action":
                    continue
                refusals += 1
                assert exc.reason, f"{game}: no reason for {exc.message!r}"
                for lang in LANGS:
                    key = f"error.illegal_action.{exc.reason}"
                    assert key in strings[lang], f"{lang}.json lacks {key} ({exc.message})"
                    named = set(_PLACEHOLDER.findall(strings[lang][key]))
                    assert named <= set(exc.params), (key, exc.params)
        seen.extend(rng.sample(legal, min(3, len(legal))))
        state = engine.apply(state, seat, rng.choice(legal)).state
    assert refusals > 10, f"{game}: too few refusals tried ({refusals})"
