"""Every UI string exists in both languages (static/i18n/es.json and en.json).

No browser needed: the keys are read from the JSON files and from the sources in static/.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

from tests.support.messages import variables

STATIC = Path(__file__).resolve().parents[2] / "static"
LANGS = ("es", "en")

# t("key"), ctx.t("key") and t(cond ? "key.a" : "key.b")
_T_CALL = re.compile(r"""\bt\(\s*["']([a-z0-9_.]+)["']""")
_T_TERNARY = re.compile(
    r"""\bt\(\s*(?:[^()"',?]|"[^"]*")*\?\s*["']([a-z0-9_.]+)["']\s*:\s*["']([a-z0-9_.]+)["']"""
)
# t(`prefix.${x}`): at least one key with the prefix must exist
_T_TEMPLATE = re.compile(r"""\bt\(\s*`([a-z0-9_.]+)\$\{""")
_HTML_KEYS = re.compile(r"""data-(?:i18n|title-key)="([a-z0-9_.]+)\"""")
_HTML_ATTR_KEYS = re.compile(r"""data-i18n-attr="([^"]+)\"""")

# Keys built at run time from values the protocol defines, and where they come from.
DYNAMIC_FAMILIES = {
    "status.{}": ("open", "playing", "finished"),
    "lobby.group.{}": ("open", "playing", "finished"),
    "lobby.none.{}": ("open", "playing", "finished"),
    # Issue 21: every game offers these levels (GET /games bot_levels), each with a hint.
    "bot.level.{}": ("easy", "normal", "strong", "random"),
    "bot.hint.{}": ("easy", "normal", "strong", "random"),
    "error.{}": (
        "unauthorized",
        "forbidden",
        "not_found",
        "stale_version",
        "illegal_action",
        "not_your_turn",
        "validation_error",
        "table_full",
        "already_started",
        "rate_limited",
        "not_undoable",
        "seat_taken_over",
        "takeover_refused",
    ),
}


def _read(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _load(lang: str) -> dict[str, str]:
    """The shell's strings plus every game's (static/i18n/games/<game>.<lang>.json)."""
    data = _read(STATIC / "i18n" / f"{lang}.json")
    extra = [
        *(STATIC / "i18n" / "games").glob(f"*.{lang}.json"),
        *(STATIC / "i18n" / "pages").glob(f"*.{lang}.json"),
    ]
    for path in sorted(extra):
        game = _read(path)
        clash = set(game) & set(data)
        assert not clash, f"{path.name} redefines {sorted(clash)}"
        data.update(game)
    return data


def _families() -> dict[str, tuple[str, ...]]:
    """DYNAMIC_FAMILIES plus each game's, from tests/e2e/families_<game>.py (FAMILIES)."""
    families = dict(DYNAMIC_FAMILIES)
    for path in sorted(Path(__file__).parent.glob("families_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        families.update(module.FAMILIES)
    return families


def test_every_game_file_has_both_languages_with_the_same_keys() -> None:
    for es_path in sorted((STATIC / "i18n" / "games").glob("*.es.json")):
        en_path = es_path.with_name(es_path.name.replace(".es.json", ".en.json"))
        assert en_path.exists(), f"{en_path.name} is missing"
        game = es_path.name.split(".")[0]
        es, en = _read(es_path), _read(en_path)
        assert set(es) == set(en), f"{game}: keys differ between es and en"
        assert all(k.startswith(f"{game}.") for k in es), f"{game}: keys must start with '{game}.'"


def test_every_page_file_has_both_languages_with_the_same_keys() -> None:
    """A page's own strings (static/i18n/pages/<page>.<lang>.json, e.g. admin, rules)."""
    pages = sorted((STATIC / "i18n" / "pages").glob("*.es.json"))
    assert {p.name.split(".")[0] for p in pages} >= {"admin", "rules"}
    for es_path in pages:
        en_path = es_path.with_name(es_path.name.replace(".es.json", ".en.json"))
        assert en_path.exists(), f"{en_path.name} is missing"
        page = es_path.name.split(".")[0]
        es, en = _read(es_path), _read(en_path)
        assert set(es) == set(en), f"{page}: keys differ between es and en"
        assert all(k.startswith(f"{page}.") for k in es), f"{page}: keys must start with '{page}.'"


def _sources(suffix: str) -> list[tuple[Path, str]]:
    return [(p, p.read_text(encoding="utf-8")) for p in sorted(STATIC.rglob(f"*{suffix}"))]


def _used_keys() -> tuple[set[str], set[str]]:
    keys: set[str] = set()
    prefixes: set[str] = set()
    for _, text in _sources(".js"):
        keys.update(_T_CALL.findall(text))
        for a, b in _T_TERNARY.findall(text):
            keys.update((a, b))
        prefixes.update(_T_TEMPLATE.findall(text))
    for _, text in _sources(".html"):
        keys.update(_HTML_KEYS.findall(text))
        for spec in _HTML_ATTR_KEYS.findall(text):
            keys.update(pair.split(":", 1)[1].strip() for pair in spec.split(";") if ":" in pair)
    return keys, prefixes


def test_both_languages_have_the_same_keys() -> None:
    es, en = _load("es"), _load("en")
    assert sorted(set(es) - set(en)) == [], "keys only in es.json"
    assert sorted(set(en) - set(es)) == [], "keys only in en.json"


def test_no_translation_is_empty_and_placeholders_match() -> None:
    es, en = _load("es"), _load("en")
    for key, english in en.items():
        assert english.strip() and es[key].strip(), key
        assert variables(english) == variables(es[key]), key


def test_every_key_used_in_static_exists() -> None:
    keys, prefixes = _used_keys()
    assert len(keys) > 100  # the scan found the UI's strings
    for lang in LANGS:
        table = _load(lang)
        missing = sorted(k for k in keys if k not in table)
        assert missing == [], f"{lang}.json lacks {missing}"
        for prefix in prefixes:
            assert any(k.startswith(prefix) for k in table), f"{lang}.json has no {prefix}* key"


def test_keys_built_at_run_time_exist() -> None:
    for lang in LANGS:
        table = _load(lang)
        missing = [
            family.format(value)
            for family, values in _families().items()
            for value in values
            if family.format(value) not in table
        ]
        assert missing == [], f"{lang}.json lacks {missing}"


def test_the_pages_and_renderers_use_the_key_files() -> None:
    html = {p.name: text for p, text in _sources(".html")}
    assert {"index.html", "table.html", "rules.html"} <= set(html)
    for page in ("index.html", "table.html", "rules.html"):
        assert "data-i18n" in html[page], page
