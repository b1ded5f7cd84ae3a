"""Issue 18.6: every option of every game has words for players in both languages.

The new-table form (static/js/options-form.js) shows options.<game>.<name> as the label,
.help under it, and .<value> for each choice (.null for "nobody chosen"); a seat is
options.seat / options.seat_you. None of them may carry the schema's developer words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.games import REGISTRY

STATIC = Path(__file__).resolve().parents[2] / "static"
RAW = re.compile(r"\bnull\b|§|\btrue\b|\bfalse\b|\bauto\b|_|\bD\d+\b")


def _strings(lang: str) -> dict[str, str]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _choices(prop: dict[str, Any]) -> list[str]:
    """The words-keys of an option's fixed choices (a seat number is not one)."""
    if "enum" in prop:
        return [str(v) for v in prop["enum"]]
    out: list[str] = []
    for v in prop.get("anyOf", []):
        if v.get("type") == "null":
            out.append("null")
        elif "const" in v:
            out.append(str(v["const"]))
        elif v.get("type") == "boolean":
            out += ["true", "false"]
    return out


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("game", sorted(REGISTRY))
def test_every_option_and_choice_has_words_for_players(game: str, lang: str) -> None:
    strings = _strings(lang)
    schema = REGISTRY[game].Options.model_json_schema()
    assert schema["properties"], game
    keys = ["options.seat", "options.seat_you"]
    for name, prop in schema["properties"].items():
        base = f"options.{game}.{name}"
        keys += [base, f"{base}.help", *(f"{base}.{c}" for c in _choices(prop))]
    missing = [k for k in keys if not strings.get(k)]
    assert not missing, f"{lang}.json lacks {missing}"
    raw = {k: strings[k] for k in keys if RAW.search(strings[k])}
    assert not raw, raw
