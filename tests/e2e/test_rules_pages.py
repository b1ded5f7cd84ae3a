"""The "How to play" pages (/games/<id>/rules) in a real browser, in both languages.

The shell (static/rules.html + rules.js) is checked on the test game with a content
fragment served by the test itself; every registered game's own page is checked for
the contract: its sections in order, every action type explained, every figure drawn
by the game's renderer, the same structure in Spanish and English. One server with
every game, one browser, pages in sequence.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.games import REGISTRY
from tests.support.live import LiveServer
from tests.support.pickgame import PICK
from tests.support.unions import type_names

from .helpers import context_factory

STATIC = Path(__file__).resolve().parents[2] / "static"
SECTIONS = ("goal", "components", "round", "actions", "scoring", "end", "options", "tips")
LOCALES = {"es": "es-ES", "en": "en-US"}
SETTLED = "body[data-status='ready'], body[data-status='missing'], body[data-status='error']"


@pytest.fixture(scope="module")
def rules_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Every registered game and the test game. The migrations run on a worker thread: the
    sync Playwright driver may already own this thread's event loop."""
    from app.main import create_app
    from app.migrate import upgrade_to_head
    from tests.conftest import test_settings

    path = tmp_path_factory.mktemp("rules-db") / f"rules-{uuid.uuid4().hex[:8]}.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    with ThreadPoolExecutor(1) as pool:
        pool.submit(upgrade_to_head, url).result()
    settings = test_settings(url)
    games = {"pick": PICK, **REGISTRY}
    server = LiveServer(
        create_app(settings, games=games),  # type: ignore[arg-type]
        ws_max_size=settings.ws_max_frame_bytes,
    ).start()
    yield server
    server.stop()


@pytest.fixture
def make_context(browser: Any, rules_server: LiveServer) -> Iterator[Callable[..., Any]]:
    yield from context_factory(browser, rules_server)


def _open_rules(context: Any, game_id: str) -> tuple[Any, list[tuple[str, int]]]:
    """Open the game's rules page; also return the content fragments it fetched."""
    page = context.new_page()
    fetched: list[tuple[str, int]] = []
    page.on(
        "response",
        lambda r: fetched.append((r.url, r.status)) if "/static/rules/" in r.url else None,
    )
    page.goto(f"/games/{game_id}/rules")
    page.wait_for_selector(SETTLED, state="attached", timeout=20_000)
    return page, fetched


# --------------------------------------------------------------------------- the shell

_PICK_FRAGMENT = {
    "en": """<h1>Pick</h1>
<section id="goal"><h2>Goal</h2><p>Do not take the last token.</p></section>
<section id="actions"><h2>Actions</h2><dl>
<dt data-action-type="take">Take</dt><dd>Take 1 to 3 tokens.</dd>
<dt data-action-type="pass_turn">Pass</dt><dd>Once per game.</dd></dl>
<figure data-figure="start"><figcaption>A fresh pile</figcaption></figure>
<figure data-figure="no_such_figure"><figcaption>Broken</figcaption></figure>
</section>""",
    "es": """<h1>Pick</h1>
<section id="goal"><h2>Objetivo</h2><p>No cojas la última ficha.</p></section>
<section id="actions"><h2>Acciones</h2><dl>
<dt data-action-type="take">Coger</dt><dd>Coge de 1 a 3 fichas.</dd>
<dt data-action-type="pass_turn">Pasar</dt><dd>Una vez por partida.</dd></dl>
<figure data-figure="start"><figcaption>Un montón nuevo</figcaption></figure>
<figure data-figure="no_such_figure"><figcaption>Roto</figcaption></figure>
</section>""",
}


