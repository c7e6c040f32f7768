"""One roll (issue 13), as a table plays it: a player starts an action roll from her
sheet, the GM sets the terms, she rolls, and the roll reaches every log (each player's,
the GM's, the shared screen's); a secret fortune roll reaches the GM's alone. Each person
has a browser of their own."""

import re

import pytest
from django.apps import apps
from playwright.sync_api import expect

from characters.content import load_standard_content
from crews.models import Screen
from sessions import actions
from sessions.models import Membership
from tests.browsers import wait_for_socket
from tests.factories import CharacterFactory

pytestmark = pytest.mark.browser

LINE = "Prowl · Desperate / Great"


@pytest.fixture
def crew(transactional_db, make_user):
    load_standard_content(apps)  # transactional_db flushed what the migration loaded
    gm, ada_user, bo_user = (make_user(name) for name in ("gm", "ada", "bo"))
    table = actions.create_table(gm=gm, name="The Crows' Nest")
    for user in (ada_user, bo_user):
        Membership.objects.create(table=table, user=user, role=Membership.Role.PLAYER)
    ada = CharacterFactory(table=table, owner=ada_user, name="Ada", prowl=2)
    CharacterFactory(table=table, owner=bo_user, name="Bo", prowl=1)
    return table, ada


def table_page(person, server, table, name):
    page = person(name)
    page.goto(f"{server.url}/tables/{table.pk}/")
    wait_for_socket(page)
    return page


def roll_log(page):
    return page.get_by_role("list", name="Roll log")


def test_a_roll_from_the_sheet_reaches_every_log(person, server, crew):
    table, ada = crew
    gm = table_page(person, server, table, "gm")
    bo = table_page(person, server, table, "bo")
    screen = person()  # the shared screen: a link, no login
    shared = Screen.objects.create(table=table, active=True)
    screen.goto(f"{server.url}/screen/{shared.token}/")

    # Ada starts from her sheet: the button proposes the shared roll, the GM sets terms.
    ada_page = person("ada")
    ada_page.goto(f"{server.url}/tables/{table.pk}/characters/{ada.pk}/")
    ada_page.get_by_role("link", name="Roll Prowl (2d)").click()
    # A page of its own (the sheet's boosted links would have drawn it inside the sheet).
    expect(ada_page).to_have_url(re.compile(rf"/tables/{table.pk}/\?roll=prowl#flow-start$"))
    wait_for_socket(ada_page)
    # The table page opens with the start form unfolded on that action.
    expect(ada_page.get_by_label("Action", exact=True)).to_have_value("prowl")
    ada_page.get_by_label("Goal").fill("Slip past the watch")
    ada_page.get_by_role("button", name="Propose the roll").click()
    roll = gm.get_by_role("article", name=re.compile("Ada: Prowl — Slip past the watch"))
    roll.get_by_label("Position").select_option(label="Desperate")
    roll.get_by_label("Effect").select_option(label="Great")
    roll.get_by_role("button", name="Set position and effect").click()
    mine = ada_page.get_by_role("article", name=re.compile("Ada: Prowl — Slip past the watch"))
    expect(mine).to_contain_text("Desperate position · Great effect")
    # The shared screen shows the roll in progress.
    expect(screen.get_by_role("region", name="Rolling now")).to_contain_text("Slip past the watch")
    mine.get_by_role("button", name="Roll the dice").click()

    for page in (ada_page, bo, gm):
        line = roll_log(page).get_by_role("listitem").filter(has_text=LINE)
        expect(line).to_contain_text("Ada")
        expect(line.get_by_role("img", name=re.compile(r"\(counts\)"))).to_have_count(1)
    on_screen = screen.get_by_role("region", name="Latest rolls").get_by_role("listitem")
    expect(on_screen.filter(has_text=LINE)).to_contain_text("Ada")

    # A secret fortune roll: the GM's log only. An open one after it reaches everyone,
    # and by then the secret would have too.
    card = gm.get_by_role("region", name="Action rolls")
    for goal, secret in (("Lampblack moves", True), ("Open weather", False)):
        if not card.get_by_label("What is at stake").is_visible():
            card.get_by_text("Fortune roll", exact=True).click()
        card.get_by_label("What is at stake").fill(goal)
        card.get_by_label("Secret (GM only)").set_checked(secret)
        card.get_by_role("button", name="Roll fortune").click()
        expect(roll_log(gm).get_by_role("listitem").filter(has_text=goal)).to_have_count(1)
    for page in (ada_page, bo):
        opened = roll_log(page).get_by_role("listitem").filter(has_text="Open weather")
        expect(opened).to_have_count(1)
        expect(roll_log(page)).not_to_contain_text("Lampblack moves")
    expect(screen.get_by_role("region", name="Latest rolls")).to_contain_text("Open weather")
    expect(screen.get_by_role("region", name="Latest rolls")).not_to_contain_text("Lampblack")
