"""Each person at a table reads the app in their own language: the one they pick in the
header, else their browser's; the others at the table keep theirs."""

import re

import pytest
from django.apps import apps
from playwright.sync_api import expect

from characters.content import load_standard_content
from sessions import actions
from sessions.models import Membership
from tests.browsers import start_table, wait_for_socket
from tests.factories import CharacterFactory

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


@pytest.fixture
def crew(transactional_db, make_user):
    load_standard_content(apps)  # transactional_db flushed what the migration loaded
    gm, ada_user = (make_user(name) for name in ("gm", "ada"))
    table = actions.create_table(gm=gm, name="The Crows' Nest")
    Membership.objects.create(table=table, user=ada_user, role=Membership.Role.PLAYER)
    CharacterFactory(table=table, owner=ada_user, name="Ada", prowl=2)
    return table


def test_a_spanish_player_rolls_in_spanish_while_the_gm_calls_it_in_english(person, server, crew):
    gm, ada = person("gm"), person("ada")
    for page in (gm, ada):
        page.goto(f"{server.url}/tables/{crew.pk}/")
        wait_for_socket(page)
    ada.get_by_label("Language").select_option(label="Español")
    ada.get_by_role("button", name="Change language").click()
    expect(ada.locator("html")).to_have_attribute("lang", "es")
    wait_for_socket(ada)

    ada.get_by_text("Empezar una tirada de acción").click()  # the form is folded away
    ada.get_by_label("Objetivo").fill("Slip past the watch")
    ada.get_by_label("Acción", exact=True).select_option(label="Merodear")
    ada.get_by_role("button", name="Proponer la tirada").click()
    mine = ada.get_by_role("article", name=re.compile("Ada: Merodear — Slip past the watch"))
    expect(mine.get_by_role("status")).to_have_text(
        "Esperando a que el DJ fije la posición y el efecto."
    )

    called = gm.get_by_role("article", name=re.compile("Ada: Prowl — Slip past the watch"))
    called.get_by_label("Position").select_option(label="Desperate")
    called.get_by_label("Effect").select_option(label="Great")
    called.get_by_role("button", name="Set position and effect").click()
    expect(called).to_contain_text("Desperate position · Great effect")
    # Pushed to her in her language, as the GM's page is drawn in his.
    expect(mine).to_contain_text("posición Desesperada · efecto Grande")

    mine.get_by_role("button", name="Tirar los dados").click()
    # The die that counts, named in each reader's language, and the outcome's words.
    expect(mine.get_by_role("img", name=re.compile(r"\(cuenta\)"))).to_have_count(1)
    expect(called.get_by_role("img", name=re.compile(r"\(counts\)"))).to_have_count(1)
    expect(mine).to_contain_text(re.compile("Crítico|Éxito total|Éxito parcial|Mal resultado"))
    expect(called).to_contain_text(re.compile("Critical|Full success|Partial success|Bad outcome"))
    expect(mine.get_by_role("button", name="Tirar los dados")).to_have_count(0)
