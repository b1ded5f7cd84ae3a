"""Columns marked ``info={"secret": True}`` hand every value they hold to app.known_secrets.

A value is remembered when it is set on a row (made here) and when a row is loaded or
refreshed from the database (made by another instance, or before a restart), so that the
logs never carry it, whichever part of the server then writes it into a line.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import DeclarativeBase, Mapper

from app.known_secrets import remember


def _secret_keys(mapper: Mapper[Any]) -> tuple[str, ...]:
    return tuple(
        prop.key for prop in mapper.column_attrs if any(c.info.get("secret") for c in prop.columns)
    )


def _remember_set(_row: object, value: Any, _old: Any, _initiator: Any) -> None:
    if isinstance(value, str):
        remember(value)


def _remember_loaded(keys: tuple[str, ...]) -> Any:
    def loaded(row: object, _context: Any, *_attrs: Any) -> None:
        for key in keys:
            # Only what the row holds: a column left unloaded is not fetched for this.
            _remember_set(row, row.__dict__.get(key), None, None)

    return loaded


def remember_secret_columns(base: type[DeclarativeBase]) -> None:
    """Listen on every mapped class of ``base`` that has secret columns."""
    for mapper in base.registry.mappers:
        keys = _secret_keys(mapper)
        for key in keys:
            event.listen(getattr(mapper.class_, key), "set", _remember_set)
        if keys:
            loaded = _remember_loaded(keys)
            event.listen(mapper.class_, "load", loaded)
            event.listen(mapper.class_, "refresh", loaded)
