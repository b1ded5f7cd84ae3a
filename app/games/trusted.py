"""Pydantic models made from values an engine already knows to be valid, without validating.

An ``apply`` makes models (events, queued steps, parts of the state) and copies others, all
from values the rules produced themselves; pydantic's validation and its ``__setattr__``
took a large part of an action's time (a Glück Auf action makes a few, a Ginkgopolis game
some 1,400). What is made here cannot be told from what validation would have made: the same
``__dict__`` (same keys in the same order, defaults filled in), the same fields marked as set,
no extra fields, no private attributes. tests/unit/games/test_gluckauf_trusted.py and
test_ginkgopolis_speed.py hold each maker to the validated model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
# The slots of every pydantic model, written through their descriptors: BaseModel.__setattr__
# would validate, check frozen models and mark fields as set.
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def maker(cls: type[M]) -> Callable[..., M]:
    """A function that makes a ``cls`` from keyword values as ``cls(**values)`` would.

    For models without validators, extra fields or private attributes, called with valid
    values of the fields' own types: lists and dicts given are kept, not copied, so each call
    must pass fresh ones. Fields with a default factory that are not given get a fresh default.
    """
    if cls.model_config.get("extra") == "allow" or cls.__private_attributes__:
        raise TypeError(f"{cls.__name__} has extra fields or private attributes")
    if any(
        info.alias is not None and info.alias != name for name, info in cls.model_fields.items()
    ):
        raise TypeError(f"{cls.__name__} has an aliased field: build it validated")
    template: dict[str, Any] = {}
    factories: list[tuple[str, Callable[[], Any]]] = []
    for name, info in cls.model_fields.items():
        if info.default_factory is not None:
            template[name] = None
            factories.append((name, info.default_factory))  # type: ignore[arg-type]
        else:
            template[name] = None if info.is_required() else info.default

    if factories:

        def make_with_factories(**values: Any) -> M:
            fields = {**template, **values}
            for name, factory in factories:
                if name not in values:
                    fields[name] = factory()
            new: M = _new(cls)
            _set_dict(new, fields)
            _set_fields_set(new, set(values))
            _set_extra(new, None)
            _set_private(new, None)
            return new

        return make_with_factories

    def make(**values: Any) -> M:
        new: M = _new(cls)
        _set_dict(new, {**template, **values})
        _set_fields_set(new, set(values))
        _set_extra(new, None)
        _set_private(new, None)
        return new

    return make


_MAKERS: dict[type[BaseModel], Callable[..., Any]] = {}


def trusted(cls: type[M], /, **fields: Any) -> M:
    """``cls(**fields)`` without validating ``fields`` (see :func:`maker`, made once per model
    class): for values of the fields' own types (a tuple for a tuple, a frozenset for a
    frozenset) that the engine built itself."""
    make = _MAKERS.get(cls)
    if make is None:
        make = _MAKERS[cls] = maker(cls)
    made: M = make(**fields)
    return made


def assembled(cls: type[M], fields: dict[str, Any], fields_set: set[str] | frozenset[str]) -> M:
    """A ``cls`` whose ``__dict__`` is ``fields`` (every field, in the model's order: kept, not
    copied) with ``fields_set`` marked as set: what validating its dump makes when
    ``fields_set`` names every field."""
    new: M = _new(cls)
    _set_dict(new, fields)
    _set_fields_set(new, set(fields_set))
    _set_extra(new, None)
    _set_private(new, None)
    return new


def copy(model: M) -> M:
    """A shallow copy of ``model``: the same field values (containers shared), the same fields
    set. ``BaseModel.__copy__`` for models without extra fields or private attributes."""
    return assembled(type(model), model.__dict__.copy(), model.__pydantic_fields_set__)


def put(model: BaseModel, name: str, value: Any) -> None:
    """``model.name = value`` as pydantic assigns a field of a model without
    ``validate_assignment``: the value goes into ``__dict__`` and the field counts as set."""
    model.__dict__[name] = value
    model.__pydantic_fields_set__.add(name)


def shared(cls: type[M], *names: str) -> Callable[..., M]:
    """A function of the values of the fields ``names`` (in that order) that returns the one
    ``cls(**dict(zip(names, values)))`` it made for those values, made on the first call.

    Only for frozen models whose fields all hold hashable values (numbers, strings, None), such
    as most events: nothing can change such a model, so every action that causes the same event
    may return the same object, and a look-up costs a tenth of making one. At most ``limit``
    models are kept per function; beyond that each call makes its own.
    """
    if not cls.model_config.get("frozen"):
        raise TypeError(f"{cls.__name__} is not frozen: its instances cannot be shared")
    make = maker(cls)
    made: dict[tuple[Any, ...], M] = {}
    limit = 4096

    def get(*values: Any) -> M:
        model = made.get(values)
        if model is None:
            model = make(**dict(zip(names, values, strict=True)))
            if len(made) < limit:
                made[values] = model
        return model

    return get