def test_the_shell_draws_content_contents_figures_and_hints(
    make_context: Callable[..., Any],
) -> None:
    context = make_context(locale=LOCALES["en"])
    served = {"en": True}

    def fragment(route: Any) -> None:
        lang = route.request.url.rsplit(".", 2)[-2]
        if served.get(lang):
            route.fulfill(status=200, content_type="text/html", body=_PICK_FRAGMENT[lang])
        else:
            route.fulfill(status=404, content_type="text/plain", body="not found")

    context.route(re.compile(r".*/static/rules/pick\.(es|en)\.html.*"), fragment)
    page, _ = _open_rules(context, "pick")
    assert page.get_attribute("body", "data-status") == "ready"
    assert page.get_attribute("html", "lang") == "en"
    assert page.locator("#rules-content h1").inner_text() == "Pick"
    assert page.locator("#rules-game").inner_text().startswith("How to play")
    toc = page.locator("#rules-toc-list a")
    assert toc.all_inner_texts() == ["Goal", "Actions"]
    assert toc.nth(1).get_attribute("href") == "#actions"

    drawn = page.locator("figure[data-figure='start']")
    assert drawn.get_attribute("data-figure-state") == "drawn"
    assert drawn.locator(".figure-board").inner_text().strip()
    assert drawn.locator(".figure-error").count() == 0
    broken = page.locator("figure[data-figure='no_such_figure']")
    assert broken.get_attribute("data-figure-state") == "error"
    assert "no_such_figure" in broken.locator(".figure-error").inner_text()

    # A long press (touch) on an element with a title shows the title; lifting hides it.
    page.evaluate(
        """() => {
          const el = document.createElement("button");
          el.id = "hint-probe"; el.title = "Take one token"; el.textContent = "1";
          document.querySelector("figure[data-figure='start'] .figure-board").append(el);
          const box = el.getBoundingClientRect();
          const at = {bubbles: true, pointerType: "touch", clientX: box.x + 2, clientY: box.y + 2};
          el.dispatchEvent(new PointerEvent("pointerdown", at));
          window.__releaseProbe = () => el.dispatchEvent(new PointerEvent("pointerup", at));
        }"""
    )
    bubble = page.locator(".hint-bubble")
    bubble.wait_for(state="visible", timeout=3_000)
    assert bubble.inner_text() == "Take one token"
    page.evaluate("window.__releaseProbe()")
    bubble.wait_for(state="hidden", timeout=3_000)

    # Spanish is not written yet: the page says so instead of showing nothing.
    page.select_option("#lang-switch", "es")
    page.wait_for_selector("body[data-status='missing']")
    assert page.get_attribute("html", "lang") == "es"
    assert "español" in page.locator(".rules-missing").inner_text()
    # Once it exists, switching draws it again (and the figure with it).
    served["es"] = True
    page.select_option("#lang-switch", "en")
    page.wait_for_selector("body[data-status='ready']")
    page.select_option("#lang-switch", "es")
    page.wait_for_selector("body[data-status='ready'] #rules-content h2:has-text('Objetivo')")
    assert page.locator("#rules-toc-list a").all_inner_texts() == ["Objetivo", "Acciones"]
    assert page.locator("figure[data-figure='start']").get_attribute("data-figure-state") == "drawn"
    page.close()


# --------------------------------------------------------------------------- every game


def _fragment_path(game_id: str, lang: str) -> Path:
    return STATIC / "rules" / f"{game_id}.{lang}.html"


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_content_fragments_are_plain_html(game_id: str) -> None:
    for lang in LOCALES:
        path = _fragment_path(game_id, lang)
        assert path.exists(), f"{path.name} is missing"
        text = path.read_text(encoding="utf-8")
        lowered = text.lower()
        assert "<h1" in lowered
        for forbidden in ("<html", "<body", "<script", "<style", " style=", "javascript:"):
            assert forbidden not in lowered, f"{path.name} contains {forbidden!r}"
        assert not re.search(r"\son[a-z]+\s*=", lowered), f"{path.name} has an inline handler"


