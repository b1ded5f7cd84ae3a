"""Validation errors in a client's language: pydantic's error types folded into the few
``reason`` codes of a ``validation_error`` envelope (API-EXTENSIONS.md "Errors in the
client's language"), each with the parameters its sentence names.

pydantic has about a hundred error types and adds more; a client translates these few
(static/i18n: ``error.validation_error.<reason>``), and a type not listed here is ``invalid``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.errors import ValidationFailed

# pydantic error type -> our reason (the finite set VALIDATION_REASONS below).
_BY_TYPE: dict[str, str] = {
    "missing": "missing",
    "missing_argument": "missing",
    "extra_forbidden": "unexpected",
    "unexpected_keyword_argument": "unexpected",
    "int_type": "not_integer",
    "int_parsing": "not_integer",
    "int_from_float": "not_integer",
    "int_parsing_size": "not_integer",
    "bool_type": "not_boolean",
    "bool_parsing": "not_boolean",
    "string_type": "not_text",
    "string_unicode": "not_text",
    "string_sub_type": "not_text",
    "float_type": "not_number",
    "float_parsing": "not_number",
    "finite_number": "not_number",
    "decimal_type": "not_number",
    "decimal_parsing": "not_number",
    "dict_type": "not_object",
    "model_type": "not_object",
    "model_attributes_type": "not_object",
    "dataclass_type": "not_object",
    "list_type": "not_list",
    "tuple_type": "not_list",
    "set_type": "not_list",
    "frozen_set_type": "not_list",
    "iterable_type": "not_list",
    "greater_than": "too_small",
    "greater_than_equal": "too_small",
    "less_than": "too_large",
    "less_than_equal": "too_large",
    "string_too_short": "too_short",
    "too_short": "too_short",
    "string_too_long": "too_long",
    "too_long": "too_long",
    "literal_error": "not_a_choice",
    "enum": "not_a_choice",
    "union_tag_invalid": "unknown_kind",
    "union_tag_not_found": "unknown_kind",
    "string_pattern_mismatch": "bad_format",
    "json_invalid": "bad_format",
    "json_type": "bad_format",
    "url_parsing": "bad_format",
    "url_scheme": "bad_format",
    "url_type": "bad_format",
    "uuid_parsing": "bad_format",
}

VALIDATION_REASONS: tuple[str, ...] = (*dict.fromkeys(_BY_TYPE.values()), "invalid")


def _scalar(value: Any) -> str | int | float | bool:
    return value if isinstance(value, str | int | float | bool) else str(value)


#: Where a value came from when the caller has no document to walk (see :func:`json_path`).
UNKNOWN: Any = object()

# Error types that name a key (or a list place) the document does not have.
_MISSING = frozenset({"missing", "missing_argument"})
# What a union member of each error type would have taken, as ``expected`` lists it.
_TAKES: dict[str, str] = {
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "string_type": "a string",
    "float_type": "a number",
    "float_parsing": "a number",
    "none_required": "null",
    "dict_type": "an object",
    "model_type": "an object",
    "list_type": "a list",
    "tuple_type": "a list",
}
_CHOICE = re.compile(r"'(?:[^'\\]|\\.)*'|[^,' ]+")


def json_path(
    loc: Sequence[Any], document: Any, kind: str = ""
) -> tuple[list[str], int | None, str]:
    """The JSON path into ``document`` of pydantic's ``loc``, and where a union was on it.

    pydantic adds segments of its own to a ``loc``: the member of a union that was tried
    (``literal['auto']``, ``bool``, ``function-after[...]``, a model's name) or the tag
    of a tagged union (``place``). Walking the document that was validated tells them
    from its keys: a part the document has is followed, one it has not is pydantic's and
    left out, except the last part of a ``missing`` error, the key the document lacks. A
    part that is both a key of an object and its tag (a frame ``{"type": "action",
    "action": ...}``) is read the way that leaves out fewer parts the document lacks.
    The second value is the length of the path where the first such part was left out
    (the value a union refused), None when there was none, and the third that part (the
    union's member). With ``document`` :data:`UNKNOWN`, every part is kept."""
    if document is UNKNOWN:
        return [str(part) for part in loc], None, ""
    path, union_at, member, _ = _walk(tuple(loc), document, kind, 0)
    return path, union_at, member


def _walk(
    loc: tuple[Any, ...], node: Any, kind: str, depth: int, tagged: bool = False
) -> tuple[list[str], int | None, str, int]:
    """:func:`json_path` of ``loc`` from ``node`` (``depth`` parts down; ``tagged`` once a
    part was read as its tag), with the number of parts left out that were no tag of the
    object they were met at (fewer is better; on a tie, a tag is read as the tag)."""
    if not loc:
        return [], None, "", 0
    part, rest = loc[0], loc[1:]
    key = str(part)
    tag = not tagged and isinstance(node, dict) and key in node.values()
    if isinstance(node, dict) and key in node:
        path, at, member, cost = _walk(rest, node[key], kind, depth + 1)
        followed = ([key, *path], at, member, cost)
        if not tag:
            return followed
        # The key is also a tag of this object: perhaps pydantic's part, not the key.
        path, at, member, cost = _walk(rest, node, kind, depth, True)
        as_tag = (path, depth if at is None else at, key if at is None else member, cost)
        return followed if followed[3] < as_tag[3] else as_tag
    if (
        isinstance(node, list)
        and isinstance(part, int)
        and not isinstance(part, bool)
        and 0 <= part < len(node)
    ):
        path, at, member, cost = _walk(rest, node[part], kind, depth + 1)
        return [key, *path], at, member, cost
    if not rest and kind in _MISSING and isinstance(node, dict | list):
        return [key], None, "", 0
    # pydantic's own part: a union's member, or a tag (which costs nothing).
    path, at, member, cost = _walk(rest, node, kind, depth, tagged or tag)
    return path, depth if at is None else at, key if at is None else member, cost + (not tag)


def _allowed(error: Mapping[str, Any]) -> list[str]:
    """The values one error says were allowed, as ``expected`` lists them ('a', true, ...)."""
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if kind in ("literal_error", "enum") and isinstance(ctx.get("expected"), str):
        return [c for c in _CHOICE.findall(ctx["expected"]) if c != "or"]
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": "≥", "greater_than": ">"}.get(kind)
        bound = bound or {"less_than_equal": "≤", "less_than": "<"}[kind]
        limit = next((ctx[k] for k in ("ge", "gt", "le", "lt") if k in ctx), "")
        return [f"a number {bound} {limit}"]
    if kind in _TAKES:
        return _TAKES[kind].split(" or ")
    return []


def choices(values: Sequence[str]) -> str:
    """``'a', 'b' or 'c'``: a list of allowed values as pydantic words ``expected``."""
    items = list(dict.fromkeys(values))
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def validation_reason(
    errors: Sequence[Mapping[str, Any]],
    *,
    root: str | None = None,
    drop: int = 0,
    document: Any = UNKNOWN,
) -> tuple[str, dict[str, Any]]:
    """The reason and params of pydantic's ``errors`` (``exc.errors()``) for ``document``,
    the JSON value that was validated.

    ``field`` names where, as the dotted JSON path of the offending value: ``root`` first
    (where the value sits in what the client sent, e.g. "options"), then the path into
    ``document`` (:func:`json_path`) without its first ``drop`` parts (FastAPI's
    "body"/"query"); "" for the whole value. The first error is reported; when it is one
    member's refusal of a union value, the member that got deepest into the value is, or
    when none got into it, every member's allowed values together (``not_a_choice``,
    ``expected`` "'random' or an integer")."""
    if not errors:
        return "invalid", {"field": root or ""}
    walked = [
        (*json_path(tuple(e.get("loc", ())), document, str(e.get("type", ""))), e) for e in errors
    ]
    path, union_at, _, first = walked[0]
    expected: str | None = None
    if union_at is not None:
        # The errors of the members of the union that refused this value.
        members = [
            (p, m, e)
            for p, at, m, e in walked
            if at == union_at and p[:union_at] == path[:union_at]
        ]
        if len({m for _, m, _ in members}) > 1:
            deepest = max(len(p) for p, _, _ in members)
            if deepest > union_at:
                path, first = next((p, e) for p, _, e in members if len(p) == deepest)
            elif all(_allowed(e) for _, _, e in members):
                expected = choices([value for _, _, e in members for value in _allowed(e)])
    kind = str(first.get("type", ""))
    ctx = first.get("ctx") or {}
    tag = str(ctx.get("discriminator", "")).strip("'")
    if kind in ("union_tag_invalid", "union_tag_not_found") and tag.isidentifier():
        path = [*path, tag]  # the tag is the offending value (or the missing key)
    path = path[drop:]
    field = ".".join([root, *path] if root else path)
    params: dict[str, Any] = {"field": field}
    if expected is not None:
        params["expected"] = expected
        return "not_a_choice", params
    reason = _BY_TYPE.get(kind, "invalid")
    if kind == "greater_than" and isinstance(ctx.get("gt"), int):
        params["min"] = ctx["gt"] + 1
    elif "ge" in ctx or "gt" in ctx:
        params["min"] = _scalar(ctx.get("ge", ctx.get("gt")))
    if kind == "less_than" and isinstance(ctx.get("lt"), int):
        params["max"] = ctx["lt"] - 1
    elif "le" in ctx or "lt" in ctx:
        params["max"] = _scalar(ctx.get("le", ctx.get("lt")))
    for key in ("min_length", "max_length", "expected"):
        if key in ctx:
            params[key] = _scalar(ctx[key])
    if reason == "unknown_kind":
        params["kind"] = _scalar(ctx.get("tag", ""))
        if "expected_tags" in ctx:
            params["expected"] = _scalar(ctx["expected_tags"])
    return reason, params


def validation_details(errors: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """pydantic's errors without the echoed input (it may be large) and with JSON-safe ctx."""
    return [
        {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
        for e in errors
    ]


def validation_failed(
    message: str,
    errors: Sequence[Mapping[str, Any]],
    *,
    document: Any,
    root: str | None = None,
    drop: int = 0,
) -> ValidationFailed:
    """The one ``validation_error`` of pydantic's ``errors`` about ``document`` (REST bodies
    and queries, actions, options, socket frames): ``reason``, ``params`` and the
    envelope's ``field`` (the same path as ``params.field``), with pydantic's own
    ``errors``."""
    reason, params = validation_reason(errors, root=root, drop=drop, document=document)
    return ValidationFailed(
        message,
        reason=reason,
        params=params,
        field=params["field"],
        errors=validation_details(errors),
    )
