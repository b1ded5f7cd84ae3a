"""What people read, as message keys with parameters: one catalogue for server and browser.

A game says what happened as a :class:`Message` (a key and its parameters); the words live
only in ``static/i18n`` (``<lang>.json`` and ``games/<game>.<lang>.json``), the same files
the browser reads. The server renders a message for ``?lang=`` with :func:`render`; the
browser renders the same tree (``Message.to_json``) with ``static/js/i18n.js``, naming the
seats by their players. Both implement the one syntax below, and
``tests/e2e/test_message_catalogue.py`` holds them to the same output.

The syntax is a subset of ICU MessageFormat:

- ``{x}``: the parameter as text (a nested message in the same language, a seat, a list);
- ``{x, plural, =0 {…} one {…} other {…}}``: by the number's plural category (Spanish and
  English: one for exactly 1, other otherwise; ``=N`` matches first); ``#`` is the number;
- ``{x, select, a {…} other {…}}``: by the parameter's text;
- ``{x, signed}``: a number with its sign (``+5``, ``-5``, ``+0``);
- ``{x, seat, style}``: a seat in a grammatical style. Without names (the server) the
  catalogue's ``seat.<style>`` says it with ``{n}`` (the seat from 1); with names (the
  browser) ``seat.named.<style>`` says it with ``{name}``. ``{x}`` alone is style ``plain``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeAlias

Locale: TypeAlias = Literal["es", "en"]
LOCALES: tuple[Locale, ...] = ("es", "en")

I18N_DIR = Path(__file__).resolve().parents[2] / "static" / "i18n"


@dataclass(frozen=True)
class SeatRef:
    """A seat (from 0) that the reader sees as "seat 2" (or as ``label``, when the game
    names its seats otherwise, e.g. MINE!'s directors by colour), or as its player's name."""

    seat: int
    label: Message | None = None


@dataclass(frozen=True)
class Items:
    """Several parameters read as one, joined by ``sep`` (the same in every language)."""

    items: tuple[Param, ...]
    sep: str = ", "


@dataclass(frozen=True)
class Message:
    """A catalogue key and the parameters its text is filled with."""

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The tree the browser renders: ``{"key", "params"}``, seats as ``{"seat": n}``,
        lists as ``{"list": [...], "sep": s}``."""
        if not self.params:
            return {"key": self.key}
        return {"key": self.key, "params": {k: _param_json(v) for k, v in self.params.items()}}


Param: TypeAlias = int | str | Message | SeatRef | Items


def msg(key: str, /, **params: Param) -> Message:
    """``msg("luz.line.bet_placed", seat=SeatRef(0), tricks=2)``."""
    return Message(key, params)


def items(values: Any, sep: str = ", ") -> Items:
    """A list parameter from any iterable of parameters."""
    return Items(tuple(values), sep)


def lines(messages: Any) -> Message:
    """Several messages, one per line ("" when there are none)."""
    return Message("text.lines", {"lines": Items(tuple(messages), "\n")})


def _param_json(value: Param) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, SeatRef):
        if value.label is None:
            return {"seat": value.seat}
        return {"seat": value.seat, "label": value.label.to_json()}
    if isinstance(value, Items):
        return {"list": [_param_json(v) for v in value.items], "sep": value.sep}
    return value


class MissingMessage(KeyError):
    """A key the catalogue of that language does not hold (a programming error)."""


@cache
def _file(path: Path) -> Mapping[str, str]:
    if not path.exists():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def strings(key: str, locale: Locale) -> Mapping[str, str]:
    """The game's strings a key is read from first (its prefix names the game; the base
    strings of ``<lang>.json`` come after)."""
    game = key.split(".", 1)[0]
    return _file(I18N_DIR / "games" / f"{game}.{locale}.json")


def _lookup(key: str, locale: Locale) -> str:
    text = strings(key, locale).get(key)
    if text is None:
        text = _file(I18N_DIR / f"{locale}.json").get(key)
    if text is None:
        raise MissingMessage(f"no {locale} text for {key!r}")
    return text


#: A seat's player name; None for a seat no player holds (MINE!'s dummy director).
SeatNamer: TypeAlias = Callable[[int], str | None]


def render(message: Message, locale: Locale, seat_name: SeatNamer | None = None) -> str:
    """The text of ``message`` in ``locale``; seats by number, or by ``seat_name(seat)``."""
    return _format(_lookup(message.key, locale), message.params, locale, seat_name)


