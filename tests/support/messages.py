"""The UI's messages as static/js/i18n.js reads them: ``{name}`` placeholders and ICU-like
plurals ``{n, plural, one {# card} other {# cards}}`` (for the i18n file tests)."""

from __future__ import annotations

import re


def _closing(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise AssertionError(f"unbalanced braces in {text!r}")


def plurals(text: str) -> list[tuple[str, dict[str, str]]]:
    """Every ``{var, plural, …}`` of a message (nested ones too) as (var, branches)."""
    found: list[tuple[str, dict[str, str]]] = []
    i = 0
    while (start := text.find("{", i)) >= 0:
        end = _closing(text, start)
        inner = text[start + 1 : end - 1]
        head = re.match(r"\s*(\w+)\s*,\s*plural\s*,", inner)
        if head:
            body, branches = inner[head.end() :], {}
            j = 0
            while body[j:].strip():
                sel = re.match(r"\s*(=\d+|\w+)\s*\{", body[j:])
                assert sel, f"bad plural branch in {text!r}"
                open_at = j + sel.end() - 1
                close = _closing(body, open_at)
                branches[sel.group(1)] = body[open_at + 1 : close - 1]
                j = close
            found.append((head.group(1), branches))
            for branch in branches.values():
                found += plurals(branch)
        i = end
    return found


def variables(text: str) -> set[str]:
    """The parameters a message reads: ``{name}`` placeholders and plural variables (the
    branches' own braces are text, not parameters)."""
    found: set[str] = set()
    i = 0
    while (start := text.find("{", i)) >= 0:
        end = _closing(text, start)
        piece = text[start:end]
        simple = re.fullmatch(r"\{(\w+)\}", piece)
        if simple:
            found.add(simple.group(1))
        else:
            for var, branches in plurals(piece)[:1]:
                found.add(var)
                for branch in branches.values():
                    found |= variables(branch)
        i = end
    return found
