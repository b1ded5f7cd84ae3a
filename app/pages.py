"""The page a browser gets for an address the server does not know: HTML in its language.

A browser navigating to an unknown page asks for ``text/html``; it gets static/404.html with
the strings of static/i18n/<lang>.json, in the first of Spanish or English its
``Accept-Language`` names (English otherwise, as the pages choose). Everything else keeps
the API's JSON envelope: any path under /api, and any client that does not prefer HTML to
JSON (``*/*`` alone is not a preference).
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path

from starlette.requests import Request

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
LANGS = ("es", "en")
DEFAULT_LANG = "en"

_HTML_TYPES = ("text/html", "application/xhtml+xml")
_PLACEHOLDER = re.compile(r"\{\{([a-z0-9_.]+)\}\}")


def _weighted(header: str) -> list[tuple[str, float]]:
    """``"es-ES,es;q=0.9,en;q=0.8"`` → [("es-es", 1.0), ("es", 0.9), ("en", 0.8)], in order."""
    items: list[tuple[str, float]] = []
    for part in header.split(","):
        value, *params = (p.strip() for p in part.split(";"))
        if not value:
            continue
        q = 1.0
        for param in params:
            name, _, number = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(number)
                except ValueError:
                    q = 0.0
        items.append((value.lower(), q))
    return items


def wants_html(request: Request) -> bool:
    """A browser's page request outside the API: it prefers HTML to JSON."""
    path = request.url.path
    if path == "/api" or path.startswith("/api/"):
        return False
    accepted = _weighted(request.headers.get("accept", ""))
    html_q = max((q for t, q in accepted if t in _HTML_TYPES), default=0.0)
    json_q = max((q for t, q in accepted if t == "application/json"), default=0.0)
    return html_q > 0 and html_q >= json_q


def page_lang(request: Request) -> str:
    """The first of Spanish or English the browser names (by preference), else English."""
    accepted = _weighted(request.headers.get("accept-language", ""))
    for tag, q in sorted(accepted, key=lambda item: -item[1]):
        base = tag.split("-")[0]
        if q > 0 and base in LANGS:
            return base
    return DEFAULT_LANG


@cache
def not_found_page(lang: str) -> str:
    """static/404.html with its ``{{key}}`` strings in ``lang`` (kept: the files never change
    while the server runs)."""
    strings: dict[str, str] = json.loads((STATIC_DIR / "i18n" / f"{lang}.json").read_text("utf-8"))
    template = (STATIC_DIR / "404.html").read_text("utf-8")
    strings = {**strings, "lang": lang}
    return _PLACEHOLDER.sub(lambda m: html.escape(strings.get(m.group(1), m.group(1))), template)
