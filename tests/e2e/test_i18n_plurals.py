"""Counted words agree with their number: the UI strings say "1 worker" and "2 workers"
through ICU-like plurals (``{n, plural, one {# worker} other {# workers}}``, filled by
static/js/i18n.js with Intl.PluralRules), never "worker(s)", "carta(s)" or "gana(n)".

No browser needed: the strings are read from static/i18n/**/*.json. (The server's lines
are checked by tests/unit/games/test_descriptions.py, and the formatting itself by
test_readable_pages.py in the browser.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.support.messages import plurals

STATIC = Path(__file__).resolve().parents[2] / "static"
_BOTH_NUMBERS = re.compile(r"\w\((s|n|es|as|os|a)\)")
_SELECTORS = {"zero", "one", "two", "few", "many", "other"}


def _files() -> list[Path]:
    return sorted((STATIC / "i18n").rglob("*.json"))


def test_no_string_leaves_singular_or_plural_to_the_reader() -> None:
    for path in _files():
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            assert not _BOTH_NUMBERS.search(text), f"{path.name} {key}: {text!r}"


def test_every_plural_is_well_formed_with_an_other_form() -> None:
    count = 0
    for path in _files():
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            for var, branches in plurals(text):
                count += 1
                where = f"{path.name} {key}"
                assert "other" in branches, f"{where}: no 'other' form"
                unknown = {s for s in branches if not s.startswith("=")} - _SELECTORS
                assert not unknown, f"{where}: unknown plural forms {unknown}"
                assert var.isidentifier(), where
    assert count >= 40  # the counted strings of the four games and the shell
