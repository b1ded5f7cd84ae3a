"""Validation errors in a client's language: pydantic's error types folded into the few
``reason`` codes of a ``validation_error`` envelope (API-EXTENSIONS.md "Errors in the
client's language"), each with the parameters its sentence names.

pydantic has about a hundred error types and adds more; a client translates these few
(static/i18n: ``error.validation_error.<reason>``), and a type not listed here is ``invalid``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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


def validation_reason(
    errors: Sequence[Mapping[str, Any]], *, root: str | None = None, drop: int = 0
) -> tuple[str, dict[str, Any]]:
    """The reason and params of the first of pydantic's ``errors`` (``exc.errors()``).

    ``field`` names where, as a dotted path: ``root`` first (what the whole value was, e.g.
    "options"), then the error's ``loc`` without its first ``drop`` parts (FastAPI's
    "body"/"query"); "" for the whole value."""
    if not errors:
        return "invalid", {"field": root or ""}
    first = errors[0]
    kind = str(first.get("type", ""))
    reason = _BY_TYPE.get(kind, "invalid")
    path = [str(part) for part in tuple(first.get("loc", ()))[drop:]]
    field = ".".join([root, *path] if root else path)
    params: dict[str, Any] = {"field": field}
    ctx = first.get("ctx") or {}
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
    return reason, params