def _page_structure(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => {
              const root = document.getElementById("rules-content");
              return {
                sections: [...root.querySelectorAll("section[id]")].map((s) => s.id),
                headings: [...root.querySelectorAll("h2")].map((h) => h.textContent.trim()),
                actions: [...new Set([...root.querySelectorAll("[data-action-type]")].map((e) => e.dataset.actionType))].sort(),
                figures: [...root.querySelectorAll("figure[data-figure]")].map((f) => f.dataset.figure),
              };
            }"""
        )
    )


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_game_has_a_complete_rules_page_in_both_languages(
    make_context: Callable[..., Any], game_id: str
) -> None:
    engine = REGISTRY[game_id]
    action_types = type_names(engine.Action)
    figure_names = set(engine.figures)
    structures: dict[str, dict[str, Any]] = {}
    for lang, locale in LOCALES.items():
        context = make_context(locale=locale)
        page, fetched = _open_rules(context, game_id)
        where = f"{game_id} ({lang})"
        status = page.get_attribute("body", "data-status")
        assert status == "ready", f"{where}: the page is {status}"
        assert page.get_attribute("html", "lang") == lang
        wanted = f"/static/rules/{game_id}.{lang}.html"
        assert any(u.split("?")[0].endswith(wanted) and s == 200 for u, s in fetched), (
            f"{where}: the {lang} content was not the one loaded: {fetched}"
        )
        assert page.locator("#rules-content h1").first.inner_text().strip()

        structure = structures[lang] = _page_structure(page)
        present = [s for s in structure["sections"] if s in SECTIONS]
        assert present == list(SECTIONS), f"{where}: sections {structure['sections']}"
        for section in SECTIONS:
            heading = page.locator(f"#rules-content section#{section} > h2")
            assert heading.count() == 1 and heading.inner_text().strip(), f"{where}: {section}"
        assert page.locator("#rules-toc-list a").count() >= len(SECTIONS)

        for action_type in action_types:
            explained = page.locator(f"#rules-content [data-action-type='{action_type}']").first
            assert explained.count(), f"{where}: no explanation of the action {action_type!r}"
            assert explained.is_visible(), f"{where}: the {action_type!r} explanation is hidden"
            assert explained.inner_text().strip(), (
                f"{where}: {action_type!r} is explained by nothing"
            )

        used = structure["figures"]
        assert len(used) >= 3, f"{where}: only {len(used)} figures"
        assert set(used) <= figure_names, f"{where}: unknown figures {set(used) - figure_names}"
        assert set(used) == figure_names, f"{where}: figures never shown {figure_names - set(used)}"
        for index in range(len(used)):
            figure = page.locator("#rules-content figure[data-figure]").nth(index)
            name = used[index]
            assert figure.get_attribute("data-figure-state") == "drawn", f"{where}: {name}"
            assert figure.locator(".figure-error").count() == 0, f"{where}: {name} failed"
            board = figure.locator(".figure-board")
            assert board.evaluate("el => el.children.length") > 0, f"{where}: {name} is empty"
            assert figure.locator("figcaption").inner_text().strip(), f"{where}: {name}"
        # Each highlighted move explains itself on hover (and long-press): every enabled
        # button the board draws has a title (link-styled buttons are the board's own UI).
        untitled = page.evaluate(
            """() => [...document.querySelectorAll(
                 '#rules-content figure[data-figure] button:not([disabled]):not(.btn-link)')]
               .filter(b => !b.title.trim()).map(b => b.textContent.trim().slice(0, 30))"""
        )
        assert not untitled, f"{where}: moves without an explanation: {untitled}"
        page.close()
        context.close()

    es, en = structures["es"], structures["en"]
    for key in ("sections", "actions", "figures"):
        assert es[key] == en[key], f"{game_id}: {key} differ between es and en"
    assert es["headings"] != en["headings"], f"{game_id}: the es and en headings are identical"


# --------------------------------------------------------------------------- links


def test_the_rules_are_linked_from_the_lobby_and_from_a_table(
    make_context: Callable[..., Any], rules_server: LiveServer
) -> None:
    game_id = sorted(REGISTRY)[0]
    context = make_context(locale=LOCALES["en"])
    page = context.new_page()
    page.goto("/")
    link = page.locator(f"#games [data-rules-link='{game_id}']")
    assert link.inner_text() == "How to play"
    link.click()
    page.wait_for_url(f"**/games/{game_id}/rules")
    page.wait_for_selector(SETTLED, state="attached", timeout=20_000)
    page.close()

    with httpx.Client(base_url=rules_server.url + "/api/v1", timeout=30) as api:
        player = api.post("/players", json={"name": "Reader"}).json()
        headers = {"Authorization": f"Bearer {player['token']}"}
        body = {"game": game_id, "seats": REGISTRY[game_id].info.min_players}
        table = api.post("/tables", json=body, headers=headers)
        table.raise_for_status()
    seated = make_context(locale=LOCALES["es"], player=player)
    page = seated.new_page()
    page.goto(f"/tables/{table.json()['id']}")
    link = page.locator("#rules-link")
    link.wait_for(state="visible")
    assert link.inner_text() == "Cómo se juega"
    with seated.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_url(f"**/games/{game_id}/rules")
    rules.wait_for_selector(SETTLED, state="attached", timeout=20_000)
    assert rules.get_attribute("html", "lang") == "es"
