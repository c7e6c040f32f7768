"""Each person at a table reads the app in their own language: the one they pick in the
header, else their browser's; the others at the table keep theirs."""

import pytest
from playwright.sync_api import expect

from tests.browsers import start_table

pytestmark = pytest.mark.browser


def test_a_player_picks_spanish_and_the_table_stays_english_for_the_others(
    person, make_user, server
):
    gm, ada, bo = start_table(person, make_user)
    ada.get_by_label("Language").select_option(label="Español")
    ada.get_by_role("button", name="Change language").click()
    # Back on the page she was on, now in Spanish.
    expect(ada.locator("html")).to_have_attribute("lang", "es")
    expect(ada.get_by_role("heading", name="The Crows' Nest", level=1)).to_be_visible()
    expect(ada.get_by_role("link", name="Mis mesas")).to_be_visible()
    expect(ada.get_by_label("Idioma")).to_have_value("es")
    for page in (gm, bo):
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.get_by_role("link", name="My tables")).to_be_visible()

    # The choice is kept on her account: a new browser she logs in from reads Spanish.
    again = person("ada")
    expect(again.locator("html")).to_have_attribute("lang", "es")
    expect(again.get_by_role("link", name="Mis mesas")).to_be_visible()


def test_a_spanish_browser_reads_spanish_until_its_reader_picks_english(person, server):
    page = person(locale="es-ES")
    page.goto(server.url + "/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    nav = page.get_by_role("navigation", name="Cuenta")
    expect(nav.get_by_role("link", name="Crear cuenta")).to_be_visible()
    page.get_by_label("Idioma").select_option(label="English")
    page.get_by_role("button", name="Cambiar idioma").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    nav = page.get_by_role("navigation", name="Account")
    expect(nav.get_by_role("link", name="Sign up")).to_be_visible()
