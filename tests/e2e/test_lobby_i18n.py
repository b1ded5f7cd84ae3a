"""The lobby speaks the browser's language (Spanish or English) and remembers the switch."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize(
    ("locale", "lang", "heading", "name_label", "groups"),
    [
        ("es-ES", "es", "Juegos de mesa con amigos", "Tu nombre", "Mesas abiertas"),
        ("en-US", "en", "Board games with friends", "Your name", "Open tables"),
    ],
)
def test_the_lobby_speaks_the_browsers_language(
    new_context: Any, locale: str, lang: str, heading: str, name_label: str, groups: str
) -> None:
    page = new_context(locale=locale).new_page()
    page.goto("/")
    expect(page.locator("h1")).to_have_text(heading)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("label[for=player-name]")).to_have_text(name_label)
    expect(page.locator("[data-group=open] h3")).to_contain_text(groups)
    expect(page.locator("#lang-switch")).to_have_value(lang)


def test_the_language_switch_translates_at_once_and_is_remembered(new_context: Any) -> None:
    page = new_context(locale="en-GB").new_page()
    page.goto("/")
    expect(page.locator("h1")).to_have_text("Board games with friends")
    page.select_option("#lang-switch", "es")
    expect(page.locator("h1")).to_have_text("Juegos de mesa con amigos")
    expect(page.locator("form.name-form button[type=submit]")).to_have_text("Continuar")
    page.reload()
    expect(page.locator("h1")).to_have_text("Juegos de mesa con amigos")
    expect(page.locator("html")).to_have_attribute("lang", "es")


def test_the_create_form_is_built_from_the_options_schema(new_context: Any) -> None:
    page = new_context(locale="es-ES").new_page()
    page.goto("/")
    page.fill("#player-name", "Lucía")
    page.click("form.name-form button[type=submit]")
    expect(page.locator("#create-form")).to_be_visible()
    page.click("details.options summary")
    # enum -> select, boolean -> checkbox, a seat or nobody -> a select of "at random" and seats
    expect(page.locator("select#opt-luz-trump option")).to_have_count(2)
    expect(page.locator("select#opt-luz-trump")).to_contain_text("Amarillo (sol)")
    expect(page.locator("input#opt-luz-strict_memory[type=checkbox]")).not_to_be_checked()
    expect(page.locator("select#opt-luz-first_player option")).to_have_text(
        ["Al azar", "Asiento 1 (tú)", "Asiento 2", "Asiento 3"]
    )
    expect(page.locator("#create-seats")).to_have_attribute("min", "3")
    expect(page.locator("#create-seats")).to_have_attribute("max", "5")