def _value(value: Param, locale: Locale, seat_name: SeatNamer | None, style: str) -> str:
    if isinstance(value, Message):
        return render(value, locale, seat_name)
    if isinstance(value, SeatRef):
        name = None if seat_name is None else seat_name(value.seat)
        if name is not None:
            return _format(_lookup(f"seat.named.{style}", locale), {"name": name}, locale, None)
        if value.label is not None:
            return render(value.label, locale)
        return _format(_lookup(f"seat.{style}", locale), {"n": value.seat + 1}, locale, None)
    if isinstance(value, Items):
        return value.sep.join(_value(v, locale, seat_name, style) for v in value.items)
    return str(value)


def _closing(text: str, open_at: int) -> int:
    """The index just past the brace that closes the one at ``open_at`` (-1 if none)."""
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _branches(body: str) -> dict[str, str]:
    """``one {…} other {…}`` -> ``{"one": "…", "other": "…"}``."""
    out: dict[str, str] = {}
    i = 0
    while i < len(body):
        while i < len(body) and body[i].isspace():
            i += 1
        if i >= len(body):
            break
        open_at = body.find("{", i)
        if open_at < 0:
            raise ValueError(f"bad branches: {body!r}")
        end = _closing(body, open_at)
        if end < 0:
            raise ValueError(f"unclosed branch: {body!r}")
        out[body[i:open_at].strip()] = body[open_at + 1 : end - 1]
        i = end
    return out


def _hash_to_number(branch: str, n: int) -> str:
    """``#`` outside nested braces is the plural's number (a nested plural keeps its own)."""
    depth = 0
    out = []
    for ch in branch:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        out.append(str(n) if ch == "#" and depth == 0 else ch)
    return "".join(out)


def _plural_category(n: int) -> str:
    # Spanish and English agree for whole numbers: one for exactly 1, other otherwise.
    return "one" if n == 1 else "other"


def placeholders(text: str) -> list[tuple[slice, str, str, dict[str, str]]]:
    """Each placeholder of a template, outermost only, in order: (where, parameter, kind,
    branches). ``kind`` is "" for ``{x}``, else the word after the first comma (``plural``,
    ``select``, ``signed``, ``seat``); ``branches`` are a plural's or a select's (else {}),
    and a seat's style is ``{"style": …}``."""
    found: list[tuple[slice, str, str, dict[str, str]]] = []
    i = 0
    while (open_at := text.find("{", i)) >= 0:
        end = _closing(text, open_at)
        if end < 0:
            raise ValueError(f"unclosed placeholder in {text!r}")
        name, _, rest = text[open_at + 1 : end - 1].partition(",")
        kind, _, body = rest.partition(",")
        kind = kind.strip()
        if kind in ("plural", "select"):
            branches = _branches(body)
        elif kind == "seat":
            branches = {"style": body.strip() or "plain"}
        else:
            branches = {}
        found.append((slice(open_at, end), name.strip(), kind, branches))
        i = end
    return found


def _format(
    text: str, params: Mapping[str, Param], locale: Locale, seat_name: SeatNamer | None
) -> str:
    out: list[str] = []
    done = 0
    for where, name, kind, branches in placeholders(text):
        if name not in params:
            raise MissingMessage(f"no parameter {name!r} for {text!r}")
        value = params[name]
        if not kind:
            filled = _value(value, locale, seat_name, "plain")
        elif kind == "seat":
            filled = _value(value, locale, seat_name, branches["style"])
        elif kind == "signed":
            filled = f"{_number(value, text):+d}"
        elif kind == "plural":
            n = _number(value, text)
            branch = branches.get(f"={n}", branches.get(_plural_category(n), branches["other"]))
            filled = _format(_hash_to_number(branch, n), params, locale, seat_name)
        elif kind == "select":
            branch = branches.get(_select_text(value), branches["other"])
            filled = _format(branch, params, locale, seat_name)
        else:
            raise ValueError(f"unknown placeholder kind {kind!r} in {text!r}")
        out += (text[done : where.start], filled)
        done = where.stop
    out.append(text[done:])
    return "".join(out)


def _select_text(value: Param) -> str:
    # As JavaScript's String(value) reads it, so both sides pick the same branch.
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _number(value: Param, text: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a number, in {text!r}")
    return value
