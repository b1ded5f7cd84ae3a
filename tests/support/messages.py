"""The catalogue's messages as both renderers read them (app/games/messages.py parses them):
placeholders, ICU-like plurals ``{n, plural, one {# card} other {# cards}}`` and selects
(for the i18n file tests)."""

from __future__ import annotations

from app.games.messages import placeholders


def plurals(text: str) -> list[tuple[str, dict[str, str]]]:
    """Every ``{var, plural, …}`` of a message (nested ones too) as (var, branches)."""
    found: list[tuple[str, dict[str, str]]] = []
    for _where, name, kind, branches in placeholders(text):
        if kind == "plural":
            found.append((name, branches))
        if kind in ("plural", "select"):
            for branch in branches.values():
                found += plurals(branch)
    return found


def variables(text: str) -> set[str]:
    """The parameters a message shows: placeholders and plural variables, and those in the
    branches. A select's own parameter is grammar (Spanish may agree with a colour's gender
    where English has nothing to agree), so it is not counted, only its branches'."""
    found: set[str] = set()
    for _where, name, kind, branches in placeholders(text):
        if kind != "select":
            found.add(name)
        if kind in ("plural", "select"):
            for branch in branches.values():
                found |= variables(branch)
    return found
