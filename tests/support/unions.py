"""The members of an engine's discriminated unions, and their ``type`` literals.

``Action`` and ``Event`` are ``Annotated[A | B | ..., Field(discriminator="type")]`` (or a
plain union, or a single model); the tests walk them without knowing the game.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel


def union_members(union: Any) -> list[type[BaseModel]]:
    """Every model class of a (possibly Annotated, possibly nested) union, in order."""
    origin = get_origin(union)
    if origin is typing.Annotated:
        return union_members(get_args(union)[0])
    if origin is typing.Union or origin is types.UnionType:
        members: list[type[BaseModel]] = []
        for arg in get_args(union):
            members.extend(m for m in union_members(arg) if m not in members)
        return members
    if isinstance(union, type) and issubclass(union, BaseModel):
        return [union]
    raise TypeError(f"not a union of models: {union!r}")


def type_literal(model: type[BaseModel]) -> str:
    """The single value of a model's ``type: Literal[...]`` field."""
    annotation = model.model_fields["type"].annotation
    if get_origin(annotation) is Literal:
        values = get_args(annotation)
        if len(values) == 1 and isinstance(values[0], str):
            return values[0]
    default = model.model_fields["type"].default
    if isinstance(default, str):
        return default
    raise TypeError(f"{model.__name__}.type is not a single string literal")


def type_names(union: Any) -> list[str]:
    """The ``type`` literal of every member of the union (e.g. the game's action types)."""
    return [type_literal(m) for m in union_members(union)]
